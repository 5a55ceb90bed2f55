// What a run's start set going — its stores, its lab hosts, its fixture, its worker
// processes, its ground truth's observers — kept so that the run's end cleans up all of it, even what a
// cancel stopped the start from waiting for.
import type { RunFixture } from '../scenarios/types.js';
import type { WorkerProcess } from '../worker/ipc.js';
import type { GroundTruth } from './groundTruth.js';
import type { RunLab } from './runLab.js';
import { killAndWait } from './runProcesses.js';
import { cleanUpOnSilence, type OwnedRunStores } from './runStores.js';
import type { StoreSilence } from './storeWatch.js';

export class Underway {
  stores?: Promise<OwnedRunStores>;
  /** The lab hosts of a scenario with network or clock faults (runLab.ts). */
  lab?: Promise<RunLab>;
  fixture?: Promise<RunFixture>;
  /** The pool's processes, until the run adopts them (from then on `RunProcesses` kills them). */
  children?: Promise<WorkerProcess[]>;
  adopted = false;
  readonly exits: Promise<void>[] = [];
  /** The observers of the keys and rows, once the run runs. */
  truth?: GroundTruth;

  constructor(
    private readonly runId: string,
    private readonly logLine: (line: string) => void,
    /** Which stores have gone silent: a clean-up does not wait for them. */
    private readonly silence?: StoreSilence,
  ) {}

  /** Cleans up all of it; gives up after `budgetMs`. */
  async cleanUpWithin(budgetMs: number): Promise<void> {
    let budget: NodeJS.Timeout | undefined;
    const over = new AbortController();
    await Promise.race([
      this.cleanUp(),
      // A silent store: its commands would hold the steps above for their timeouts.
      cleanUpOnSilence(this.silence, this.stores, Promise.all(this.exits), over.signal),
      new Promise<void>((resolve) => {
        budget = setTimeout(() => {
          this.logLine(`cleanup of run ${this.runId} did not finish within ${budgetMs} ms`);
          resolve();
        }, budgetMs);
      }),
    ]);
    clearTimeout(budget);
    over.abort(); // the stores' signals outlive the run: no listener of this run stays on them
  }

  private async cleanUp(): Promise<void> {
    if (this.children && !this.adopted) {
      const late = await this.children.catch(() => [] as WorkerProcess[]);
      await Promise.all(late.map((child) => killAndWait(child)));
    }
    const stores = await this.stores?.catch(() => undefined);
    const fixture = await this.fixture?.catch(() => undefined);
    await Promise.all(this.exits);
    await this.truth?.settle();
    await fixture?.close?.().catch((error: unknown) => this.logLine(`run ${this.runId} fixture: ${String(error)}`));
    // Once its processes are gone: a namespace is deleted for good only when nothing runs in it.
    const lab = await this.lab?.catch(() => undefined);
    await lab?.close().catch((error: unknown) => this.logLine(`run ${this.runId} lab hosts: ${String(error)}`));
    await stores?.cleanup().catch((error: unknown) => this.logLine(`cleanup of run ${this.runId} failed: ${String(error)}`));
  }
}
