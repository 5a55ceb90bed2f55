import { inlinePieces, paragraphs } from '../../model/prose.js';
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';

function Paragraph({ text }: { text: string }) {
  return (
    <p>
      {inlinePieces(text).map((piece, i) =>
        piece.kind === 'strong' ? (
          <strong key={i}>{piece.text}</strong>
        ) : piece.kind === 'code' ? (
          <code key={i}>{piece.text}</code>
        ) : (
          piece.text
        ),
      )}
    </p>
  );
}

export function ExplanationPanel() {
  const scenario = useStore(selectScenario);
  if (!scenario) return null;
  return (
    <section className="panel explanation" aria-labelledby="explanation-title">
      <div className="panel-head">
        <h2 id="explanation-title">Explanation</h2>
        <p className="run-of">{scenario.title}</p>
      </div>
      {paragraphs(scenario.explanation).map((p, i) => (
        <Paragraph key={i} text={p} />
      ))}
    </section>
  );
}
