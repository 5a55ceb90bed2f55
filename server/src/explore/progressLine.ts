// The explore command's progress on stderr while it runs: schedules played, how many failed,
// the rate, and the time left of the budget (the schedules left at the rate so far, or the
// minutes left, whichever ends first). On a terminal one line is rewritten in place; in a log
// or a file, a line every PROGRESS_EVERY_MS. Never on stdout: --json stays one document.
import type { ExploreProgress, ExploreRequest } from './explorer.js';

/** How often a line is written when stderr is not a terminal, in ms. */
const PROGRESS_EVERY_MS = 5000;

type Budget = Pick<ExploreRequest, 'budget' | 'timeMs'>;

/** "12 schedules, 3 failing, 1.4 schedules/s, about 20 s left of the budget". */
export function progressWords({ played, failing, elapsedMs }: ExploreProgress, { budget, timeMs }: Budget): string {
  const perSecond = played / Math.max(elapsedMs / 1000, 0.001);
  const leftMs = Math.max(0, Math.min(((budget - played) / perSecond) * 1000, timeMs - elapsedMs));
  return `${played} schedule${played === 1 ? '' : 's'}, ${failing} failing, ${perSecond.toFixed(1)} schedules/s, about ${Math.ceil(leftMs / 1000)} s left of the budget`;
}

/** Writes the progress to `stream` as schedules are played; `done` ends the line. */
export function progressLine(budget: Budget, stream: NodeJS.WriteStream): { update(p: ExploreProgress): void; done(): void } {
  let shown = false;
  let lastAt = 0;
  return {
    update(progress) {
      const words = progressWords(progress, budget);
      if (stream.isTTY) {
        stream.write(`\r\x1b[K${words}`);
        shown = true;
      } else if (progress.elapsedMs - lastAt >= PROGRESS_EVERY_MS) {
        lastAt = progress.elapsedMs;
        stream.write(`${words}\n`);
      }
    },
    done() {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}
