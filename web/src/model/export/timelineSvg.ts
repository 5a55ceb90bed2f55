// The timeline as a standalone SVG for slides: the visible window of the runs on screen,
// laid out by the same lane scenes as the page (model/laneScene), in the page's colours.
// A pure function of the events: no DOM is read.
import type { ScenarioManifest } from '@racelab/shared';
import { deriveOverlaps } from '../holders.js';
import { deriveLanes } from '../lanes.js';
import { laneScene, MARK_ROW_PX } from '../laneScene.js';
import type { EventLog } from '../memo.js';
import { runSummary } from '../runSummary.js';
import { deriveStoreLanes, drawnEndMs, segmentText } from '../storeLanes.js';
import { formatMs, makeScale, ticks, timeToX, type TimeScale } from '../timeScale.js';
import { deriveTruth } from '../truth.js';
import { deriveVerdict } from '../verdict.js';
import type { TimeWindow } from '../viewport.js';
import { ICONS, MARK_ICONS } from '../icons.js';
import { MARK_COLORS, paletteOf, workerColorOf, type Palette } from './svgPalette.js';

export interface SvgRun {
  title: string;
  events: EventLog;
  scenario: ScenarioManifest | undefined;
}

const LABEL_W = 170;
const PAD = 16;
const AXIS_H = 30;
const HEAD_H = 34;
const OVERLAP_H = 32;
const STORE_H = 36;
/** A lab node cut from a worker: violet, apart from a stall's grey and a blocked loop's amber (timeline.css). */
const CUT_COLOR = '#8b5cf6';
/** A lab node slowed for a worker: teal, apart from a cut's violet (timeline.css). */
const SLOW_COLOR = '#0d9488';

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text that fits in `px` at ~7 px per character. */
function fit(text: string, px: number): string {
  const n = Math.floor((px - 10) / 7);
  if (n <= 1) return '';
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

class Canvas {
  parts: string[] = [];
  constructor(
    readonly x0: number,
    readonly w: number,
    readonly scale: TimeScale,
    readonly p: Palette,
  ) {}
  x(ms: number): number {
    return this.x0 + Math.min(Math.max(timeToX(ms, this.scale), -1), 101) * (this.w / 100);
  }
  bar(
    y: number,
    h: number,
    startMs: number,
    endMs: number | null,
    endAll: number,
    attrs: string,
    text = '',
    textFill = this.p.text,
    title = '',
  ): void {
    const a = this.x(startMs);
    const b = this.x(endMs ?? endAll);
    if (b < this.x0 || a > this.x0 + this.w || b - a < 0.3) return;
    const left = Math.max(a, this.x0);
    const right = Math.min(b, this.x0 + this.w);
    const tip = title ? `<title>${esc(title)}</title>` : '';
    this.parts.push(`<rect x="${left.toFixed(1)}" y="${y}" width="${(right - left).toFixed(1)}" height="${h}" ${attrs}>${tip}</rect>`);
    const t = fit(text, right - left);
    if (t)
      this.parts.push(
        `<text x="${(left + 5).toFixed(1)}" y="${y + h / 2 + 4}" font-size="12" font-weight="600" fill="${textFill}">${esc(t)}</text>`,
      );
  }
  /** Words ending at `right`, on a solid label of their own (drawn over what is left of them). */
  endLabel(y: number, h: number, right: number, text: string, attrs: string): void {
    const r = Math.min(right, this.x0 + this.w);
    const left = Math.max(this.x0, r - (text.length * 7 + 12));
    const t = fit(text, r - left + 2);
    this.parts.push(`<rect x="${left.toFixed(1)}" y="${y}" width="${(r - left).toFixed(1)}" height="${h}" fill="${this.p.bg}"/>`);
    this.parts.push(`<rect x="${left.toFixed(1)}" y="${y}" width="${(r - left).toFixed(1)}" height="${h}" ${attrs}/>`);
    this.parts.push(
      `<text x="${(r - 6).toFixed(1)}" y="${y + h / 2 + 4}" font-size="12" font-weight="600" text-anchor="end" fill="${this.p.text}">${esc(t)}</text>`,
    );
  }
  text(x: number, y: number, s: string, attrs = ''): void {
    this.parts.push(`<text x="${x.toFixed(1)}" y="${y}" ${attrs}>${esc(s)}</text>`);
  }
}

function drawRun(c: Canvas, run: SvgRun, view: TimeWindow, y0: number, header: boolean): number {
  const { p } = c;
  const end = runSummary(run.events).endMs ?? runSummary(run.events).lastMs;
  let y = y0;
  if (header) {
    const v = deriveVerdict(run.events, run.scenario);
    c.text(PAD, y + 21, run.title, `font-size="15" font-weight="700" fill="${p.text}"`);
    if (v.state === 'finished')
      c.text(c.x0 + 8, y + 21, v.headline, `font-size="14" font-weight="700" fill="${v.pass ? p.correct : p.broken}"`);
    y += HEAD_H;
  }
  const truth = deriveTruth(run.events);
  for (const lane of deriveLanes(run.events)) {
    const color = workerColorOf(lane.index);
    const scene = laneScene(lane, truth.get(lane.workerId) ?? [], view, c.w);
    const h = scene.heightPx;
    c.parts.push(`<rect x="${PAD}" y="${y + 12}" width="11" height="11" rx="2" fill="${color}"/>`);
    c.text(PAD + 16, y + 22, lane.workerId, `font-size="14" font-weight="700" font-family="monospace" fill="${p.text}"`);
    if (lane.fate) c.text(PAD, y + 40, lane.fate, `font-size="11" fill="${lane.died ? p.broken : p.muted}"`);
    for (const t of scene.stalls) {
      const [s, e] = t.kind === 'one' ? [t.item.startMs, t.item.endMs] : [t.startMs, t.endMs];
      if (t.kind === 'one' && t.item.kind === 'blocked')
        c.bar(y, h, s, e, end, `fill="url(#blocked)" stroke="#f59e0b" stroke-width="1.5"`, 'EVENT LOOP BLOCKED', '#f59e0b');
      else if (t.kind === 'one' && t.item.kind === 'cut')
        c.bar(
          y,
          h,
          s,
          e,
          end,
          `fill="url(#cut)" stroke="${CUT_COLOR}" stroke-width="1.5"`,
          (t.item.caption ?? 'cut').toUpperCase(),
          CUT_COLOR,
        );
      else if (t.kind === 'one' && t.item.kind === 'slow')
        c.bar(
          y,
          h,
          s,
          e,
          end,
          `fill="url(#slow)" stroke="${SLOW_COLOR}" stroke-width="1.5"`,
          (t.item.caption ?? 'slowed').toUpperCase(),
          SLOW_COLOR,
        );
      else c.bar(y, h, s, e, end, `fill="url(#stall)"`, 'STALLED', p.muted);
    }
    for (const t of scene.leases) {
      if (t.kind !== 'one') {
        c.bar(y + 10, 26, t.startMs, t.endMs, end, `rx="4" fill="${color}"`, `${t.count} leases`, '#0b0e14');
        continue;
      }
      const l = t.item.lease;
      c.bar(
        y + 10,
        26,
        l.acquiredMs,
        l.heldEndMs ?? l.expiresAtMs,
        end,
        `rx="4" fill="${color}"`,
        `${l.key}${l.fence !== undefined ? ` #${l.fence}` : ''}`,
        '#0b0e14',
      );
      if (l.zombie && !l.zombie.pending)
        c.bar(
          y + 10,
          26,
          l.zombie.startMs,
          l.zombie.endMs,
          end,
          `fill="url(#zombie)" stroke="${p.broken}" stroke-width="2" stroke-dasharray="5 3"`,
          'ZOMBIE',
          p.text,
        );
    }
    for (const t of scene.truth) {
      const [s, e] = t.kind === 'one' ? [t.item.startMs, t.item.endMs] : [t.startMs, t.endMs];
      const e2 = t.kind === 'one' ? drawnEndMs(t.item, c.scale) : e;
      c.bar(y + 38, 5, s, e2, end, `fill="${color}" opacity="0.55"`);
    }
    for (const t of scene.spans) {
      if (t.kind === 'one' && t.item.kind === 'wait')
        c.bar(y + 47, 4, t.item.startMs, t.item.endMs, end, `fill="${p.muted}" opacity="0.6"`);
      else if (t.kind === 'one') c.bar(y + 45, 8, t.item.startMs, t.item.endMs, end, `rx="3" fill="${color}" opacity="0.55"`);
      else c.bar(y + 45, 8, t.startMs, t.endMs, end, `rx="3" fill="${color}" opacity="0.55"`);
    }
    for (const m of scene.majors) {
      const cx = c.x0 + m.x * (c.w / 100);
      const cy = y + 23 + MARK_ROW_PX * m.row;
      const fill = MARK_COLORS[m.mark.kind] ?? p.muted;
      c.parts.push(`<circle cx="${cx.toFixed(1)}" cy="${cy}" r="12" fill="${fill}" stroke="${p.bg}" stroke-width="2"/>`);
      const icon = ICONS[MARK_ICONS[m.mark.kind]];
      c.parts.push(
        `<path d="${icon.d}" transform="translate(${(cx - 8).toFixed(1)} ${cy - 8}) scale(0.6667)" fill="${icon.fill ? '#0b0e14' : 'none'}" stroke="#0b0e14" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>`,
      );
      if (m.mark.caption)
        c.text(
          m.flip ? cx - 16 : cx + 16,
          cy + 4,
          m.mark.caption,
          `font-size="12" font-weight="600" fill="${fill}"${m.flip ? ' text-anchor="end"' : ''}`,
        );
    }
    for (const k of scene.clusters) {
      const cx = c.x0 + k.x * (c.w / 100);
      c.parts.push(`<circle cx="${cx.toFixed(1)}" cy="${y + 23}" r="12" fill="${p.panel2}" stroke="${p.muted}"/>`);
      c.text(cx, y + 27, String(k.count), `font-size="10" font-weight="800" text-anchor="middle" fill="${p.text}"`);
    }
    c.parts.push(`<line x1="${PAD}" x2="${c.x0 + c.w}" y1="${y + h}" y2="${y + h}" stroke="${p.border}"/>`);
    y += h;
  }
  const overlaps = deriveOverlaps(run.events);
  if (overlaps.length > 0) {
    c.text(PAD, y + 21, 'Holders', `font-size="14" font-weight="700" fill="${p.text}"`);
    for (const o of overlaps)
      c.bar(
        y + 5,
        22,
        o.startMs,
        o.endMs,
        end,
        `rx="4" fill="${p.brokenBg}" stroke="${p.broken}"`,
        `${o.holders.length} workers at once — the lock said 1`,
        p.broken,
        `${o.holders.join(' + ')}: ${o.holders.length} workers at once — the lock said 1`,
      );
    y += OVERLAP_H;
  }
  for (const lane of deriveStoreLanes(run.events)) {
    c.text(PAD, y + 16, lane.store, `font-size="13" font-weight="700" fill="${p.text}"`);
    c.text(PAD, y + 30, fit(lane.name, LABEL_W - PAD), `font-size="10" font-family="monospace" fill="${p.muted}"`);
    for (const s of lane.segments) {
      if (s.value === null) continue;
      const stroke =
        (s.noExpiry && lane.leaseKey) || s.stale
          ? p.broken
          : s.holder
            ? workerColorOf(runSummary(run.events).workers.indexOf(s.holder))
            : p.muted;
      const text = segmentText(lane.store, s, lane.leaseKey);
      const attrs = `rx="4" fill="${stroke}" fill-opacity="0.25" stroke="${stroke}"${s.stale ? ' stroke-width="2"' : ''}`;
      const to = drawnEndMs(s, c.scale);
      const short = s.atEnd && fit(text, c.x(to ?? end) - c.x(s.startMs)) !== text;
      c.bar(y + 5, 26, s.startMs, to, end, attrs, short ? '' : text, p.text, s.label);
      // The final state's words stand whole at the right edge, over the state before.
      if (short) c.endLabel(y + 5, 26, c.x(to ?? end), text, attrs);
    }
    y += STORE_H;
  }
  return y;
}

/** The SVG text of the runs in `view`, `width` px wide. */
export function timelineSvg(
  runs: SvgRun[],
  view: TimeWindow,
  width: number,
  theme: 'dark' | 'light',
): { svg: string; width: number; height: number } {
  const p = paletteOf(theme);
  const x0 = LABEL_W;
  const c = new Canvas(x0, width - x0 - PAD * 2, makeScale(view.startMs, view.endMs), p);
  let y = 44;
  const heading = runs.length === 1 ? runs[0]!.title : runs.map((r) => r.title).join('  vs  ');
  c.text(PAD, 28, heading, `font-size="17" font-weight="700" fill="${p.text}"`);
  const title = c.parts; // each run below draws into a fresh list
  const times = ticks(c.scale, Math.max(3, Math.floor(c.w / 110)));
  const axisY = y;
  y += AXIS_H;
  const body: string[] = [];
  for (const run of runs) {
    c.parts = [];
    y = drawRun(c, run, view, y, runs.length > 1) + 6;
    body.push(...c.parts);
  }
  const grid = times.map(
    (t) => `<line x1="${c.x(t).toFixed(1)}" x2="${c.x(t).toFixed(1)}" y1="${axisY}" y2="${y}" stroke="${p.border}" stroke-opacity="0.6"/>`,
  );
  const labels = times.map(
    (t) =>
      `<text x="${c.x(t).toFixed(1)}" y="${axisY + 18}" font-size="12" text-anchor="middle" fill="${p.muted}">${esc(formatMs(t))}</text>`,
  );
  const height = y + 10;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, 'DejaVu Sans', sans-serif">`,
    `<defs>`,
    `<pattern id="zombie" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="12" fill="${p.broken}" fill-opacity="0.45"/><rect x="6" width="6" height="12" fill="${p.broken}" fill-opacity="0.1"/></pattern>`,
    `<pattern id="stall" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="10" fill="${p.muted}" fill-opacity="0.22"/></pattern>`,
    `<pattern id="blocked" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="5" height="10" fill="#f59e0b" fill-opacity="0.22"/></pattern>`,
    `<pattern id="cut" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="3" height="8" fill="${CUT_COLOR}" fill-opacity="0.18"/></pattern>`,
    `<pattern id="slow" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="3" fill="${SLOW_COLOR}" fill-opacity="0.18"/></pattern>`,
    `</defs>`,
    `<rect width="100%" height="100%" fill="${p.bg}"/>`,
    `<text x="${PAD}" y="${axisY + 18}" font-size="11" fill="${p.muted}">time since start</text>`,
    ...title,
    ...grid,
    ...labels,
    ...body,
    `</svg>`,
  ].join('\n');
  return { svg, width, height };
}
