// The lease handover shared by the labs where a stalled holder's lease passes on
// (../leaseHandover.ts), on this scenario's lock and fence and the row's log of writes.
import { leaseHandover } from '../leaseHandover.js';
import { WRITES_TABLE } from '../kit/fencedLedger.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';

export const handover = leaseHandover({ lockKey: LOCK_KEY, fenceKey: FENCE_KEY, attemptsTable: WRITES_TABLE, verb: 'writes' });
