#!/usr/bin/env node
// Records real runs from a running racelab server into web/public/recordings/, the files
// the page replays with no server (?replay=<file>, or "Shipped with racelab"):
//
//   PORT=7373 node server/dist/main.js &            # a server against real Redis/PostgreSQL
//   node e2e/scripts/record.mjs --port 7373 duplicate-job/blind-del fencing/fenced ...
//
// With no run named, records the default set. Each file is createRecording(manifest,
// variant, events) from @racelab/shared; index.json lists them with a title.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRecording, parseRecording } from '@racelab/shared';
import WebSocket from 'ws';

const DEFAULT_RUNS = [
  'duplicate-job/blind-del',
  'duplicate-job/token-lua',
  'duplicate-job/setnx-then-expire',
  'fencing/lease-only',
  'fencing/fenced',
  'lost-update/read-modify-write',
  'lost-update/optimistic-version',
];
/** Largest file we ship, in bytes. */
const MAX_BYTES = 200 * 1024;

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? args.splice(portAt, 2)[1] : process.env.PORT ?? '7070';
const runs = args.length > 0 ? args : DEFAULT_RUNS;
const out = join(dirname(fileURLToPath(import.meta.url)), '../../web/public/recordings');
mkdirSync(out, { recursive: true });

const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { origin: `http://127.0.0.1:${port}` });
const catalog = await new Promise((resolve, reject) => {
  socket.once('error', reject);
  socket.once('message', (data) => resolve(JSON.parse(String(data)).catalog));
});

function record(scenarioId, variantId) {
  const scenario = catalog.find((s) => s.id === scenarioId);
  if (!scenario?.variants.some((v) => v.id === variantId)) throw new Error(`no ${scenarioId}/${variantId} on this server`);
  const requestId = `record-${scenarioId}-${variantId}`;
  return new Promise((resolve, reject) => {
    let runId = null;
    const events = [];
    const onMessage = (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'run-rejected' && m.requestId === requestId) reject(new Error(m.error));
      if (m.type === 'run-accepted' && m.requestId === requestId) runId = m.runId;
      if ((m.type === 'run-event' || m.type === 'run-events') && m.runId === runId) {
        // Events come one to a message or several together.
        for (const event of m.type === 'run-event' ? [m.event] : m.events) {
          events.push(event);
          if (event.type === 'run-finished' || event.type === 'run-failed') {
            socket.off('message', onMessage);
            resolve({ scenario, events });
          }
        }
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ type: 'start-run', requestId, scenario: scenarioId, variant: variantId, params: {} }));
  });
}

const indexFile = join(out, 'index.json');
const index = existsSync(indexFile) ? JSON.parse(readFileSync(indexFile, 'utf8')) : [];
for (const name of runs) {
  const [scenarioId, variantId] = name.split('/');
  const { scenario, events } = await record(scenarioId, variantId);
  const variant = scenario.variants.find((v) => v.id === variantId);
  const finished = events.find((e) => e.type === 'run-finished');
  const text = JSON.stringify(createRecording(scenario, variantId, events, new Date()));
  if (!parseRecording(text).ok) throw new Error(`${name}: the recording does not parse back`);
  if (text.length > MAX_BYTES) throw new Error(`${name}: ${text.length} bytes, more than ${MAX_BYTES}`);
  const file = `${scenarioId}-${variantId}.json`;
  writeFileSync(join(out, file), text);
  const title = `${scenario.title}: ${variantId} (${variant.correct ? 'correct' : 'broken'}) — ${finished?.verdict === 'pass' ? 'PASS' : 'FAIL'}`;
  const entry = { file, title };
  const at = index.findIndex((r) => r.file === file);
  if (at >= 0) index[at] = entry;
  else index.push(entry);
  console.log(`${file}: ${events.length} events, ${(text.length / 1024).toFixed(1)} KB, ${finished?.verdict ?? 'failed'}`);
}
writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
socket.close();
