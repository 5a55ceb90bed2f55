// The lock libraries' scorecard: a table of locks × faults, each cell its verdict in words,
// colour and icon, the fair words, the parameters it was seen at, and a button that replays
// its run on the page (a shipped recording: no server). Shown in place of the playground;
// under it, the check of a lock of your own (OwnLockCheck).
import { useEffect, useState, type CSSProperties } from 'react';
import { cellAt, type Scorecard, type ScorecardCell } from '@racelab/shared';
import { loadScorecard, openCell } from '../../app/scorecard.js';
import { useStore } from '../../store/index.js';
import { Icon } from '../icons/Icon.js';
import { cellLook, FAIR_WORDS, seenAtWords, WHY_LEASES_NEED_FENCING } from './cellLook.js';
import { OwnLockCheck } from './OwnLockCheck.js';

const WHY = WHY_LEASES_NEED_FENCING;
const whyScenarioHref = `?scenario=${WHY.scenario}&variant=${WHY.variant}`;
const whyRecordingHref = `?replay=${WHY.recording}`;

/** The cell whose run was opened last: its button takes the focus back when the matrix returns. */
let lastOpened: string | null = null;
const cellKey = (cell: ScorecardCell) => `${cell.lock}×${cell.fault}`;

function Cell({ cell, lockName, faultTitle }: { cell: ScorecardCell | undefined; lockName: string; faultTitle: string }) {
  const [error, setError] = useState<string | null>(null);
  if (!cell) return <td className="sc-cell not-applicable">not measured</td>;
  const look = cellLook(cell);
  const seen = seenAtWords(cell);
  return (
    <td className={`sc-cell ${look.tone}`}>
      <span className="sc-top">
        <span className="sc-verdict">
          <Icon name={look.icon} />
          {look.words}
        </span>
        {cell.recording && (
          <button
            type="button"
            className="sc-open"
            data-cell={cellKey(cell)}
            aria-label={`Replay ${lockName} under “${faultTitle}”`}
            onClick={() => {
              lastOpened = cellKey(cell);
              void openCell(useStore, cell).then(setError);
            }}
          >
            <Icon name="play" /> Replay
          </button>
        )}
      </span>
      {look.fair && (
        <span className="sc-fair">
          {look.fair} — why: <a href={whyScenarioHref}>the {WHY.scenario} scenario</a> (<a href={whyRecordingHref}>recorded</a>)
        </span>
      )}
      <span className="sc-note">{cell.note}</span>
      {seen && (
        <span className="sc-seen">
          <span className="sc-seen-label">Seen at</span> {seen}
        </span>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </td>
  );
}

function Matrix({ card }: { card: Scorecard }) {
  return (
    <div className="sc-scroll" role="region" aria-label="Scorecard: locks × faults" tabIndex={0}>
      {/* Each fault column keeps a readable width: the box scrolls sideways where the screen has not the room. */}
      <table className="sc-table" style={{ '--faults': card.faults.length } as CSSProperties}>
        <caption className="sc-caption">Lock libraries (rows) under each fault (columns)</caption>
        <thead>
          <tr>
            <th scope="col" className="sc-corner">
              Library
            </th>
            {card.faults.map((f) => (
              <th scope="col" key={f.id}>
                <span className="sc-fault-title">{f.title}</span>
                <span className="sc-fault-mapping">{f.mapping}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {card.locks.map((lock) => (
            <tr key={lock.id}>
              <th scope="row" className="sc-lock">
                <code className="sc-lock-name">{lock.name}</code>
                <span className="sc-lock-version">{lock.version}</span>
                <span className="sc-lock-renews">{lock.renews ? 'renews its lease' : 'no renewal'}</span>
              </th>
              {card.faults.map((f) => (
                <Cell key={f.id} cell={cellAt(card, lock.id, f.id)} lockName={lock.name} faultTitle={f.title} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ScorecardView() {
  const setScorecard = useStore((s) => s.setScorecard);
  const [loaded, setLoaded] = useState<Awaited<ReturnType<typeof loadScorecard>> | null>(null);
  useEffect(() => {
    let live = true;
    void loadScorecard().then((result) => live && setLoaded(result));
    return () => {
      live = false;
    };
  }, []);
  // Back from a cell's run, the keyboard is where it was: on that cell's button.
  useEffect(() => {
    if (!loaded || !lastOpened) return;
    document.querySelector<HTMLButtonElement>(`.sc-open[data-cell="${CSS.escape(lastOpened)}"]`)?.focus();
  }, [loaded]);
  return (
    <section className="scorecard" aria-labelledby="scorecard-title">
      <div className="sc-head">
        <h2 id="scorecard-title">Lock libraries under faults</h2>
        <button type="button" onClick={() => setScorecard(false)}>
          Back to the playground
        </button>
      </div>
      <p className="sc-lead">
        Real npm lock libraries run as variants of racelab’s scenarios, in real worker processes against the real Redis and PostgreSQL;
        every verdict is read from the stores. A lease {FAIR_WORDS}: no library is faulted for what no lease can promise. Each cell replays
        its run here, with no server.
      </p>
      {loaded === null && <p className="sc-loading">Loading the scorecard…</p>}
      {loaded && !loaded.ok && (
        <p className="error" role="alert">
          {loaded.error}
        </p>
      )}
      {loaded?.ok && <Matrix card={loaded.card} />}
      {/* Below the matrix: whatever it shows or becomes moves nothing above it. */}
      <OwnLockCheck />
    </section>
  );
}
