// One colour per worker lane, readable on the dark theme; shapes and words carry the
// meaning, colour only tells lanes apart. Each is a custom property with the dark theme's
// colour as fallback, so a theme (high contrast) can set darker, saturated ones.
const PALETTE = ['#5aa9ff', '#f5b041', '#b28dff', '#34d1bf', '#ff7eb6', '#a6e05a', '#ff9f5a', '#7fd4ff'];

export function workerColor(index: number): string {
  if (index < 0) return 'var(--worker-none, #8a93a6)';
  const slot = index % PALETTE.length;
  return `var(--worker-${slot}, ${PALETTE[slot]})`;
}
