// A lock module of the user's own, checked by the server the page came from: only a server
// started with --allow-own-locks runs one; a page served from static files has none at all.
import { CHECK_LOCK_PATH, OWN_LOCK_MAX_BYTES, OWN_LOCKS_PATH, OwnLockChecked, OwnLockError, OwnLocksStatus } from '@racelab/shared';
import { pageUrl } from './pageUrl.js';
import { isSite } from './siteMode.js';

/** Whether the page's server checks uploaded locks: 'allowed', 'off' (started without the flag), or 'no-server'. */
export type OwnLocksOnServer = 'allowed' | 'off' | 'no-server';

export async function ownLocksOnServer(): Promise<OwnLocksOnServer> {
  // The static site has no server by construction: nothing to ask (and no 404 to cause).
  if (isSite()) return 'no-server';
  try {
    const response = await fetch(pageUrl(OWN_LOCKS_PATH), { cache: 'no-store' });
    // A static file server answers with the page itself (or 404): not JSON of this shape.
    const status = OwnLocksStatus.safeParse(response.ok ? await response.json() : null);
    if (!status.success) return 'no-server';
    return status.data.allowed ? 'allowed' : 'off';
  } catch {
    return 'no-server';
  }
}

export type CheckedLock = { ok: true; result: OwnLockChecked } | { ok: false; error: string };

/** Uploads the module's text and waits for the check (every fault: about a minute). */
export async function checkOwnLock(file: File): Promise<CheckedLock> {
  if (file.size > OWN_LOCK_MAX_BYTES) return { ok: false, error: `${file.name} is larger than ${OWN_LOCK_MAX_BYTES / 1024} KB` };
  try {
    const response = await fetch(pageUrl(CHECK_LOCK_PATH), {
      method: 'POST',
      headers: { 'content-type': 'text/javascript' },
      body: await file.text(),
    });
    const body: unknown = await response.json().catch(() => null);
    const checked = OwnLockChecked.safeParse(body);
    if (response.ok && checked.success) return { ok: true, result: checked.data };
    const refused = OwnLockError.safeParse(body);
    return { ok: false, error: refused.success ? refused.data.error : `the server answered HTTP ${response.status}` };
  } catch (e) {
    return { ok: false, error: `the check could not reach the server: ${e instanceof Error ? e.message : String(e)}` };
  }
}
