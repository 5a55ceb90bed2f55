// The libraries' scorecard: a table of locks × faults, and under it the job queues,
// schedulers and poolers × the faults that apply to them; each cell its verdict in words,
// colour and icon, the fair words, the parameters it was seen at, and a button that replays
// its run on the page (a shipped recording: no server). Shown in place of the playground;
// under it, the check of a lock of your own (OwnLockCheck).
import { useEffect, useState, type CSSProperties } from 'react';
import { cellAt, type CellReading, type Scorecard, type StackScorecard } from '@racelab/shared';
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

/** A row of either part: its id (the cells' key), its name as the Replay button says it, and its header's three lines. */
interface MatrixRow {
  id: string;
  name: string;
  library: string;
  version: string;
  detail: string;
}

/** A table of rows × faults: the locks, or the job queues, schedulers and poolers. */
interface MatrixPart {
  label: string;
  caption: string;
  corner: string;
  rows: MatrixRow[];
  faults: Array<{ id: string; title: string; mapping: string }>;
  cellOf(row: string, fault: string): CellReading | undefined;
}

function Cell({ cell, at, rowName, faultTitle }: { cell: CellReading | undefined; at: string; rowName: string; faultTitle: string }) {
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
            data-cell={at}
            aria-label={`Replay ${rowName} under “${faultTitle}”`}
            onClick={() => {
              lastOpened = at;
              void openCell(useStore, cell, `${rowName} × ${faultTitle}`).then(setError);
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

function Matrix({ part }: { part: MatrixPart }) {
  return (
    <div className="sc-scroll" role="region" aria-label={part.label} tabIndex={0}>
      {/* Each fault column keeps a readable width: the box scrolls sideways where the screen has not the room. */}
      <table className="sc-table" style={{ '--faults': part.faults.length } as CSSProperties}>
        <caption className="sc-caption">{part.caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="sc-corner">
              {part.corner}
            </th>
            {part.faults.map((f) => (
              <th scope="col" key={f.id}>
                <span className="sc-fault-title">{f.title}</span>
                <span className="sc-fault-mapping">{f.mapping}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {part.rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="sc-lock">
                <code className="sc-lock-name">{row.library}</code>
                <span className="sc-lock-version">{row.version}</span>
                <span className="sc-lock-renews">{row.detail}</span>
              </th>
              {part.faults.map((f) => (
                <Cell key={f.id} cell={part.cellOf(row.id, f.id)} at={`${row.id}×${f.id}`} rowName={row.name} faultTitle={f.title} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first part: lock libraries under the faults every lock meets. */
function locksPart(card: Scorecard): MatrixPart {
  return {
    label: 'Scorecard: locks × faults',
    caption: 'Lock libraries (rows) under each fault (columns)',
    corner: 'Library',
    faults: card.faults,
    cellOf: (lock, fault) => cellAt(card, lock, fault),
    rows: card.locks.map((lock) => ({
      id: lock.id,
      name: lock.name,
      library: lock.name,
      version: lock.version,
      detail: lock.renews ? 'renews its lease' : 'no renewal',
    })),
  };
}

/** The second part: job queues, schedulers and poolers, each as a scenario's variant uses it. */
function stacksPart(stacks: StackScorecard): MatrixPart {
  return {
    label: 'Scorecard: job queues, schedulers and poolers × faults',
    caption: 'Job queues, schedulers and poolers, as each variant uses them (rows), under each fault that applies (columns)',
    corner: 'Library, as used',
    faults: stacks.faults,
    cellOf: (row, fault) => stacks.cells.find((c) => c.row === row && c.fault === fault),
    rows: stacks.rows.map((row) => ({
      id: row.id,
      name: `${row.library}: ${row.usage}`,
      library: row.library,
      version: row.version,
      detail: `${row.usage} (${row.correct ? 'correct' : 'broken'})`,
    })),
  };
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
      {loaded?.ok && <Matrix part={locksPart(loaded.card)} />}
      {loaded?.ok && loaded.card.stacks && (
        <>
          <h3 className="sc-part-title">Job queues, schedulers and poolers under faults</h3>
          <p className="sc-lead">
            The libraries around the lock: each row is a scenario’s variant using the library, broken or correct, run under the faults that
            apply to it; the verdict is read from the stores, as above.
          </p>
          <Matrix part={stacksPart(loaded.card.stacks)} />
        </>
      )}
      {/* Below the matrix: whatever it shows or becomes moves nothing above it. */}
      <OwnLockCheck />
    </section>
  );
}
