// The run's bookkeeping of isolations, apart from any network: the cuts here are the
// scenario's part, played by functions that say when they are made (the real cuts, the
// kernel's and the proxy's, are redlock/isolateNode.test.ts's). What is logged, which
// latches are set and in which order, what a page is told when a rejoin cannot apply.
import type { StagedFault } from '@racelab/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeCut } from '../scenarios/types.js';
import { NodeIsolation } from './nodeIsolation.js';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}
const deferred = (): Deferred => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

/** A node's cut that is made (or fails) when the test says so, and whose rejoins the test counts. */
function fakeNode(node: string) {
  const cuts: Deferred[] = [];
  const asked: Array<() => void> = [];
  /** Resolves with the `n`th cut (from 0) once it is asked for. */
  const cutAt = async (n: number): Promise<Deferred> => {
    while (cuts.length <= n) await new Promise<void>((resolve) => asked.push(resolve));
    return cuts[n]!;
  };
  let rejoins = 0;
  const fault = (kind: 'isolation' | 'rejoin'): StagedFault => ({
    fault: kind,
    target: node,
    mechanism: 'test',
    node,
    peer: null,
    worker: 'worker-1',
    slowdown: null,
    workerId: 'worker-1',
  });
  const cut: NodeCut = async () => {
    const made = deferred();
    cuts.push(made);
    for (const resolve of asked.splice(0)) resolve();
    await made.promise;
    return {
      faults: [fault('isolation')],
      rejoin: () => {
        rejoins++;
        return Promise.resolve([fault('rejoin')]);
      },
    };
  };
  return { cut, cutAt, rejoins: () => rejoins };
}

function isolationOf(nodes: string[]) {
  const log: string[] = [];
  const fakes = Object.fromEntries(nodes.map((n) => [n, fakeNode(n)]));
  const isolation = new NodeIsolation({
    staged: (f) => log.push(`${f.fault} ${f.target}`),
    logLine: (line) => log.push(`log: ${line}`),
  });
  let signalled: (latch: string) => void = () => undefined;
  isolation.useCuts(Object.fromEntries(nodes.map((n) => [n, fakes[n]!.cut])), (latch) => {
    log.push(`latch ${latch}`);
    signalled(latch);
  });
  /** Resolves once `latch` is set. */
  const latch = (name: string) =>
    new Promise<void>((resolve) => {
      const before = signalled;
      signalled = (l) => {
        before(l);
        if (l === name) resolve();
      };
    });
  return { isolation, log, fakes, latch };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('isolating a lab node and letting it rejoin', () => {
  it('logs each cut and rejoin once it is made, then sets its latch; a node rejoined may be isolated again, in a round of its own', async () => {
    const { isolation, log, fakes, latch } = isolationOf(['node-4']);
    const node = fakes['node-4']!;
    const cutOnce = vi.fn();
    expect(isolation.isolate('node-4', cutOnce)).toBeUndefined();
    expect(log).toEqual([]); // not cut yet: nothing logged, no latch
    const first = latch('isolated:node-4#1');
    (await node.cutAt(0)).resolve();
    await first;
    expect(cutOnce).toHaveBeenCalledTimes(1);
    const rejoined = latch('rejoined:node-4#1');
    expect(isolation.rejoin('node-4')).toBeUndefined();
    await rejoined;
    expect(isolation.isolate('node-4')).toBeUndefined();
    const second = latch('isolated:node-4#2');
    (await node.cutAt(1)).resolve();
    await second;
    expect(log).toEqual([
      'isolation node-4',
      'latch isolated:node-4#1',
      'rejoin node-4',
      'latch rejoined:node-4#1',
      'isolation node-4',
      'latch isolated:node-4#2',
    ]);
  });

  it('refuses, with words a page can show, a rejoin of a node that is not isolated or not there, and a second isolate', async () => {
    const { isolation, fakes, latch } = isolationOf(['node-1', 'node-4']);
    expect(isolation.rejoin('node-4')).toBe('node-4 is not isolated');
    expect(isolation.rejoin('node-9')).toBe("no lab node 'node-9' in this run; known: node-1, node-4");
    expect(isolation.isolate('node-4')).toBeUndefined();
    expect(isolation.isolate('node-4')).toBe('node-4 is already isolated');
    const rejoined = latch('rejoined:node-4#1');
    expect(isolation.rejoin('node-4')).toBeUndefined();
    expect(isolation.rejoin('node-4')).toBe('node-4 is not isolated');
    (await fakes['node-4']!.cutAt(0)).resolve();
    await rejoined;
    expect(fakes['node-4']!.rejoins()).toBe(1);
    expect(new NodeIsolation({ staged: () => undefined, logLine: () => undefined }).rejoin('node-4')).toBe(
      "no lab node 'node-4' to isolate: an isolate needs a scenario whose lab has nodes a worker reaches over the network (redlock)",
    );
  });

  it('a rejoin asked for while the cut is being made undoes it once made: the latches come in order', async () => {
    const { isolation, log, fakes, latch } = isolationOf(['node-4']);
    isolation.isolate('node-4');
    isolation.rejoin('node-4');
    const rejoined = latch('rejoined:node-4#1');
    (await fakes['node-4']!.cutAt(0)).resolve();
    await rejoined;
    expect(log).toEqual(['isolation node-4', 'latch isolated:node-4#1', 'rejoin node-4', 'latch rejoined:node-4#1']);
  });

  it('a cut that fails is logged and leaves the node not isolated: it may be isolated again, as its first round', async () => {
    const { isolation, log, fakes, latch } = isolationOf(['node-4']);
    const onCut = vi.fn();
    isolation.isolate('node-4', onCut);
    (await fakes['node-4']!.cutAt(0)).reject(new Error('nft: no such table'));
    await vi.waitFor(() => expect(onCut).toHaveBeenCalledTimes(1)); // the plan's worker goes on all the same
    expect(log).toEqual(['log: isolating node-4: nft: no such table']);
    expect(isolation.rejoin('node-4')).toBe('node-4 is not isolated');
    const first = latch('isolated:node-4#1');
    isolation.isolate('node-4');
    (await fakes['node-4']!.cutAt(1)).resolve();
    await first;
  });

  it("with ms, rejoins that long after the cut is made (not after it was asked for); the run's end cancels it", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] });
    const { isolation, log, fakes } = isolationOf(['node-4', 'node-5']);
    isolation.isolate('node-4', () => undefined, 1000);
    await vi.advanceTimersByTimeAsync(5000); // the kernel takes its time: the ms have not started
    expect(log).toEqual([]);
    (await fakes['node-4']!.cutAt(0)).resolve();
    await vi.advanceTimersByTimeAsync(999);
    expect(log).toEqual(['isolation node-4', 'latch isolated:node-4#1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['isolation node-4', 'latch isolated:node-4#1', 'rejoin node-4', 'latch rejoined:node-4#1']);

    isolation.isolate('node-5', () => undefined, 1000);
    (await fakes['node-5']!.cutAt(0)).resolve();
    await vi.advanceTimersByTimeAsync(500);
    isolation.end();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fakes['node-5']!.rejoins()).toBe(0);
    expect(log.slice(4)).toEqual(['isolation node-5', 'latch isolated:node-5#1']);
  });

  it('a rejoin from the page before the planned ms are over is the one rejoin: the plan does not rejoin it again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] });
    const { isolation, log, fakes } = isolationOf(['node-4']);
    isolation.isolate('node-4', () => undefined, 1000);
    (await fakes['node-4']!.cutAt(0)).resolve();
    await vi.advanceTimersByTimeAsync(100);
    expect(isolation.rejoin('node-4')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    expect(isolation.isolate('node-4')).toBeUndefined(); // isolated again, to the run's end
    (await fakes['node-4']!.cutAt(1)).resolve();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fakes['node-4']!.rejoins()).toBe(1);
    expect(log.at(-1)).toBe('latch isolated:node-4#2');
  });
});
