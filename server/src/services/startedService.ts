import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** A store this process started itself and therefore has to stop. */
export interface StartedService {
  /** Connection URL (may contain a password: redact before logging). */
  url: string;
  /** Scratch directory holding its data; gone after stop(). */
  dir: string;
  /** Stops the server and deletes `dir`; safe to call more than once. */
  stop(): Promise<void>;
  /** Last-resort synchronous kill + delete, for process 'exit' where nothing async runs. */
  killSync(): void;
}

/** How to end one started child: gracefully (awaited), and at once for process 'exit'. */
export interface ChildStop {
  stop(): Promise<void>;
  killSync(): void;
}

/** The service at `url` whose data lives in `dir`: each stop ends the child, then deletes `dir`; stop() runs once. */
export function startedService(url: string, dir: string, child: ChildStop): StartedService {
  let stopping: Promise<void> | undefined;
  return {
    url,
    dir,
    stop() {
      stopping ??= (async () => {
        await child.stop();
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
    killSync() {
      child.killSync();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
