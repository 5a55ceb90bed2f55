// The page's icons as SVG path data (a 24 × 24 box, drawn with a round 2.5 px stroke), the
// same on the page and in the SVG export: no icon depends on a font having the glyph (a
// stock Debian Chromium has no ⏸ or ☠).
import type { MarkKind } from './marks.js';

export type IconName =
  | 'check'
  | 'cross'
  | 'ban'
  | 'skull'
  | 'alert'
  | 'eject'
  | 'stop'
  | 'play'
  | 'pause'
  | 'diamond'
  | 'info'
  | 'read'
  | 'reply'
  | 'reply-refused'
  | 'retry'
  | 'warning'
  | 'dot'
  | 'clock'
  | 'hourglass';

export interface IconShape {
  d: string;
  /** Filled, not stroked. */
  fill?: boolean;
}

const RING = 'M21 12a9 9 0 1 1-18 0a9 9 0 1 1 18 0Z';

export const ICONS: Record<IconName, IconShape> = {
  check: { d: 'M5 12.5l4.5 4.5L19 7.5' },
  cross: { d: 'M6.5 6.5l11 11M17.5 6.5l-11 11' },
  ban: { d: `${RING}M5.6 5.6l12.8 12.8` },
  skull: {
    d: 'M12 3c-4.4 0-8 3.1-8 7.2c0 2.4 1.2 4.2 3 5.3V19h10v-3.5c1.8-1.1 3-2.9 3-5.3C20 6.1 16.4 3 12 3ZM9 11h.01M15 11h.01M10 19v2M14 19v2',
  },
  alert: { d: 'M12 5v9M12 18.5v.5' },
  eject: { d: 'M6 14l6-8l6 8ZM6 18.5h12' },
  stop: { d: 'M7 7h10v10H7Z', fill: true },
  play: { d: 'M8 5l11 7l-11 7Z', fill: true },
  pause: { d: 'M8.5 5v14M15.5 5v14' },
  diamond: { d: 'M12 4l8 8l-8 8l-8-8Z' },
  info: { d: 'M12 11v7M12 6.5v.5' },
  read: { d: 'M12 4v11M7 10l5 5l5-5M5 20h14' },
  reply: { d: 'M10 6l-5 5l5 5M5 11h9a5 5 0 0 1 5 5v2' },
  'reply-refused': { d: 'M9 5l-5 5l5 5M4 10h8M14 13l7 7M21 13l-7 7' },
  retry: { d: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5' },
  warning: { d: 'M12 3.5l9.5 17h-19ZM12 10v5M12 18v.5' },
  dot: { d: 'M12 12h.01' },
  clock: { d: `${RING}M12 7v5l3.5 2` },
  hourglass: { d: 'M6 3h12M6 21h12M7.5 3c0 5 9 5 9 9s-9 4-9 9M16.5 3c0 5-9 5-9 9s9 4 9 9' },
};

/** The icon of each kind of mark. */
export const MARK_ICONS: Record<MarkKind, IconName> = {
  'write-accepted': 'check',
  'write-rejected': 'cross',
  skip: 'ban',
  death: 'skull',
  'blind-delete': 'alert',
  release: 'eject',
  exit: 'stop',
  fired: 'play',
  checkpoint: 'diamond',
  note: 'info',
  clock: 'clock',
  read: 'read',
  'call-ok': 'reply',
  'call-failed': 'reply-refused',
  retry: 'retry',
};
