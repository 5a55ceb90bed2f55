// In-page probes, injected before the app's own script runs (page.addInitScript).
//  - socket: every WebSocket frame carrying a note "#i" is stamped on arrival.
//  - marks: a MutationObserver sees each mark (role=img) whose accessible name ends in
//    ": #i" enter the DOM; the frame that renders it is the first whose style and layout
//    come after that (marks the page inserts from its own requestAnimationFrame callbacks
//    are rendered by that same frame), and its "after frame" time is a message posted
//    from that frame's ResizeObserver callback (after layout), which runs once the
//    frame's style, layout and paint are done on the main thread. "Visible" is the first
//    such frame where the mark's computed opacity is > 0 (marks fade in). Compositing and
//    display after that are not observable here.
// All times are the page's wall clock: performance.timeOrigin + performance.now().
export interface MarkTimes {
  i: number;
  receivedMs: number;
  domMs: number;
  frameMs: number;
  visibleMs: number;
}

export interface ProbeState {
  marks: MarkTimes[];
  inTimeline: boolean | null;
}

/** The init script; pass it to page.addInitScript. */
export function installMarkProbe(): void {
  const now = () => performance.timeOrigin + performance.now();
  const NOTE = /"type":"note"[^}]*"text":"#(\d+)"|"text":"#(\d+)"[^}]*"type":"note"/;
  const received = new Map<number, number>();
  const records = new Map<number, { i: number; receivedMs: number; domMs: number; frameMs: number; visibleMs: number; el: Element }>();
  let pending: { el: Element; rec: { frameMs: number; visibleMs: number } }[] = [];
  let fading: { el: Element; rec: { visibleMs: number } }[] = [];
  const state = { inTimeline: null as boolean | null };

  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => {
        const at = now();
        const m = typeof e.data === 'string' ? NOTE.exec(e.data) : null;
        if (m) received.set(Number(m[1] ?? m[2]), at);
      });
    }
  } as typeof WebSocket;

  const LABEL = /: #(\d+)$/;
  const consider = (el: Element) => {
    if (el.getAttribute('role') !== 'img') return;
    const m = LABEL.exec(el.getAttribute('aria-label') ?? '');
    if (!m) return;
    const i = Number(m[1]);
    if (records.has(i)) return;
    if (state.inTimeline === null) {
      const section = el.closest('section[aria-labelledby]');
      const title = section && document.getElementById(section.getAttribute('aria-labelledby')!);
      state.inTimeline = title?.textContent?.trim() === 'Timeline';
    }
    const rec = { i, receivedMs: received.get(i) ?? Number.NaN, domMs: now(), frameMs: Number.NaN, visibleMs: Number.NaN, el };
    records.set(i, rec);
    pending.push({ el, rec });
  };
  const start = () => {
    new MutationObserver((list) => {
      for (const r of list) {
        if (r.type === 'attributes' && r.target instanceof Element) consider(r.target);
        for (const n of Array.from(r.addedNodes)) {
          if (!(n instanceof Element)) continue;
          consider(n);
          n.querySelectorAll('[role="img"]').forEach(consider);
        }
      }
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label', 'role'] });
    const channel = new MessageChannel();
    // One batch per frame, in order: each frame posts one message, and messages arrive in order.
    const framed: (typeof pending)[] = [];
    channel.port1.onmessage = () => {
      const at = now();
      for (const p of framed.shift() ?? []) {
        p.rec.frameMs = at;
        fading.push(p);
      }
      fading = fading.filter((p) => {
        if (Number(getComputedStyle(p.el).opacity) <= 0) return true;
        p.rec.visibleMs = at;
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

  (window as unknown as { __markProbe: { take(): unknown } }).__markProbe = {
    take() {
      const marks = [...records.values()].map(({ el: _, ...r }) => r);
      records.clear();
      received.clear();
      const result = { marks, inTimeline: state.inTimeline };
      state.inTimeline = null;
      return result;
    },
  };
}
