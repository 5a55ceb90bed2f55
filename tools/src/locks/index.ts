// racelab's correct Redis lock, one operation a file: SET NX PX to acquire, Lua
// compare-and-delete to release, Lua compare-and-extend to renew. A lock is a lease:
// a holder that outlives it has lost the lock, and release/extend say so (false).
export { acquire, type AcquireOptions } from './acquire.js';
export { extend } from './extend.js';
export type { Lock } from './lock.js';
export { release } from './release.js';
export { newToken } from './token.js';
