// A start's place in line in words: "4th in line, about 6 s".

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** "4th in line, about 6 s": the estimate in whole seconds, at least 1; minutes past 90 s. */
export function inLineWords(position: number, estimateMs: number): string {
  const s = Math.max(1, Math.round(estimateMs / 1000));
  const about = s > 90 ? `about ${Math.round(s / 60)} min` : `about ${s} s`;
  return `${ordinal(position)} in line, ${about}`;
}
