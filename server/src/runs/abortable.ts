// An awaited step that a cancel must not wait for: the step goes on (what it delivers
// later is cleaned up by whoever started it), the caller stops waiting at once.

/** Settles as `promise` does, unless `signal` aborts first: then rejects at once with the signal's reason. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    // Always subscribed, even when aborted already: a late rejection is never unhandled.
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
