// One radio per variant. Its accessible name is "<id> (broken)" or "<id> (correct)"; the
// card beside it shows the title and summary, with broken/correct in words and colour.
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';

export function variantName(id: string, correct: boolean): string {
  return `${id} (${correct ? 'correct' : 'broken'})`;
}

export function VariantPicker() {
  const scenario = useStore(selectScenario);
  const variantId = useStore((s) => s.variantId);
  const selectVariant = useStore((s) => s.selectVariant);
  if (!scenario) return null;
  return (
    <div className="field">
      <span id="variant-label" className="field-label">
        Variant
      </span>
      <div role="radiogroup" aria-labelledby="variant-label" className="variants">
        {scenario.variants.map((v) => {
          const id = `variant-${v.id}`;
          const kind = v.correct ? 'correct' : 'broken';
          return (
            <label key={v.id} className={`variant ${kind}${v.id === variantId ? ' selected' : ''}`} htmlFor={id}>
              <input
                type="radio"
                id={id}
                name="variant"
                value={v.id}
                checked={v.id === variantId}
                onChange={() => selectVariant(v.id)}
                aria-label={variantName(v.id, v.correct)}
                aria-describedby={`${id}-summary`}
              />
              <span className="variant-text">
                <span className="variant-head">
                  <code className="variant-id">{v.id}</code>
                  <span className={`badge ${kind}`}>{v.correct ? '✓ correct' : '✗ broken'}</span>
                </span>
                <span className="variant-title">{v.title}</span>
                <span className="variant-summary" id={`${id}-summary`}>
                  {v.summary}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </div>
  );
}
