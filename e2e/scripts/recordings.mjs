#!/usr/bin/env node
// Records every shipped recording again (web/public/recordings/, the runs the page replays
// with no server: ?replay=<file>, or "Shipped with racelab"). `npm run recordings` builds
// the server first; this script builds nothing. It starts its own server (dist/main.js on a
// free port, against the real Redis and PostgreSQL), reads the catalog from it, records a
// broken and a correct variant of every scenario, writes <scenario>-<variant>.json and
// index.json, and stops the server. A new scenario is recorded with no edit here.
// `--scenario <id>` (again for more) records only those scenarios: their files are replaced,
// every other recording and its line in index.json stay as they are.
//
// Every recording must be a finished run (run-finished, not run-failed) whose verdict is
// the one its variant is built to give; otherwise nothing is written and the script exits 1.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRecording, MAX_SHIPPED_RECORDING_BYTES as MAX_BYTES, parseRecording } from '@racelab/shared';
import { startServerProcess } from '../../server/dist/testing/serverProcess.js';
import { connectClient, isEnd } from '../../server/dist/testing/wsClient.js';

/**
 * The variants shipped for a scenario when its first broken and first correct are not the
 * best to show (the page's examples and the README link to these). Each list must hold a
 * broken and a correct variant; scenarios not named here ship their first of each kind.
 */
const PREFERRED = {
  'duplicate-job': ['blind-del', 'setnx-then-expire', 'token-lua'],
  'lost-update': ['read-modify-write', 'optimistic-version'],
  fencing: ['lease-only', 'fenced'],
};
/** Parameters other than the defaults, for a scenario whose default run is too large to ship; named in the title. */
const PARAMS = {};
/** A run that takes longer than this is stuck, in ms. */
const RUN_TIMEOUT_MS = 180_000;

const out = fileURLToPath(new URL('../../web/public/recordings/', import.meta.url));

/** The variants to record of one scenario: its preferred ones, else its first broken and first correct that this server can run. */
function chosenVariants(scenario) {
  const preferred = PREFERRED[scenario.id];
  const variants = preferred
    ? preferred.map(
        (id) => scenario.variants.find((v) => v.id === id) ?? fail(`${scenario.id}: the preferred variant '${id}' is not in the catalog`),
      )
    : [false, true].map((correct) => scenario.variants.find((v) => v.correct === correct && !v.unavailable)).filter(Boolean);
  // A variant this server cannot run (a command its Redis lacks) is never recorded by a stand-in.
  for (const v of variants)
    if (v.unavailable) fail(`${scenario.id}: the preferred variant '${v.id}' is unavailable here: ${v.unavailable}`);
  for (const correct of [false, true])
    if (!variants.some((v) => v.correct === correct)) fail(`${scenario.id}: no ${correct ? 'correct' : 'broken'} variant to record`);
  return variants;
}

function fail(message) {
  throw new Error(message);
}

/** "requests=20": the parameters a run was recorded at, as the command line takes them, for a title. */
function paramWords(params) {
  return Object.entries(params)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}

async function record(client, scenario, variant) {
  const params = PARAMS[scenario.id] ?? {};
  const requestId = `record-${scenario.id}-${variant.id}`;
  client.send({ type: 'start-run', requestId, scenario: scenario.id, variant: variant.id, params });
  const answer = await client.next((m) => (m.type === 'run-accepted' || m.type === 'run-rejected') && m.requestId === requestId);
  if (answer.type === 'run-rejected') fail(`${scenario.id}/${variant.id}: the server refused the run: ${answer.error}`);
  const { event: end } = await client.next(isEnd(answer.runId), RUN_TIMEOUT_MS);
  // The inbox keeps every event of the run before its end, in order; next() took the end.
  const events = [];
  for (let m; (m = client.inbox.find((x) => x.type === 'run-event' && x.runId === answer.runId));) {
    client.inbox.splice(client.inbox.indexOf(m), 1);
    events.push(m.event);
  }
  events.push(end);
  const name = `${scenario.id}/${variant.id}`;
  if (end.type !== 'run-finished') fail(`${name}: the run did not finish: ${end.message}`);
  const kind = variant.correct ? 'pass' : 'fail';
  if (end.expectedVerdict !== kind)
    fail(`${name}: expected ${end.expectedVerdict ?? 'nothing'} at these parameters, not ${kind}: ${end.expectedReason ?? ''}`);
  if (end.verdict !== end.expectedVerdict) fail(`${name}: the verdict is ${end.verdict}, expected ${end.expectedVerdict}`);
  const text = JSON.stringify(createRecording(scenario, variant.id, events, new Date()));
  const parsed = parseRecording(text);
  if (!parsed.ok) fail(`${name}: the recording does not parse back: ${parsed.error}`);
  if (text.length > MAX_BYTES) fail(`${name}: ${text.length} bytes, more than ${MAX_BYTES}: record it at smaller parameters (PARAMS)`);
  const at = paramWords(params);
  const title = `${scenario.title}: ${variant.id} (${variant.correct ? 'correct' : 'broken'})${at ? `, ${at}` : ''} — ${end.verdict.toUpperCase()}`;
  return { file: `${scenario.id}-${variant.id}.json`, title, text, events: events.length, atMs: end.atMs };
}

/** Bad input on the command line: said in a line, exit 2, nothing written. */
class UsageError extends Error {}

/** The scenarios named with --scenario; none: every one. */
function scenariosAsked() {
  try {
    return parseArgs({ options: { scenario: { type: 'string', multiple: true, default: [] } } }).values.scenario;
  } catch (error) {
    console.error(`recordings: ${error.message}`);
    process.exit(2);
  }
}
const only = scenariosAsked();

const started = [];
const { server, address, output } = await startServerProcess({ PORT: '0' }, started);
const stopped = new Promise((resolve) => server.once('exit', resolve));
const written = [];
let catalog = [];
try {
  const client = await connectClient(`${address.replace('http', 'ws')}/ws`, { origin: address });
  const hello = await client.next((m) => m.type === 'hello');
  catalog = hello.catalog;
  const unknown = only.filter((id) => !catalog.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new UsageError(`no scenario ${unknown.join(', ')} in the catalog; known: ${catalog.map((s) => s.id).join(', ')}`);
  for (const scenario of catalog) {
    if (only.length > 0 && !only.includes(scenario.id)) continue;
    for (const variant of chosenVariants(scenario)) {
      const made = await record(client, scenario, variant);
      written.push({ ...made, scenario: scenario.id });
      console.log(
        `${made.file}: ${made.events} events, ${(made.text.length / 1024).toFixed(1)} KB, ${Math.round(made.atMs)} ms run, ${made.title}`,
      );
    }
  }
  client.socket.close();
} catch (error) {
  if (!(error instanceof UsageError)) {
    console.error(`racelab's output while recording:\n${output()}`);
    throw error;
  }
  console.error(`recordings: ${error.message}`);
  process.exitCode = 2;
} finally {
  server.kill('SIGTERM');
  await stopped;
}
if (process.exitCode === 2) process.exit();

/** The scenario a shipped file belongs to: <scenario>-<variant>.json of one of its variants. */
const ownerOf = (file) => catalog.find((s) => s.variants.some((v) => file === `${s.id}-${v.id}.json`))?.id;
const rerecorded = (file) => only.length === 0 || only.includes(ownerOf(file));

// Only now, with every run recorded as it should be: the folder holds these files and, when
// only some scenarios were recorded, every other scenario's files as they were.
const indexFile = join(out, 'index.json');
const kept = only.length > 0 && existsSync(indexFile) ? JSON.parse(readFileSync(indexFile, 'utf8')).filter((e) => !rerecorded(e.file)) : [];
for (const file of readdirSync(out)) if (file.endsWith('.json') && file !== 'index.json' && rerecorded(file)) rmSync(join(out, file));
for (const { file, text } of written) writeFileSync(join(out, file), text);
// In catalog order, as a full recording writes them; a file of no scenario in the catalog last.
const place = (file) => {
  const at = catalog.findIndex((s) => s.id === ownerOf(file));
  return at < 0 ? catalog.length : at;
};
const index = [...kept, ...written.map(({ file, title }) => ({ file, title }))].sort((a, b) => place(a.file) - place(b.file));
writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
const total = written.reduce((n, w) => n + w.text.length, 0);
const scenarios = new Set(written.map((w) => w.scenario)).size;
console.log(
  `${written.length} recordings of ${scenarios} scenarios, ${(total / 1024).toFixed(1)} KB in all; index.json lists ${index.length}`,
);
