// Compare: the selected variant and another, started together with the same parameters,
// speed and fault plan, drawn on one time axis (broken above correct).
import type { VariantManifest } from '@racelab/shared';
import { fitPlan, ruleWords } from '../../model/faultPlan.js';
import { checkInputs } from '../../model/params.js';
import { useStore } from '../../store/index.js';
import { counterpartOf } from '../../store/runsSlice.js';
import { selectRunInProgress, selectScenario, selectVariant } from '../../store/selectors.js';
import { splitVariants, variantName } from './VariantPicker.js';

export function CompareControl() {
  const scenario = useStore(selectScenario);
  const variant = useStore(selectVariant);
  const compareWith = useStore((s) => s.compareWith);
  const faults = useStore((s) => s.faults);
  const inputs = useStore((s) => s.paramInputs);
  const connected = useStore((s) => s.transport !== null);
  const inProgress = useStore(selectRunInProgress);
  const setCompareWith = useStore((s) => s.setCompareWith);
  const startCompare = useStore((s) => s.startCompare);
  if (!scenario || !variant || scenario.variants.length < 2) return null;
  const other = counterpartOf(scenario, variant, compareWith);
  if (!other) return null;
  const dropped = fitPlan(faults, other).dropped;
  const valid = checkInputs(scenario, variant.id, inputs).ok;
  const { own, libraries } = splitVariants(scenario.variants.filter((v) => v.id !== variant.id));
  const option = (v: VariantManifest) => (
    <option key={v.id} value={v.id}>
      {variantName(v.id, v.correct)}
    </option>
  );
  return (
    <div className="field compare">
      <label htmlFor="compare-with" className="field-label">
        Compare with
      </label>
      <select id="compare-with" value={other.id} onChange={(e) => setCompareWith(e.target.value)}>
        {own.map(option)}
        {libraries.length > 0 && <optgroup label="Libraries">{libraries.map(option)}</optgroup>}
      </select>
      <button
        type="button"
        disabled={!connected || inProgress || !valid}
        title="Both variants at once, on one time axis (C)"
        onClick={() => startCompare()}
      >
        Run both side by side
      </button>
      {dropped.length > 0 && (
        <p className="help">
          {other.id} has no checkpoint for: {dropped.map(ruleWords).join('; ')}. That breakpoint applies to {variant.id} only.
        </p>
      )}
    </div>
  );
}
