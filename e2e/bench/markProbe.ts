// In-page probes, injected before the app's own script runs (page.addInitScript).
//  - socket: every WebSocket frame carrying notes "#i" is stamped on arrival (a frame may
//    carry a batch of events), or as the page's main thread takes it from the tick worker
//    that holds the page's socket.
//  - drawing: a MutationObserver sees each shape that draws events enter the DOM or
//    change: a mark (data-mark="mark-<seq>", one event) or a cluster of a lane's marks too
//    close to tell apart (data-marks="mark-<first> mark-<last>": every mark of its lane
//    between the two). The frame that renders it is the first whose style and layout come
//    after that (the page inserts shapes from its own requestAnimationFrame callbacks, so
//    that is usually the same frame), and its "after frame" time is a message posted from
//    that frame's ResizeObserver callback, which runs once the frame's style, layout and
//    paint are done on the main thread. "Visible" is the first such frame where a mark's
//    computed opacity is > 0 (marks fade in; clusters do not). Compositing and display
//    after that are not observable here.
//  - the tick worker: see watchTickWorkers below.
// All times are the page's wall clock: performance.timeOrigin + performance.now().
import type { Page } from '@playwright/test';

export interface MarkTimes {
  seq: number;
  domMs: number;
  frameMs: number;
  visibleMs: number;
}

export interface ClusterTimes {
  /** The lane's worker (its role=group's name). */
  lane: string;
  firstSeq: number;
  lastSeq: number;
  frameMs: number;
}

export interface ProbeState {
  marks: MarkTimes[];
  clusters: ClusterTimes[];
  /** Note "#i" → when the frame carrying it arrived. */
  received: [number, number][];
  inTimeline: boolean | null;
}

/** The init script; pass it to page.addInitScript. */
export function installMarkProbe(): void {
  const now = () => performance.timeOrigin + performance.now();
  const NOTE = /"type":"note"[^}]*"text":"#(\d+)"|"text":"#(\d+)"[^}]*"type":"note"/g;
  const received = new Map<number, number>();
  type MarkRecord = MarkTimes & { el: Element };
  const marks = new Map<number, MarkRecord>();
  const clusters: ClusterTimes[] = [];
  /** Shapes inserted or changed since the last frame's ResizeObserver callback. */
  let pending: { mark?: MarkRecord; cluster?: ClusterTimes }[] = [];
  let fading: MarkRecord[] = [];
  const state = { inTimeline: null as boolean | null };

  const stamp = (data: unknown) => {
    const at = now();
    if (typeof data !== 'string') return;
    for (const m of data.matchAll(NOTE)) received.set(Number(m[1] ?? m[2]), at);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => stamp(e.data));
    }
  };
  // Where the page's socket is held by its tick worker, the page takes each message from it.
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener('message', (e: MessageEvent<{ type?: string; data?: unknown }>) => {
        if (e.data?.type === 'message') stamp(e.data.data);
      });
    }
  };

  const seqOf = (id: string | undefined) => (id && /^mark-\d+$/.test(id) ? Number(id.slice(5)) : Number.NaN);
  const consider = (el: Element) => {
    const one = el.getAttribute('data-mark');
    const many = el.getAttribute('data-marks');
    if (one === null && many === null) return;
    if (state.inTimeline === null) {
      const section = el.closest('section[aria-labelledby]');
      const title = section && document.getElementById(section.getAttribute('aria-labelledby')!);
      state.inTimeline = title?.textContent?.trim() === 'Timeline';
    }
    if (one !== null) {
      const seq = seqOf(one);
      if (Number.isNaN(seq) || marks.has(seq)) return;
      const rec = { seq, domMs: now(), frameMs: Number.NaN, visibleMs: Number.NaN, el };
      marks.set(seq, rec);
      pending.push({ mark: rec });
      return;
    }
    const [first, last] = many!.split(' ');
    const lane = el.closest('[role="group"]')?.getAttribute('aria-label') ?? '';
    const rec = { lane, firstSeq: seqOf(first), lastSeq: seqOf(last), frameMs: Number.NaN };
    clusters.push(rec);
    pending.push({ cluster: rec });
  };
  const start = () => {
    new MutationObserver((list) => {
      for (const r of list) {
        if (r.type === 'attributes' && r.target instanceof Element) consider(r.target);
        for (const n of Array.from(r.addedNodes)) {
          if (!(n instanceof Element)) continue;
          consider(n);
          n.querySelectorAll('[data-mark], [data-marks]').forEach(consider);
        }
      }
    }).observe(document.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-mark', 'data-marks'],
    });
    const channel = new MessageChannel();
    // One batch per frame, in order: each frame posts one message, and messages arrive in order.
    const framed: (typeof pending)[] = [];
    channel.port1.onmessage = () => {
      const at = now();
      for (const p of framed.shift() ?? []) {
        if (p.cluster) p.cluster.frameMs = at;
        if (p.mark) {
          p.mark.frameMs = at;
          fading.push(p.mark);
        }
      }
      fading = fading.filter((m) => {
        if (Number(getComputedStyle(m.el).opacity) <= 0) return true;
        m.visibleMs = at;
        return false;
      });
    };
    // A frame renders what was inserted before its style and layout, including by the
    // page's own rAF callbacks of that frame (which run after this probe's). A
    // ResizeObserver callback runs in the frame after all rAF callbacks, style and layout,
    // before paint: the batch is closed there. A 1 px sentinel changes height every frame
    // so that the observer is called in each one.
    const sentinel = document.createElement('div');
    sentinel.setAttribute('aria-hidden', 'true');
    sentinel.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;visibility:hidden;pointer-events:none;contain:strict';
    document.documentElement.appendChild(sentinel);
    new ResizeObserver(() => {
      framed.push(pending);
      pending = [];
      channel.port2.postMessage(0);
    }).observe(sentinel);
    const loop = () => {
      sentinel.style.height = sentinel.style.height === '1px' ? '2px' : '1px';
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);

  (window as unknown as { __markProbe: { take(): ProbeState } }).__markProbe = {
    take() {
      const result: ProbeState = {
        marks: [...marks.values()].map(({ el: _, ...r }) => r),
        clusters: clusters.splice(0),
        received: [...received],
        inTimeline: state.inTimeline,
      };
      marks.clear();
      received.clear();
      fading = [];
      state.inTimeline = null;
      return result;
    },
  };
}

/**
 * The same probe in the page's tick worker (web/src/ticks/tickWorker.ts), which draws a live
 * run's arrived events on canvases handed to it, off the page's main thread: the worker calls
 * `__ticksDrawn(lane, firstSeq, lastSeq)` once it has drawn a lane's ticks, in its own
 * animation frame, and each call is a cluster drawn at that moment (the worker's wall clock,
 * performance.timeOrigin + performance.now(), as the page's). Call before the page opens.
 */
export function watchTickWorkers(page: Page): { ready(): Promise<void>; take(): Promise<ClusterTimes[]> } {
  const installed: Promise<unknown>[] = [];
  page.on('worker', (worker) => {
    installed.push(
      worker.evaluate(() => {
        const scope = self as unknown as { __ticksDrawn?: unknown; __tickProbe?: ClusterTimes[] };
        scope.__tickProbe = [];
        scope.__ticksDrawn = (lane: string, firstSeq: number, lastSeq: number) =>
          scope.__tickProbe!.push({ lane, firstSeq, lastSeq, frameMs: performance.timeOrigin + performance.now() });
      }),
    );
  });
  return {
    async ready() {
      await Promise.all(installed);
    },
    async take() {
      const out: ClusterTimes[] = [];
      for (const worker of page.workers())
        out.push(...(await worker.evaluate(() => (self as unknown as { __tickProbe?: ClusterTimes[] }).__tickProbe?.splice(0) ?? [])));
      return out;
    },
  };
}
