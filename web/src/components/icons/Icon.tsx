// An icon drawn inline as SVG (model/icons): the same on every system, whatever its fonts.
import { ICONS, type IconName } from '../../model/icons.js';

export function Icon({ name, className }: { name: IconName; className?: string }) {
  const { d, fill } = ICONS[name];
  return (
    <svg
      className={`icon${className ? ` ${className}` : ''}`}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} fill={fill ? 'currentColor' : 'none'} />
    </svg>
  );
}
