import { describe, expect, it } from 'vitest';
import { abortable } from './abortable.js';

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('abortable', () => {
  it('settles as the promise does while the signal has not aborted', async () => {
    const ok = deferred<number>();
    const waiting = abortable(ok.promise, new AbortController().signal);
    ok.resolve(7);
    expect(await waiting).toBe(7);
    const bad = deferred<number>();
    const failing = abortable(bad.promise, new AbortController().signal);
    bad.reject('not an Error');
    await expect(failing).rejects.toThrow('not an Error');
  });

  it('rejects with the reason as soon as the signal aborts, before the promise settles', async () => {
    const step = deferred<number>();
    const controller = new AbortController();
    const waiting = abortable(step.promise, controller.signal);
    controller.abort(new Error('cancelled from the page'));
    await expect(waiting).rejects.toThrow('cancelled from the page');
    step.resolve(1); // delivered late: nothing happens to the caller
    expect(await step.promise).toBe(1);
  });

  it('rejects at once when the signal has aborted already, and a late rejection is handled', async () => {
    const step = deferred<number>();
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const waiting = abortable(step.promise, controller.signal);
    await expect(waiting).rejects.toThrow('too late');
    let unhandled = 0;
    const count = (): void => void unhandled++;
    process.on('unhandledRejection', count);
    step.reject(new Error('the step failed after all'));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', count);
    expect(unhandled).toBe(0);
  });
});
