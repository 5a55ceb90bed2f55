import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../fixtures/manifest.js';
import { runOf } from '../fixtures/build.js';
import { isolation } from '../fixtures/staged.js';
import { tokenLuaRun } from '../fixtures/tokenLuaRun.js';
import { esc, timelineSvg } from './timelineSvg.js';

describe('timeline SVG', () => {
  const run = { title: 'duplicate-job · blind-del (broken)', events: blindDelRun(), scenario: duplicateJobManifest };

  it('draws lanes, leases, zombie windows, marks, holders and stores', () => {
    const { svg, width, height } = timelineSvg([run], { startMs: 0, endMs: 1061 }, 1400, 'dark');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1400"')).toBe(true);
    expect(width).toBe(1400);
    expect(height).toBeGreaterThan(300);
    expect(svg).toContain(`font-size="17" font-weight="700" fill="#e8ebf2">${esc(run.title)}</text>`);
    for (const text of ['worker-1', 'worker-3', 'ZOMBIE', 'lock:nightly-report', '2 workers at once — the lock said 1', 'Redis', '400 ms'])
      expect(svg).toContain(esc(text));
    expect(svg.match(/<circle/g)!.length).toBeGreaterThanOrEqual(4);
  });

  it('draws only the visible window, in the chosen theme', () => {
    const zoomed = timelineSvg([run], { startMs: 610, endMs: 690 }, 1000, 'light').svg;
    expect(zoomed).toContain('fill="#ffffff"');
    expect(zoomed).not.toContain('<circle'); // no mark between 610 and 690 ms
  });

  it('puts two runs one above the other, each with its verdict', () => {
    const other = { title: 'duplicate-job · token-lua (correct)', events: tokenLuaRun(), scenario: duplicateJobManifest };
    const { svg } = timelineSvg([run, other], { startMs: 0, endMs: 1061 }, 1400, 'dark');
    expect(svg).toContain('FAIL — 2 of 3 invariants were broken');
    expect(svg).toContain('PASS — the invariant held');
    const head = (title: string) => svg.indexOf(`font-size="15" font-weight="700" fill="#e8ebf2">${esc(title)}</text>`);
    expect(head(run.title)).toBeGreaterThan(0);
    expect(head(run.title)).toBeLessThan(head(other.title));
    expect(svg).toContain(`>${esc(run.title)}  vs  ${esc(other.title)}</text>`);
  });

  it("draws a node's cut from a worker as its own band, from the cut to the rejoin", () => {
    const cut = runOf(
      ['worker-1'],
      [
        [100, 'worker-1', isolation('isolation', 'node-4', 'worker-1', 'proxy')],
        [600, 'worker-1', isolation('rejoin', 'node-4', 'worker-1', 'proxy')],
      ],
    );
    const { svg } = timelineSvg(
      [{ title: 'redlock', events: cut, scenario: duplicateJobManifest }],
      { startMs: 0, endMs: 2000 },
      1000,
      'dark',
    );
    expect(svg).toContain('<pattern id="cut"');
    expect(svg).toContain('fill="url(#cut)"');
    expect(svg).toContain('>NODE-4 CUT</text>');
    expect(svg).not.toContain('STALLED');
  });
});
