// "Check your own lock", under the matrix: a lock module the user picks, run by the page's
// server through every fault of the scorecard (only a server started with --allow-own-locks
// does that), its verdicts in the cells' words and colours. Anywhere else, the command to
// run instead.
import { useEffect, useRef, useState } from 'react';
import { CHECK_LOCK_COMMAND, type OwnLockChecked } from '@racelab/shared';
import { checkOwnLock, ownLocksOnServer, type CheckedLock, type OwnLocksOnServer } from '../../app/ownLock.js';
import { Icon } from '../icons/Icon.js';
import { cellLook } from './cellLook.js';

const INPUT_ID = 'own-lock-file';

type Shown = { step: 'idle' } | { step: 'checking'; file: string } | ({ step: 'done'; file: string } & CheckedLock);

function Unavailable({ why }: { why: Exclude<OwnLocksOnServer, 'allowed'> }) {
  const command = <code>{CHECK_LOCK_COMMAND}</code>;
  return why === 'off' ? (
    <p className="sc-own-why">
      This server was not started with <code>--allow-own-locks</code>, so it runs no lock module from the page: run {command} in a terminal
      instead.
    </p>
  ) : (
    <p className="sc-own-why">There is no racelab server behind this page to run a lock module: run {command} in a terminal instead.</p>
  );
}

function Result({ result, file }: { result: OwnLockChecked; file: string }) {
  const title = (fault: string) => result.faults.find((f) => f.id === fault)?.title ?? fault;
  return (
    <div className="sc-own-result">
      <p className={`sc-own-verdict ${result.passed ? 'correct' : 'failed'}`}>
        <Icon name={result.passed ? 'check' : 'cross'} />
        <span>
          <code>{result.name}</code> (from {file}){' '}
          {result.passed ? 'passed: every fault that applies is handled.' : 'failed: not every fault that applies is handled.'}
        </span>
      </p>
      <ul className="sc-own-cells" aria-label="Your lock under each fault">
        {result.cells.map((cell) => {
          const look = cellLook(cell);
          return (
            <li key={cell.fault} className={`sc-cell ${look.tone}`}>
              <span className="sc-verdict">
                <Icon name={look.icon} />
                {title(cell.fault)}: {look.words}
              </span>
              {look.fair && <span className="sc-fair">{look.fair}</span>}
              <span className="sc-note">{cell.note}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function OwnLockCheck() {
  const [server, setServer] = useState<OwnLocksOnServer | null>(null);
  const [shown, setShown] = useState<Shown>({ step: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    let live = true;
    void ownLocksOnServer().then((found) => live && setServer(found));
    return () => {
      live = false;
    };
  }, []);

  const check = async (file: File | undefined) => {
    if (!file) return;
    setShown({ step: 'checking', file: file.name });
    const checked = await checkOwnLock(file);
    setShown({ step: 'done', file: file.name, ...checked });
    // The same file may be picked again (after it was edited).
    if (input.current) input.current.value = '';
  };

  return (
    <section className="sc-own" aria-labelledby="sc-own-title">
      <h3 id="sc-own-title">Check your own lock</h3>
      <p className="sc-own-lead">
        A lock module behind the same interface as the libraries (see examples/locks/README.md), run through every fault above on this
        server, in real worker processes against the real stores.
      </p>
      {server === null && <p className="sc-own-why">Asking the server whether it runs lock modules…</p>}
      {server !== null && server !== 'allowed' && <Unavailable why={server} />}
      <div className="field">
        <label htmlFor={INPUT_ID}>Lock module (.mjs or .js)</label>
        <input
          id={INPUT_ID}
          ref={input}
          type="file"
          accept=".mjs,.js"
          disabled={server !== 'allowed' || shown.step === 'checking'}
          onChange={(e) => void check(e.target.files?.[0])}
        />
      </div>
      <div role="status" className="sc-own-status">
        {shown.step === 'checking' && <p>Checking {shown.file}… every fault, about a minute.</p>}
      </div>
      {shown.step === 'done' && shown.ok && <Result result={shown.result} file={shown.file} />}
      {shown.step === 'done' && !shown.ok && (
        <p className="error sc-own-error" role="alert">
          {shown.file}: {shown.error}
        </p>
      )}
    </section>
  );
}
