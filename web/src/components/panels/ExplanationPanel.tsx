import type { WildSource } from '@racelab/shared';
import { blocks, inlinePieces, type ProseBlock } from '../../model/prose.js';
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';

function Inline({ text }: { text: string }) {
  return (
    <>
      {inlinePieces(text).map((piece, i) =>
        piece.kind === 'strong' ? (
          <strong key={i}>{piece.text}</strong>
        ) : piece.kind === 'em' ? (
          <em key={i}>{piece.text}</em>
        ) : piece.kind === 'code' ? (
          <code key={i}>{piece.text}</code>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}

function Block({ block }: { block: ProseBlock }) {
  switch (block.kind) {
    case 'paragraph':
      return (
        <p>
          <Inline text={block.text} />
        </p>
      );
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <Inline text={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table':
      return (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, i) => (
                  <th key={i} scope="col">
                    <Inline text={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row">
                        <Inline text={cell} />
                      </th>
                    ) : (
                      <td key={i}>
                        <Inline text={cell} />
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** Where the scenario's mistake happened or was analysed: each source's title links to it, its summary beside. */
function SeenInTheWild({ sources }: { sources: readonly WildSource[] }) {
  if (sources.length === 0) return null;
  return (
    <section className="seen-in-the-wild" aria-labelledby="seen-in-the-wild-title">
      <h3 id="seen-in-the-wild-title">Seen in the wild</h3>
      <p className="wild-note">Public sources where this mistake happened or was analysed; each link opens in a new tab.</p>
      <ul>
        {sources.map((source) => (
          <li key={source.url}>
            <a href={source.url} target="_blank" rel="noopener">
              {source.title}
            </a>
            <span className="wild-summary"> — {source.summary}</span>
          </li>
        ))}
      </ul>
    </section>
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
      {blocks(scenario.explanation).map((block, i) => (
        <Block key={i} block={block} />
      ))}
      <SeenInTheWild sources={scenario.seenInTheWild ?? []} />
    </section>
  );
}
