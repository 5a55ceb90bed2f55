// The room view's page, script and style (roomRoutes.ts serves them). A page of its own rather
// than a view of the React app: it needs none of the app's state, loads in a moment on a
// projector or a phone, and keeps working while the app's bundle changes. The script is a
// file of its own because the Content-Security-Policy (securityHeaders.ts) runs no inline
// script. It reads the token from the page's address and sends it as a Bearer header, and
// writes every figure with textContent: scenario names and server ids are never parsed as HTML.

export const ROOM_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <meta name="referrer" content="no-referrer" />
    <title>racelab: the room</title>
    <link rel="stylesheet" href="room.css" />
    <script type="module" src="room.js"></script>
  </head>
  <body>
    <main>
      <header>
        <h1>The room</h1>
        <p id="status" role="status">Reading the room…</p>
      </header>
      <section aria-labelledby="now-heading">
        <h2 id="now-heading">Right now</h2>
        <dl class="totals" aria-live="polite">
          <div><dt>Connected</dt><dd id="connected">–</dd></div>
          <div><dt>Running</dt><dd id="running">–</dd></div>
          <div><dt>Waiting</dt><dd id="waiting">–</dd></div>
        </dl>
      </section>
      <section aria-labelledby="scenarios-heading">
        <h2 id="scenarios-heading">Scenarios</h2>
        <p id="since" class="note"></p>
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Runs finished by scenario and verdict</caption>
            <thead>
              <tr>
                <th scope="col">Scenario</th>
                <th scope="col" class="n">Runs</th>
                <th scope="col" class="n">Pass</th>
                <th scope="col" class="n">Fail</th>
                <th scope="col" class="n"><abbr title="ended without a verdict: cancelled, a store went away, a deadline">No verdict</abbr></th>
                <th scope="col" class="n"><abbr title="a correct variant that failed, or a broken one whose race did not show">Unexpected</abbr></th>
              </tr>
            </thead>
            <tbody id="scenarios"></tbody>
          </table>
        </div>
        <p id="no-runs" class="note">No run has finished yet.</p>
        <button type="button" id="reset">Reset the counters</button>
      </section>
      <section aria-labelledby="servers-heading">
        <h2 id="servers-heading">Servers</h2>
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Servers of the room and their figures</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col" class="n">Connected</th>
                <th scope="col" class="n">Running</th>
                <th scope="col" class="n">Waiting</th>
                <th scope="col" class="n">Slots</th>
                <th scope="col">Ready</th>
                <th scope="col" class="n">Seen</th>
              </tr>
            </thead>
            <tbody id="servers"></tbody>
          </table>
        </div>
      </section>
    </main>
  </body>
</html>
`;

export const ROOM_CSS = `:root {
  color-scheme: light dark;
  --bg: #ffffff;
  --fg: #1b1f24;
  --muted: #57606a;
  --line: #d0d7de;
  --card: #f6f8fa;
  --warn-bg: #fff1c2;
  --warn-fg: #6b4500;
  --ok: #116329;
  --bad: #a40e26;
  --focus: #0969da;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  line-height: 1.4;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117;
    --fg: #e6edf3;
    --muted: #9da7b3;
    --line: #30363d;
    --card: #161b22;
    --warn-bg: #4b3200;
    --warn-fg: #ffd58a;
    --ok: #56d364;
    --bad: #ff8182;
    --focus: #58a6ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem clamp(0.75rem, 3vw, 2rem) 2rem; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1.5rem; }
h1 { font-size: clamp(1.5rem, 4vw, 2.25rem); margin: 0.25rem 0; }
h2 { font-size: 1.25rem; margin: 1.5rem 0 0.5rem; }
.note, #status { color: var(--muted); margin: 0.25rem 0; }
#status.trouble { color: var(--bad); font-weight: 600; }
.totals { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: clamp(0.5rem, 2vw, 1rem); margin: 0; }
.totals div { background: var(--card); border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.5rem 0.75rem; text-align: center; }
.totals dt { font-size: clamp(0.9rem, 2.5vw, 1.25rem); color: var(--muted); }
.totals dd { margin: 0; font-size: clamp(2.5rem, 12vw, 6rem); font-weight: 700; font-variant-numeric: tabular-nums; line-height: 1.1; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { font-weight: 600; }
.n { text-align: right; }
abbr { text-decoration: underline dotted; cursor: help; }
tr.unexpected td { background: var(--warn-bg); color: var(--warn-fg); }
tr.unexpected td.flag { font-weight: 700; }
.ready { color: var(--ok); }
.not-ready { color: var(--bad); }
button { font: inherit; margin-top: 0.75rem; padding: 0.4rem 0.9rem; border-radius: 0.4rem; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; }
button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 30rem) {
  th, td { padding: 0.35rem 0.4rem; font-size: 0.9rem; }
}
`;

export const ROOM_JS = `// Polls the room every 2 s and shows it. The token comes from the page's address.
const EVERY_MS = 2000;
const token = new URLSearchParams(location.search).get('token') ?? '';
const headers = { authorization: 'Bearer ' + token };
const byId = (id) => document.getElementById(id);

function setText(element, text) {
  // Unchanged figures are left alone, so the live region announces only what changed.
  if (element.textContent !== text) element.textContent = text;
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = String(text);
  if (className) td.className = className;
  return td;
}

function scenarioRow(row) {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = row.scenario;
  tr.append(th, cell(row.runs, 'n'), cell(row.byVerdict.pass, 'n'), cell(row.byVerdict.fail, 'n'), cell(row.byVerdict.failed, 'n'));
  if (row.unexpected > 0) {
    tr.className = 'unexpected';
    tr.append(cell('⚠ ' + row.unexpected, 'n flag'));
  } else tr.append(cell(0, 'n'));
  return tr;
}

function serverRow(server) {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = server.id;
  const seen = server.seenMsAgo < 1000 ? 'just now' : Math.round(server.seenMsAgo / 1000) + ' s ago';
  tr.append(th, cell(server.connected, 'n'), cell(server.running, 'n'), cell(server.waiting, 'n'), cell(server.slots, 'n'));
  tr.append(cell(server.ready ? '✓ ready' : '✗ not ready', server.ready ? 'ready' : 'not-ready'), cell(seen, 'n'));
  return tr;
}

function show(room) {
  for (const name of ['connected', 'running', 'waiting']) setText(byId(name), String(room.totals[name]));
  byId('scenarios').replaceChildren(...room.scenarios.map(scenarioRow));
  byId('servers').replaceChildren(...room.servers.map(serverRow));
  byId('no-runs').hidden = room.scenarios.length > 0;
  const since = room.since ? new Date(room.since).toLocaleString() : 'the first server started';
  setText(byId('since'), 'Runs finished since ' + since + '.');
  const servers = room.servers.length === 1 ? '1 server' : room.servers.length + ' servers';
  setStatus('Live: ' + servers + ', updated ' + new Date().toLocaleTimeString() + '.', false);
}

function setStatus(text, trouble) {
  setText(byId('status'), text);
  byId('status').classList.toggle('trouble', trouble);
}

async function poll() {
  try {
    const response = await fetch('api/room', { headers, cache: 'no-store' });
    if (response.status === 401) setStatus('The token in the address is wrong: open /room?token=<the secret>.', true);
    else if (!response.ok) setStatus((await response.text()).trim() || 'The room could not be read (' + response.status + ').', true);
    else show(await response.json());
  } catch {
    setStatus('The server cannot be reached; trying again every 2 s.', true);
  }
  setTimeout(poll, EVERY_MS);
}

byId('reset').addEventListener('click', async () => {
  if (!confirm('Start every counter of the room again from zero?')) return;
  const response = await fetch('api/room/reset', { method: 'POST', headers }).catch(() => null);
  if (!response || !response.ok) setStatus('The counters could not be reset; try again.', true);
});

poll();
`;
