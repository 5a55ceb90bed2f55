// One colour per worker lane, readable on the dark theme; shapes and words carry the
// meaning, colour only tells lanes apart.
const PALETTE = ['#5aa9ff', '#f5b041', '#b28dff', '#34d1bf', '#ff7eb6', '#a6e05a', '#ff9f5a', '#7fd4ff'];

export function workerColor(index: number): string {
  if (index < 0) return '#8a93a6';
  return PALETTE[index % PALETTE.length] ?? `hsl(${(index * 47) % 360} 70% 65%)`;
}
