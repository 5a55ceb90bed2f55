// How a scorecard cell reads: its word, a tone (colour) and an icon, so that colour is never
// the only sign; and the fair words for what every lease gives under a stall.
import { fairWords, formatParam, LEASE_PROMISE, type CellReading } from '@racelab/shared';
import { ruleWords } from '../../model/faultPlan.js';
import type { IconName } from '../../model/icons.js';

export type CellTone = 'correct' | 'by-design' | 'failed' | 'not-applicable';

export interface CellLook {
  tone: CellTone;
  icon: IconName;
  /** The verdict word. */
  words: string;
  /** For what any lock of its kind gives, docs/LIBRARIES.md's fair words and what a lease promises. */
  fair?: string;
}

/** What a lease promises, said wherever a cell shows what every lease gives. */
export const FAIR_WORDS = LEASE_PROMISE;

/** The scenario that shows why a lease alone lets a stale write land, and its shipped recording. */
export const WHY_LEASES_NEED_FENCING = { scenario: 'fencing', variant: 'lease-only', recording: 'fencing-lease-only.json' } as const;

export function cellLook(cell: CellReading): CellLook {
  if (cell.verdict === 'correct') return { tone: 'correct', icon: 'check', words: 'correct' };
  if (cell.verdict === 'does not apply' || cell.verdict === 'not staged')
    return { tone: 'not-applicable', icon: 'ban', words: cell.verdict };
  const fair = fairWords(cell);
  if (fair)
    return {
      tone: 'by-design',
      icon: 'warning',
      words: cell.verdict,
      fair: fair.includes(LEASE_PROMISE) ? fair : `${fair}: a lease ${LEASE_PROMISE}`,
    };
  return { tone: 'failed', icon: 'cross', words: cell.verdict };
}

/** The parameters and fault plan a cell was seen at, in words: "workers 3 · leaseMs 2000 …; worker-1 stalls 2500 ms (SIGSTOP) at working". */
export function seenAtWords(cell: CellReading): string | null {
  if (!cell.seenAt) return null;
  const params = Object.entries(cell.seenAt.params).map(([name, value]) => `${name} ${formatParam(value)}`);
  const plan = cell.seenAt.faults.map(ruleWords);
  return [params.join(' · '), ...plan].filter(Boolean).join('; ');
}
