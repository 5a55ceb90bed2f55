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
