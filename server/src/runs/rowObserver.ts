// Ground truth from PostgreSQL (or a scenario's own lab): samples what the scenario says
// to watch and reports each change, so the timeline shows the row beside the beliefs.
import type { Observed } from '../scenarios/types.js';
import { SamplingLoop } from './samplingLoop.js';

/** How often rows are sampled, in ms: a query per sample, so slower than the key observer. */
export const ROW_SAMPLE_EVERY_MS = 15;

export class RowObserver {
  /** The last value reported, by store and name. */
  private readonly last = new Map<string, string | null>();
  private readonly sampling: SamplingLoop;

  constructor(
    private readonly observe: () => Promise<Observed>,
    private readonly onChange: (store: string, target: string, value: string | null) => void,
    private readonly onError: (error: Error) => void,
  ) {
    this.sampling = new SamplingLoop(ROW_SAMPLE_EVERY_MS, () => this.sample(), onError);
  }

  /** Takes one last sample and stops. */
  async stop(): Promise<void> {
    await this.sampling.stop();
    await this.sample().catch(() => undefined);
  }

  private async sample(): Promise<void> {
    const now = await this.observe();
    for (const [store, lanes] of Object.entries(now)) {
      for (const [target, value] of Object.entries(lanes)) {
        const id = `${store}\u0000${target}`;
        if (this.last.has(id) && this.last.get(id) === value) continue;
        this.last.set(id, value);
        this.onChange(store, target, value);
      }
    }
  }
}
