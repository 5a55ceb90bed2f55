// A button that turns one thing on and off. Its state is aria-pressed: what a screen reader
// says, and what the stylesheet draws (pressed, a toggle takes the accent colour).
import type { ReactNode } from 'react';

interface Props {
  pressed: boolean;
  /** Called with the state a click asks for: the opposite of `pressed`. */
  onChange: (pressed: boolean) => void;
  /** What it does, and its key. */
  title: string;
  className?: string;
  children: ReactNode;
}

export function ToggleButton({ pressed, onChange, title, className, children }: Props) {
  return (
    <button
      type="button"
      className={`toggle${className ? ` ${className}` : ''}`}
      aria-pressed={pressed}
      title={title}
      onClick={() => onChange(!pressed)}
    >
      {children}
    </button>
  );
}
