// The timeline's frame loop: everything that moves at 60 fps goes through here, never
// through a React render. Each frame it places the drawn (committed) content in the visible
// window with two CSS numbers, writes the axis ticks, moves the live edge and the playhead,
// follows a live run or a replay, and asks React for a new drawing only when the view has
// left it or the domain (a pure function of the logs, the cursor and the clock) has grown.
// It writes no time anywhere: the cursor is moved by the live clock, a step or the replay.
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { drawnNow } from '../../model/cursor.js';
import { clamp, formatMs, makeScale, ticks, timeToX } from '../../model/timeScale.js';
import { clampWindow, committedFor, follow, mustRedrawNow, placement, sameWindow, spanOf, type TimeWindow } from '../../model/viewport.js';
import { useStore } from '../../store/index.js';
import type { RunRecord } from '../../store/types.js';
import { viewStore } from '../../view/viewStore.js';

export interface FrameTargets {
  body: RefObject<HTMLElement | null>;
  axis: RefObject<HTMLElement | null>;
  grid: RefObject<HTMLElement | null>;
  live: RefObject<HTMLElement | null>;
  liveLabel: RefObject<HTMLElement | null>;
  playhead: RefObject<HTMLElement | null>;
  playheadLabel: RefObject<HTMLElement | null>;
}

/**
 * Writing the same text again would still replace the text node, and lay it out again; new
 * text goes into the node already there (the live label's, every frame), not a new node.
 */
function setText(el: HTMLElement, text: string): void {
  const node = el.firstChild;
  if (node !== null && node === el.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.nodeValue !== text) node.nodeValue = text;
  } else if (el.textContent !== text) el.textContent = text;
}

/**
 * A tick label's width in its own font's em, per character: tabular digits, the space and
 * "ms" are about 0.55 em each in the page's fonts; a little more, so an estimate errs wide.
 */
const TICK_EM_PER_CHAR = 0.62;

/**
 * Writes tick labels (or grid lines) into a container of `widthPx`, reusing its children.
 * A label is centred on its time unless that would put it past an edge of the axis; there
 * it ends (or starts) at its time instead. The label's width is estimated from its text and
 * font size, not measured: a measure would lay the page out again in every live frame.
 */
function writeTicks(el: HTMLElement | null, times: number[], view: TimeWindow, labels: boolean, widthPx: number): void {
  if (!el) return;
  const scale = makeScale(view.startMs, view.endMs);
  while (el.children.length < times.length) {
    const span = document.createElement('span');
    span.className = labels ? 'tick' : 'gridline';
    span.setAttribute('aria-hidden', 'true');
    el.appendChild(span);
  }
  const emPx = labels && el.firstElementChild ? fontPx(el.firstElementChild as HTMLElement) : 0;
  for (let i = 0; i < el.children.length; i++) {
    const child = el.children[i] as HTMLElement;
    const t = times[i];
    if (t === undefined) {
      child.style.display = 'none';
      child.textContent = '';
      continue;
    }
    child.style.display = '';
    const x = timeToX(t, scale);
    child.style.left = `${x}%`;
    if (labels) {
      const text = formatMs(t);
      const halfPx = (text.length * TICK_EM_PER_CHAR * emPx) / 2;
      const atPx = (x / 100) * widthPx;
      child.style.transform = atPx < halfPx ? 'none' : atPx + halfPx > widthPx ? 'translateX(-100%)' : '';
      setText(child, text);
    }
  }
}

/** A tick label's font size in px (the presenter's is larger), 13 if the page has none yet. */
function fontPx(tick: HTMLElement): number {
  return Number.parseFloat(getComputedStyle(tick).fontSize) || 13;
}

/** Margin (in visible spans, each side) of a drawing made while zooming out. */
const ZOOM_OUT_MARGIN = 3;
/**
 * Margin of any other drawing made mid-gesture: a pan goes a whole span before it needs
 * the next (each redraw of every lane at once is a long frame; the drawing at rest keeps
 * the usual margin).
 */
const MOVING_MARGIN = 1;
/** Least time between two requests for a new drawing while the view moves, in ms. */
const COMMIT_EVERY_MS = 120;
/**
 * Slides and stretches every drawn track into the view. The width is laid out once per
 * drawing (`layoutWidthPct`, crisp text); between drawings a zoom is a scaleX and a pan a
 * translateX of each .tl-content's own layer: no layout and no repaint per frame (text and
 * glyphs stretch a little until the view rests and React draws it again). Written on the
 * elements, not as inherited custom properties, so a frame restyles a few elements only.
 */
function placeContent(body: HTMLElement, { leftPct, widthPct }: { leftPct: number; widthPct: number }, layoutWidthPct: number): void {
  const width = `${layoutWidthPct.toFixed(4)}%`;
  const scale = widthPct / Math.max(1e-9, layoutWidthPct);
  // A transform's percent is of the element's own (laid-out) width; the origin is its left edge.
  const shift = (leftPct / Math.max(1e-9, layoutWidthPct)) * 100;
  const transform =
    Math.abs(scale - 1) < 1e-6 ? `translateX(${shift.toFixed(4)}%)` : `translateX(${shift.toFixed(4)}%) scaleX(${scale.toFixed(6)})`;
  // A live collection: no selector matched over the whole drawing every frame.
  for (const el of body.getElementsByClassName('tl-content') as HTMLCollectionOf<HTMLElement>) {
    setStyle(el, 'width', width);
    setStyle(el, 'transform', transform);
  }
}

/**
 * What the frame loop last wrote on each element, by property. Reading `el.style` back would
 * serialize the declaration again, for every track, every frame; a React render that
 * replaces a track's element starts it afresh.
 */
const written = new WeakMap<HTMLElement, Map<string, string>>();

/** Sets an inline style property (a custom one too) unless the frame loop already wrote that value there. */
function setStyle(el: HTMLElement, property: string, value: string): void {
  let mine = written.get(el);
  if (!mine) written.set(el, (mine = new Map<string, string>()));
  if (mine.get(property) === value) return;
  mine.set(property, value);
  el.style.setProperty(property, value);
}

/**
 * While a run is live, its clock label beside the live edge moves in steps of this many ms:
 * new text every frame cost each frame a layout, a repaint and a raster of the label (about
 * a fifth of a live frame's main-thread work on a 2-core machine at 20 events/s), and
 * milliseconds going by are not read anyway. The edge itself moves every frame.
 */
const LIVE_LABEL_STEP_MS = 100;

/** How long the view must rest before React redraws it exactly, in ms. */
const SETTLE_MS = 140;

/**
 * `trackPx`: the tracks' width, measured by a ResizeObserver; the frame loop never reads
 * layout, which would force the page to lay out what the frame just changed, twice a frame.
 */
export function useTimelineFrame(
  targets: FrameTargets,
  runIds: string[],
  committed: TimeWindow,
  trackPx: number,
  onCommit: (w: TimeWindow) => void,
  /** Changes whenever the runs drawn change (their events). */
  version: number,
  /** Where the domain ends at a page time: the same pure function React draws with. */
  domainEndAt: (pageNowMs: number) => number,
  /** Asks React to draw again: the domain at this frame's clock is not the one drawn. */
  onStale: () => void,
): void {
  // The frame loop reads the arguments of the drawing the DOM shows through this ref, written
  // as React commits it (a render in slices may be set aside for a newer one, and the frame
  // would then work from a drawing that never reached the DOM).
  const args = { committed, trackPx, runIds, onCommit, domainEndAt, onStale };
  const latest = useRef(args);
  useLayoutEffect(() => {
    latest.current = args;
  });
  const drawRef = useRef<() => void>(() => {});

  useEffect(() => {
    let frame = 0;
    let settle: ReturnType<typeof setTimeout> | null = null;
    let lastWindow = viewStore.getState().window;
    let lastCommitAsk = Number.NEGATIVE_INFINITY;
    let layoutFor: TimeWindow | null = null;
    let layoutWidthPct = 100;
    // The axis as last written: a frame where the view and width are the same leaves it be.
    let axisFor = '';
    // The domain end last asked for, so that a frame asks React once per new domain.
    let staleAsked = Number.NaN;
    const draw = () => {
      frame = 0;
      const t = targets;
      const v = viewStore.getState();
      const { runs: records, cursor } = useStore.getState();
      const runs = latest.current.runIds.map((id) => records[id]).filter((r): r is RunRecord => !!r);
      const page = performance.now();
      // Where the drawing reaches: the live edge, or the cursor when held or replayed.
      let nowMs = 0;
      let live = false;
      for (const run of runs) {
        const n = drawnNow(run, cursor, page);
        nowMs = Math.max(nowMs, n.nowMs);
        live ||= n.moving;
      }
      const heldMs = cursor.mode === 'held' ? cursor.atMs : null;
      let view = v.window ?? v.bounds;
      if (v.window && live && v.follow) {
        const followed = clampWindow(follow(v.window, nowMs), v.bounds);
        if (!sameWindow(followed, v.window)) {
          view = followed;
          viewStore.getState().setWindow(followed);
        }
      }
      const drawn = latest.current.committed;
      const body = t.body.current;
      if (body) {
        // A new drawing is laid out at the width the view asks for now; later frames scale it.
        if (layoutFor !== drawn) {
          layoutFor = drawn;
          layoutWidthPct = placement(view, drawn).widthPct;
        }
        placeContent(body, placement(view, drawn), layoutWidthPct);
        body.classList.toggle('zoomed', v.window !== null);
        // Open intervals reach the live edge through --live-x, set only on the contents that
        // hold one (data-open) and only when it moves: it is inherited, so each change
        // restyles everything under it, and on the body that was the whole drawing.
        const liveX = `${clamp(timeToX(nowMs, makeScale(drawn.startMs, drawn.endMs)), 0, 100).toFixed(2)}%`;
        for (const el of body.getElementsByClassName('tl-content') as HTMLCollectionOf<HTMLElement>)
          if (el.hasAttribute('data-open')) setStyle(el, '--live-x', liveX);
      }
      const width = latest.current.trackPx;
      const axisKey = `${view.startMs} ${view.endMs} ${width}`;
      if (axisKey !== axisFor) {
        axisFor = axisKey;
        const times = ticks(makeScale(view.startMs, view.endMs), Math.max(3, Math.floor(width / 110)));
        writeTicks(t.axis.current, times, view, true, width);
        const axisName = `Time axis from ${formatMs(view.startMs)} to ${formatMs(view.endMs)}`;
        if (t.axis.current && t.axis.current.getAttribute('aria-label') !== axisName) t.axis.current.setAttribute('aria-label', axisName);
        writeTicks(t.grid.current, times, view, false, width);
      }
      const viewScale = makeScale(view.startMs, view.endMs);
      const liveX = timeToX(nowMs, viewScale);
      if (t.live.current) {
        // Moved as a layer of its own (a transform, in the tracks' pixels), not by `left`:
        // laid out again every frame, it had the page's root layer repainted every frame.
        t.live.current.style.transform = `translateX(${((clamp(liveX, 0, 100) / 100) * width).toFixed(1)}px)`;
        t.live.current.classList.toggle('live', live);
        // A held cursor is drawn by the playhead: one line, one label.
        t.live.current.style.visibility = heldMs !== null || liveX < -0.5 || liveX > 100.5 ? 'hidden' : '';
      }
      if (t.liveLabel.current) {
        setText(t.liveLabel.current, formatMs(live ? Math.floor(nowMs / LIVE_LABEL_STEP_MS) * LIVE_LABEL_STEP_MS : nowMs));
        // Near the right edge the label goes to the left of the line, inside the track.
        t.liveLabel.current.classList.toggle('flip', liveX > 85);
      }
      if (t.playhead.current) {
        const x = heldMs === null ? -1 : timeToX(heldMs, viewScale);
        t.playhead.current.style.left = `${x}%`;
        t.playhead.current.style.visibility = heldMs === null || x < 0 || x > 100 ? 'hidden' : 'visible';
        if (t.playheadLabel.current && heldMs !== null) setText(t.playheadLabel.current, formatMs(heldMs));
      }
      // The domain grows on round numbers ahead of the live edge (or of a replay's cursor):
      // React draws it again when this frame's clock gives another domain than the drawn one.
      const endMs = latest.current.domainEndAt(page);
      if (endMs !== v.bounds.endMs && endMs !== staleAsked) {
        staleAsked = endMs;
        latest.current.onStale();
      }
      // Mid-gesture, ask React for a new drawing only when a blank edge would show or the
      // drawing is stretched too far (at most every COMMIT_EVERY_MS); the rest redraws it exactly.
      if (v.window && mustRedrawNow(view, drawn) && page - lastCommitAsk > COMMIT_EVERY_MS) {
        lastCommitAsk = page;
        // Zooming out: draw well beyond the view, so that the next notches need no redraw.
        const zoomingOut = spanOf(view) > spanOf(drawn) * 0.8;
        latest.current.onCommit(committedFor(view, v.bounds, zoomingOut ? ZOOM_OUT_MARGIN : MOVING_MARGIN));
      }
      if (live) frame = requestAnimationFrame(draw);
    };
    // Drawn now, outside the loop's own frames: a frame already asked for is asked again
    // by this draw if the run is live (else two loops would run).
    drawRef.current = () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      draw();
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    const unsubscribeView = viewStore.subscribe((s) => {
      schedule();
      if (s.window === lastWindow) return;
      lastWindow = s.window;
      if (settle !== null) clearTimeout(settle);
      settle = setTimeout(() => {
        settle = null;
        const now = viewStore.getState();
        const want = now.window ? committedFor(now.window, now.bounds) : now.bounds;
        // At rest the drawing is made exactly for the view: crisp text, fresh clusters.
        if (!sameWindow(want, latest.current.committed)) latest.current.onCommit(want);
      }, SETTLE_MS);
    });
    const unsubscribeRuns = useStore.subscribe((s, prev) => {
      if (s.runs !== prev.runs || s.cursor !== prev.cursor) schedule();
    });
    draw();
    return () => {
      unsubscribeView();
      unsubscribeRuns();
      if (frame !== 0) cancelAnimationFrame(frame);
      if (settle !== null) clearTimeout(settle);
    };
  }, [targets]);

  // A new drawing is placed in the same frame React shows it: no jump. So is content drawn
  // for new events (`version`): one newly open gets its --live-x before it is painted.
  useLayoutEffect(() => drawRef.current(), [committed, runIds, trackPx, version]);
}
