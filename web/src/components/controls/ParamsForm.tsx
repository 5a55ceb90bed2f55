import { useMemo } from 'react';
import { fieldErrors } from '../../model/params.js';
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';
import { ParamField } from './ParamField.js';

export function ParamsForm() {
  const scenario = useStore(selectScenario);
  const variantId = useStore((s) => s.variantId);
  const inputs = useStore((s) => s.paramInputs);
  const setParamInput = useStore((s) => s.setParamInput);
  const errors = useMemo(() => (scenario && variantId ? fieldErrors(scenario, variantId, inputs) : {}), [scenario, variantId, inputs]);
  if (!scenario || scenario.params.length === 0) return null;
  return (
    <fieldset className="params">
      <legend className="field-label">Parameters</legend>
      {scenario.params.map((spec) => (
        <ParamField
          key={spec.name}
          spec={spec}
          text={inputs[spec.name] ?? ''}
          error={errors[spec.name]}
          onChange={(text) => setParamInput(spec.name, text)}
        />
      ))}
    </fieldset>
  );
}
