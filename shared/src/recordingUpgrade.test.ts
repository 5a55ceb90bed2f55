import { describe, expect, it } from 'vitest';
import { parseRecording, RECORDING_VERSION } from './recording.js';
import { faultPlaceOfV1, upgradeRecording } from './recordingUpgrade.js';

describe("a version-1 staged fault's words, read into version 2's fields", () => {
  it('reads each form version 1 wrote', () => {
    expect(faultPlaceOfV1('clock-skew', "worker-2's clock +1000 ms")).toMatchObject({ worker: 'worker-2', node: null });
    expect(faultPlaceOfV1('clock-skew', "worker-3's clock -250 ms")).toMatchObject({ worker: 'worker-3' });
    expect(faultPlaceOfV1('clock-jump', 'node-3 +1000 ms')).toMatchObject({ node: 'node-3', worker: null });
    expect(faultPlaceOfV1('slow-link', 'primary → far replica')).toMatchObject({ node: 'primary', peer: 'far replica' });
    expect(faultPlaceOfV1('partition', 'worker-1 ↔ node-4')).toMatchObject({ worker: 'worker-1', node: 'node-4' });
    expect(faultPlaceOfV1('partition', "worker-2's link to every host, down")).toMatchObject({ worker: 'worker-2', node: null });
    expect(faultPlaceOfV1('partition-healed', "worker-2's link to every host, up")).toMatchObject({ worker: 'worker-2' });
    expect(faultPlaceOfV1('isolation', 'node-4 from worker-2')).toMatchObject({ node: 'node-4', worker: 'worker-2' });
    expect(faultPlaceOfV1('rejoin', 'node-4 to worker-2')).toMatchObject({ node: 'node-4', worker: 'worker-2' });
    expect(faultPlaceOfV1('slowdown', 'node-3 +300 ms, 5% lost for worker-1')).toEqual({
      node: 'node-3',
      peer: null,
      worker: 'worker-1',
      slowdown: { latencyMs: 300, lossPercent: 5 },
    });
    expect(faultPlaceOfV1('slowdown', 'node-3 +300 ms for worker-1')).toMatchObject({ slowdown: { latencyMs: 300, lossPercent: 0 } });
    expect(faultPlaceOfV1('slowdown-ended', 'node-3 at full speed for worker-1')).toMatchObject({ node: 'node-3', slowdown: null });
  });

  it('leaves words of no known form with no place, rather than guessing one', () => {
    expect(faultPlaceOfV1('isolation', 'something else')).toEqual({ node: null, peer: null, worker: null, slowdown: null });
    expect(faultPlaceOfV1('no-such-fault', 'node-4 from worker-2')).toEqual({ node: null, peer: null, worker: null, slowdown: null });
  });
});

describe('opening a recording of an older version', () => {
  const manifest = { id: 'redlock', title: 'Redlock', summary: 's', explanation: '', params: [], metrics: [], variants: [] };
  const file = (version: number, fault: Record<string, unknown>) =>
    JSON.stringify({
      format: 'racelab-run',
      version,
      recordedAt: '2026-12-01T00:00:00.000Z',
      scenario: manifest,
      variant: 'redlock',
      events: [{ type: 'fault-staged', mechanism: 'kernel nftables drop', seq: 0, atMs: 1, workerId: 'worker-2', ...fault }],
    });

  it('a version-1 file opens, its staged faults given their fields, as the current version', () => {
    const parsed = parseRecording(file(1, { fault: 'isolation', target: 'node-4 from worker-2' }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.recording.version).toBe(RECORDING_VERSION);
    expect(parsed.recording.events[0]).toMatchObject({ node: 'node-4', worker: 'worker-2', peer: null, slowdown: null });
  });

  it('a current file must carry the fields: its words are never read', () => {
    expect(parseRecording(file(RECORDING_VERSION, { fault: 'isolation', target: 'node-4 from worker-2' })).ok).toBe(false);
  });

  it('leaves what is not a version-1 recording to the schema', () => {
    expect(upgradeRecording([1, 2])).toEqual([1, 2]);
    expect(upgradeRecording({ version: 3, events: [] })).toEqual({ version: 3, events: [] });
    expect(parseRecording(file(0, { fault: 'isolation', target: 'node-4 from worker-2' })).ok).toBe(false);
  });
});
