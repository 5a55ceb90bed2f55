// One radio per variant. Its accessible name is "<id> (broken)" or "<id> (correct)"; the
// card beside it shows the title and summary, with broken/correct in words and colour.
// Variants that run an npm lock library are listed apart, under "Libraries", by name and
// version: one radio group still, so ↑ ↓ move through all of them.
import type { VariantManifest } from '@racelab/shared';
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';

export function variantName(id: string, correct: boolean): string {
  return `${id} (${correct ? 'correct' : 'broken'})`;
}

/** racelab's own variants, then those that run a lock library. */
export function splitVariants(variants: VariantManifest[]): { own: VariantManifest[]; libraries: VariantManifest[] } {
  return { own: variants.filter((v) => !v.library), libraries: variants.filter((v) => v.library) };
}

function VariantCard({ variant: v, selected, onSelect }: { variant: VariantManifest; selected: boolean; onSelect: () => void }) {
  const id = `variant-${v.id}`;
  const kind = v.correct ? 'correct' : 'broken';
  const badge = <span className={`badge ${kind}`}>{v.correct ? '✓ correct' : '✗ broken'}</span>;
  return (
    <label className={`variant ${kind}${v.library ? ' library' : ''}${selected ? ' selected' : ''}`} htmlFor={id}>
      <input
        type="radio"
        id={id}
        name="variant"
        value={v.id}
        checked={selected}
        onChange={onSelect}
        aria-label={variantName(v.id, v.correct)}
        aria-describedby={v.unavailable ? `${id}-summary ${id}-unavailable` : `${id}-summary`}
      />
      <span className="variant-text">
        {v.library ? (
          <>
            <span className="variant-head">
              <span className="library-name">{v.library.name}</span>
              <span className="library-version">{v.library.version}</span>
              {badge}
            </span>
            <code className="variant-id small">{v.id}</code>
          </>
        ) : (
          <>
            <span className="variant-head">
              <code className="variant-id">{v.id}</code>
              {badge}
            </span>
            <span className="variant-title">{v.title}</span>
          </>
        )}
        <span className="variant-summary" id={`${id}-summary`}>
          {v.summary}
        </span>
        {v.unavailable && (
          <span className="variant-unavailable" id={`${id}-unavailable`}>
            Unavailable on this server: {v.unavailable}
          </span>
        )}
      </span>
    </label>
  );
}

export function VariantPicker() {
  const scenario = useStore(selectScenario);
  const variantId = useStore((s) => s.variantId);
  const selectVariant = useStore((s) => s.selectVariant);
  if (!scenario) return null;
  const { own, libraries } = splitVariants(scenario.variants);
  const card = (v: VariantManifest) => (
    <VariantCard key={v.id} variant={v} selected={v.id === variantId} onSelect={() => selectVariant(v.id)} />
  );
  return (
    <div className="field">
      <span id="variant-label" className="field-label">
        Variant
      </span>
      <div role="radiogroup" aria-labelledby="variant-label" className="variants">
        {own.map(card)}
        {libraries.length > 0 && (
          <div role="group" aria-labelledby="variant-libraries-label" className="variants variant-libraries">
            <span id="variant-libraries-label" className="field-label variant-group-label">
              Libraries
            </span>
            <span className="help">npm lock libraries, at the versions racelab pins</span>
            {libraries.map(card)}
          </div>
        )}
      </div>
    </div>
  );
}
