// A bare page: the least a page can do to show a live run's events, for event to pixel's
// floor on the machine at hand. It takes the same stream from the same server, socket and
// workers as the app, and draws each lane's events as one element naming the lane's first
// and latest event (data-marks, as a cluster of the app's timeline does, so markProbe.ts
// times both the same way). No framework, no store, no layout beyond a line of text per
// lane, no validation: whatever latency it shows, the app cannot go under on this machine.
// Injected with page.evaluate into a blank page of the bench server's origin.

export interface BareParams {
  workers: number;
  events: number;
  rate: number;
  mode: 'marks';
}

/** The init function: call `window.__barePage.run(params)`; it resolves once the run's end is drawn. */
export function installBarePage(): void {
  interface Lane {
    el: HTMLElement;
    first: number | null;
  }
  interface BareEvent {
    type: string;
    seq: number;
    workerId: string | null;
  }
  const lanes = new Map<string, Lane>();
  let waiting: BareEvent[] = [];
  let finished: (() => void) | null = null;
  const socket = new WebSocket(`ws://${location.host}/ws`);
  const open = new Promise<void>((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
  socket.addEventListener('message', (m: MessageEvent<string>) => {
    const message = JSON.parse(m.data) as { type: string; events?: BareEvent[]; event?: BareEvent };
    if (message.type === 'run-events') waiting.push(...message.events!);
    else if (message.type === 'run-event') waiting.push(message.event!);
  });
  const laneOf = (workerId: string): Lane => {
    let lane = lanes.get(workerId);
    if (!lane) {
      const group = document.createElement('div');
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', workerId);
      const el = document.createElement('span');
      group.appendChild(el);
      document.body.appendChild(group);
      lanes.set(workerId, (lane = { el, first: null }));
    }
    return lane;
  };
  // Once a frame, as the app folds its events in: each lane's span names its first and latest event.
  const frame = () => {
    if (waiting.length > 0) {
      const latest = new Map<string, { first: number; last: number }>();
      let ended = false;
      for (const e of waiting) {
        if (e.type === 'run-finished' || e.type === 'run-failed') ended = true;
        if (e.type !== 'note' || e.workerId === null) continue;
        const seen = latest.get(e.workerId);
        if (seen) seen.last = e.seq;
        else latest.set(e.workerId, { first: e.seq, last: e.seq });
      }
      waiting = [];
      for (const [workerId, { first, last }] of latest) {
        const lane = laneOf(workerId);
        lane.first ??= first;
        lane.el.setAttribute('data-marks', `mark-${lane.first} mark-${last}`);
        lane.el.textContent = `${workerId}: ${last - lane.first + 1} events`;
      }
      if (ended) finished?.();
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  (window as unknown as { __barePage: { run(params: BareParams): Promise<void> } }).__barePage = {
    async run(params) {
      await open;
      for (const lane of lanes.values()) lane.first = null;
      const done = new Promise<void>((resolve) => (finished = resolve));
      socket.send(
        JSON.stringify({ type: 'start-run', requestId: `bare-${Date.now()}`, scenario: 'bench-emitter', variant: 'steady', params }),
      );
      await done;
    },
  };
}
