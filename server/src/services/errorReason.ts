/** A short, single-line reason for a failed attempt: the error code (e.g. ECONNREFUSED) or first message line. */
export function errorReason(err: unknown): string {
  if (err && typeof err === 'object') {
    const { code, message } = err as { code?: unknown; message?: unknown };
    // Node's happy-eyeballs connect throws an AggregateError with an empty message but a code.
    if (typeof code === 'string' && code) return code;
    if (typeof message === 'string' && message) return firstLine(message);
  }
  return firstLine(String(err)) || 'unknown error';
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
