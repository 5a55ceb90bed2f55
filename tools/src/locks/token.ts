// A token unique to one acquisition. Random, so that no other holder (another process,
// another host, this process after a restart) can ever present the same one.
import { randomUUID } from 'node:crypto';

/** A fresh lock token, e.g. "worker-1:6f1c…"; `owner` only makes it readable. */
export function newToken(owner?: string): string {
  return owner ? `${owner}:${randomUUID()}` : randomUUID();
}
