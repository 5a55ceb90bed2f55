// Reconnect delays: quick at first, doubling up to a ceiling, with jitter so that many
// pages do not knock on a restarted server at the same instant.

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_MAX_MS = 5000;

/** Delay before reconnect attempt `attempt` (0-based); `random` in [0, 1). */
export function backoffDelay(attempt: number, random: number = Math.random()): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
