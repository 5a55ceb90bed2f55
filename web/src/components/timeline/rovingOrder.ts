// Where an arrow key takes the focus among the timeline's marks, from their boxes alone
// (pure: the hook measures, this decides). A row is a lane, the holders row or a store
// row; within a row marks go by time (left to right), between rows to the nearest in time.

export interface MarkBox {
  row: number;
  /** Horizontal centre, px. */
  x: number;
}

export type RovingKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

export const ROVING_KEYS: ReadonlySet<string> = new Set<RovingKey>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/** Indices of a row's marks, left to right (ties keep their order). */
function rowOrder(marks: readonly MarkBox[], row: number): number[] {
  return marks
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.row === row)
    .sort((a, b) => a.m.x - b.m.x || a.i - b.i)
    .map(({ i }) => i);
}

/** The index of the mark the key moves to from `from`, or `from` when there is none that way. */
export function nextMark(marks: readonly MarkBox[], from: number, key: RovingKey): number {
  const here = marks[from];
  if (!here) return marks.length > 0 ? 0 : -1;
  const inRow = rowOrder(marks, here.row);
  const at = inRow.indexOf(from);
  switch (key) {
    case 'ArrowLeft':
      return inRow[at - 1] ?? from;
    case 'ArrowRight':
      return inRow[at + 1] ?? from;
    case 'Home':
      return inRow[0] ?? from;
    case 'End':
      return inRow[inRow.length - 1] ?? from;
    case 'ArrowUp':
    case 'ArrowDown': {
      const rows = [...new Set(marks.map((m) => m.row))].sort((a, b) => a - b);
      const r = rows.indexOf(here.row) + (key === 'ArrowDown' ? 1 : -1);
      const target = rows[r];
      if (target === undefined) return from;
      let best = from;
      let bestDx = Infinity;
      for (const i of rowOrder(marks, target)) {
        const dx = Math.abs(marks[i]!.x - here.x);
        if (dx < bestDx) {
          best = i;
          bestDx = dx;
        }
      }
      return best;
    }
  }
}

/** The mark a fresh visit starts on: the earliest in the first row that has any. */
export function firstMark(marks: readonly MarkBox[]): number {
  if (marks.length === 0) return -1;
  const top = Math.min(...marks.map((m) => m.row));
  return rowOrder(marks, top)[0] ?? 0;
}
