// Each outcome looks and reads like itself: a 200 and a 401, an accepted and a rejected
// write, a blocked event loop and ordinary work, and the clocks that disagree.
import { describe, expect, it } from 'vitest';
import { runs } from './fixtures/runs/index.js';
import { ICONS, MARK_ICONS } from './icons.js';
import { deriveLanes, type Mark } from './lanes.js';
import { laneScene } from './laneScene.js';
import { MARK_COLORS } from './export/svgPalette.js';
import { timelineSvg } from './export/timelineSvg.js';

const marksOf = (id: string): Mark[] => deriveLanes(runs[id]!).flatMap((l) => l.marks);
const look = (kind: Mark['kind']) => [MARK_ICONS[kind], MARK_COLORS[kind]];

describe('outcomes', () => {
  it('token-stampede: a 200 and a 401 differ in kind, icon, colour and words', () => {
    const marks = marksOf('token-stampede/refresh-every-request');
    const ok = marks.filter((m) => m.kind === 'call-ok');
    const failed = marks.filter((m) => m.kind === 'call-failed');
    expect(ok.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(ok.every((m) => /^.+ [23]\d\d ok$/.test(m.caption!))).toBe(true);
    expect(failed.every((m) => /^.+ [45]\d\d failed$/.test(m.caption!))).toBe(true);
    expect(failed[0]!.label).toMatch(/answered 401 \(failed\)/);
    expect(look('call-ok')).not.toEqual(look('call-failed'));
    expect(ICONS[MARK_ICONS['call-ok']].d).not.toBe(ICONS[MARK_ICONS['call-failed']].d);
  });

  it('an accepted and a rejected write differ in icon, colour and words', () => {
    const marks = marksOf('fencing/fenced');
    const accepted = marks.find((m) => m.kind === 'write-accepted')!;
    const rejected = marks.find((m) => m.kind === 'write-rejected')!;
    expect(rejected.caption).toMatch(/rejected$/);
    expect(accepted.caption).not.toMatch(/rejected/);
    expect(look('write-accepted')).not.toEqual(look('write-rejected'));
  });

  it('every mark kind has an icon drawn as a path, no font glyph', () => {
    for (const [kind, icon] of Object.entries(MARK_ICONS)) expect(ICONS[icon].d, kind).toMatch(/^M[\d. ]/);
    const svg = timelineSvg(
      [{ title: 't', events: runs['fencing/fenced']!, scenario: undefined }],
      { startMs: 0, endMs: 3500 },
      1400,
      'dark',
    ).svg;
    expect(svg).toContain(`<path d="${ICONS.check.d}"`);
    expect(svg).toContain(`<path d="${ICONS.cross.d}"`);
    expect(svg).not.toMatch(/[✓✗☠⊘↧↩⏸]/u);
  });

  it('event-loop-block: the blocked loop is a band of its own, not ordinary work', () => {
    const events = runs['event-loop-block/no-watchdog']!;
    const lane = deriveLanes(events).find((l) => l.workerId === 'worker-1')!;
    const blocked = lane.spans.filter((s) => s.kind === 'blocked');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]!.endMs! - blocked[0]!.startMs).toBeGreaterThan(1400);
    expect(lane.spans.filter((s) => s.kind === 'work').map((s) => s.label)).toEqual([expect.stringContaining('prepare the statement')]);
    const scene = laneScene(lane, [], { startMs: 0, endMs: 2600 }, 1200);
    expect(scene.stalls.map((t) => (t.kind === 'one' ? t.item.kind : 'group'))).toEqual(['blocked']);
    const svg = timelineSvg([{ title: 't', events, scenario: undefined }], { startMs: 0, endMs: 2600 }, 1400, 'dark').svg;
    expect(svg).toContain('EVENT LOOP BLOCKED');
  });

  it('cron-clock-skew: each node shows its clock', () => {
    const lanes = deriveLanes(runs['cron-clock-skew/release-when-done']!);
    expect(lanes.map((l) => [l.workerId, l.clock])).toEqual([
      ['node-1', 'clock: reference'],
      ['node-2', 'clock: −1000 ms'],
    ]);
    const mark = lanes[1]!.marks.find((m) => m.kind === 'clock')!;
    expect([mark.major, mark.caption]).toEqual([true, 'clock 1000 ms behind node-1']);
    expect(mark.label).toMatch(/^node-2's clock is 1000 ms behind node-1 at \d+ ms$/);
    expect(deriveLanes(runs['fencing/fenced']!).every((l) => l.clock === null)).toBe(true);
  });
});
