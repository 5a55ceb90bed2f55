// Every scenario takes a library's lock once: a container that does not get it skips the job.
// Each library spells that single try its own way; what the adapters share of it is here.

/** Redlock's settings for a single attempt, of acquire and release alike (both Redlock clients read them): no retries. */
export const REDLOCK_ONE_TRY = { retryCount: 0 };

/** The lock `attempt` resolves to; null when it rejects with `Refused`, the library's error for a lock another holds. */
export async function nullIfRefused<Lock>(attempt: Promise<Lock>, Refused: abstract new (...args: never[]) => Error): Promise<Lock | null> {
  try {
    return await attempt;
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
}
