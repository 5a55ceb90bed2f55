// The selected variant's source, with line numbers drawn by CSS (not part of the text).
import { useStore } from '../../store/index.js';
import { selectVariant } from '../../store/selectors.js';

export function CodePanel() {
  const variant = useStore(selectVariant);
  if (!variant) return null;
  const lines = variant.code.replace(/\s+$/, '').split('\n');
  return (
    <section className="panel code" aria-labelledby="code-title">
      <div className="panel-head">
        <h2 id="code-title">Code</h2>
        <p className="run-of">
          <code>{variant.id}</code> — {variant.title}{' '}
          <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>
            {variant.correct ? '✓ correct' : '✗ broken'}
          </span>
        </p>
      </div>
      <pre className="code-block" tabIndex={0} aria-label={`Source of ${variant.id}`}>
        <code>
          {lines.map((line, i) => (
            <span className="code-line" key={i}>
              {line}
              {'\n'}
            </span>
          ))}
        </code>
      </pre>
    </section>
  );
}
