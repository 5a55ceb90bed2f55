import { useStore } from '../../store/index.js';

export function ScenarioPicker() {
  const catalog = useStore((s) => s.catalog);
  const scenarioId = useStore((s) => s.scenarioId);
  const selectScenario = useStore((s) => s.selectScenario);
  return (
    <div className="field">
      <label htmlFor="scenario-select" className="field-label">
        Scenario
      </label>
      <select id="scenario-select" value={scenarioId ?? ''} onChange={(e) => selectScenario(e.target.value)}>
        {(catalog ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.id} — {s.title}
          </option>
        ))}
      </select>
    </div>
  );
}
