// The observers' clock: one sample every few ms until stopped. A failed sample stops the
// loop and is reported once; stopping ends the pause between samples at once.
export class SamplingLoop {
  private on = true;
  private readonly loop: Promise<void>;
  private wake: () => void = () => undefined;

  constructor(
    private readonly everyMs: number,
    private readonly sample: () => Promise<void>,
    private readonly onError: (error: Error) => void,
  ) {
    this.loop = this.run();
  }

  /** False once stopped or once a sample failed. */
  get running(): boolean {
    return this.on;
  }

  /** Stops sampling; resolves once the sample in flight, if any, has ended. */
  async stop(): Promise<void> {
    this.on = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.on) {
      try {
        await this.sample();
      } catch (error) {
        this.on = false;
        this.onError(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.everyMs);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
  }
}
