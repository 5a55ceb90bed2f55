// Share → Embed: the <iframe> snippet for what is on screen (the recording or the live run,
// its setup, the playhead's moment), with a copy button. The host page's origin, when given,
// goes into the snippet: the embed then takes postMessage commands from that page.
import { useState } from 'react';
import { embedSnippet } from '../../app/embedSnippet.js';
import { setupOf } from '../../app/urlSync.js';
import { safeOrigin } from '../../model/urlState.js';
import { useStore } from '../../store/index.js';
import { scenarioOfRun, selectCurrentRun } from '../../store/selectors.js';
import { runTitle } from '../panels/runTitle.js';

function snippetNow(hostOrigin: string | undefined): string {
  const s = useStore.getState();
  const run = selectCurrentRun(s);
  const title = run ? runTitle(scenarioOfRun(s, run), run.scenario, run.variant) : 'racelab';
  return embedSnippet({ pageUrl: window.location.href, setup: setupOf(s), hostOrigin, title });
}

export function EmbedItem() {
  const [open, setOpen] = useState(false);
  const [host, setHost] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  // Read when the item opens and as the host is typed: the moment is the one on screen then.
  const [snippet, setSnippet] = useState('');
  const origin = safeOrigin(host.trim()) ?? undefined;
  const refresh = (hostText: string) => setSnippet(snippetNow(safeOrigin(hostText.trim()) ?? undefined));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Copied.');
    } catch {
      setCopied('The browser would not copy: select the text and copy it.');
    }
  };
  return (
    <div className="embed-item">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
          refresh(host);
          setCopied(null);
        }}
        title="An <iframe> of this run at this moment, for a blog post or a slide"
      >
        Embed
      </button>
      {open && (
        <div className="embed-snippet" role="group" aria-label="Embed snippet">
          <label htmlFor="embed-host">Host page origin (optional, for postMessage)</label>
          <input
            id="embed-host"
            type="url"
            placeholder="https://blog.example"
            value={host}
            onChange={(e) => {
              setHost(e.target.value);
              refresh(e.target.value);
            }}
          />
          {host.trim() && !origin && <p className="error">Not an origin: scheme and host only, e.g. https://blog.example</p>}
          <textarea aria-label="Embed code" readOnly rows={4} value={snippet} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy embed code
          </button>
          {copied && <p role="status">{copied}</p>}
        </div>
      )}
    </div>
  );
}
