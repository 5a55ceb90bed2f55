import { describe, expect, it } from 'vitest';
import type { ScenarioManifest } from './catalog.js';
import type { RunEvent } from './events.js';
import { createRecording, parseRecording, RECORDING_VERSION } from './recording.js';

const manifest: ScenarioManifest = { id: 'demo', title: 'Demo', summary: '', explanation: '', params: [], metrics: [], variants: [] };
const events: RunEvent[] = [
  { type: 'job-fired', seq: 0, atMs: 1.5, workerId: 'worker-1' },
  { type: 'key-observed', key: 'lock', value: null, pttlMs: -2, seq: 1, atMs: 2, workerId: null },
];

describe('recordings', () => {
  it('round-trips through its file content', () => {
    const recording = createRecording(manifest, 'plain', events, new Date('2026-11-29T20:00:00Z'));
    expect(parseRecording(JSON.stringify(recording))).toEqual({ ok: true, recording });
  });

  it('says what is wrong with a file that is not a recording', () => {
    expect(parseRecording('nope')).toEqual({ ok: false, error: 'the file is not JSON' });
    const bad = { ...createRecording(manifest, 'plain', events, new Date()), version: RECORDING_VERSION + 1 };
    expect(parseRecording(JSON.stringify(bad))).toMatchObject({ ok: false, error: expect.stringContaining("at 'version'") });
    const badEvent = { ...createRecording(manifest, 'plain', [{ type: 'drop-table' } as never], new Date()) };
    expect(parseRecording(JSON.stringify(badEvent))).toMatchObject({ ok: false, error: expect.stringContaining("at 'events.0") });
    // The manifest is held to the catalog's schema, as the page's socket holds a hello.
    const badManifest = { ...createRecording(manifest, 'plain', events, new Date()), scenario: { ...manifest, metrics: 'emails' } };
    expect(parseRecording(JSON.stringify(badManifest))).toMatchObject({
      ok: false,
      error: expect.stringContaining("at 'scenario.metrics'"),
    });
  });
});
