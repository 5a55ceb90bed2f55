// Messages between the page and its tick worker (tickWorker.ts). The worker holds the page's
// socket to the server and hands each message on to the page as it comes; lanes are numbered
// by the page, one number per canvas: a canvas is handed over once, as an OffscreenCanvas,
// and drawn only by the worker from then on, whichever run's lane it shows.

export type ToTickWorker =
  /** Opens socket `id` to `url` (the page's one socket: a new one replaces the last). */
  | { type: 'open'; id: number; url: string }
  | { type: 'send'; id: number; data: string }
  | { type: 'close'; id: number }
  /** A worker lane of a run on screen and its colour; its canvas the first time. */
  | { type: 'lane'; laneId: number; runId: string; workerId: string; canvas?: OffscreenCanvas; color: string }
  /** Where the lane's drawing is (the drawn window, its width in CSS px), and whether it shows the live log. */
  | { type: 'place'; laneId: number; startMs: number; endMs: number; pxWidth: number; ratio: number; live: boolean }
  | { type: 'drop-lane'; laneId: number }
  /** The lanes drew the run's log up to and including `seq`. */
  | { type: 'drawn-through'; runId: string; seq: number }
  /** The run ended where no lane draws it. */
  | { type: 'forget'; runId: string };

/** What socket `id` did. */
export type FromTickWorker = { type: 'open'; id: number } | { type: 'message'; id: number; data: string } | { type: 'close'; id: number };

/**
 * Called by the worker, if a probe defined it on the worker's global scope, each time it
 * draws a lane's ticks: the lane's worker and the first and last seq drawn (every tick of the
 * lane between them). What `data-marks` says of a shape on the page.
 */
export type TicksDrawnProbe = (workerId: string, firstSeq: number, lastSeq: number) => void;
