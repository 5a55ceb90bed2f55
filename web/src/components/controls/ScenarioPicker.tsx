import { useStore } from '../../store/index.js';
import { SelectField } from './SelectField.js';

export function ScenarioPicker() {
  const catalog = useStore((s) => s.catalog);
  const scenarioId = useStore((s) => s.scenarioId);
  const selectScenario = useStore((s) => s.selectScenario);
  const options = (catalog ?? []).map((s) => ({ value: s.id, text: `${s.id} — ${s.title}` }));
  return <SelectField id="scenario-select" label="Scenario" value={scenarioId ?? ''} options={options} onChange={selectScenario} />;
}
