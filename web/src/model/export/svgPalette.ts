// Colours of the exported timeline, the same as the page's themes.
import type { MarkKind } from '../marks.js';

export interface Palette {
  bg: string;
  panel2: string;
  text: string;
  muted: string;
  border: string;
  broken: string;
  brokenBg: string;
  correct: string;
}

const DARK: Palette = {
  bg: '#0d1016',
  panel2: '#1b2130',
  text: '#e8ebf2',
  muted: '#a3adc2',
  border: '#2b3345',
  broken: '#ff6b6b',
  brokenBg: 'rgba(255,107,107,0.14)',
  correct: '#4ade80',
};

const LIGHT: Palette = {
  bg: '#ffffff',
  panel2: '#eef1f6',
  text: '#111827',
  muted: '#4b5563',
  border: '#cbd2de',
  broken: '#c81e1e',
  brokenBg: 'rgba(200,30,30,0.10)',
  correct: '#12803a',
};

export const paletteOf = (theme: 'dark' | 'light'): Palette => (theme === 'light' ? LIGHT : DARK);

const WORKERS = ['#5aa9ff', '#f5b041', '#b28dff', '#34d1bf', '#ff7eb6', '#a6e05a', '#ff9f5a', '#7fd4ff'];

export function workerColorOf(index: number): string {
  if (index < 0) return '#8a93a6';
  return WORKERS[index % WORKERS.length]!;
}

export const MARK_COLORS: Partial<Record<MarkKind, string>> = {
  'write-accepted': '#22c55e',
  'write-rejected': '#f59e0b',
  skip: '#94a3b8',
  death: '#ff6b6b',
  'blind-delete': '#f97316',
  read: '#38bdf8',
  'call-ok': '#a78bfa',
  'call-failed': '#ff6b6b',
  clock: '#e2e8f0',
};
