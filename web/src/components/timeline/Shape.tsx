// A shape of the timeline: a plain div that, for runs a person can follow, fades (and
// pops) in. The entrance is a CSS animation (timeline.css): it keeps no state per shape,
// and past a few thousand events it is just a class left off, so the shapes on screen are
// neither re-created nor animated again. Each animating shape is a layer of its own while
// it animates, so only a bounded number animate at once: a burst of shapes (a live run at
// a high rate, a redraw after a zoom) comes in without them.
import { createContext, forwardRef, useContext, useState, type HTMLAttributes } from 'react';

export const ENTRANCE_BUDGET_EVENTS = 2000;

export const EntranceContext = createContext(true);

/**
 * Entrances at most at once (started within the last ENTRANCE_MS). A run a person follows
 * brings a few shapes at a time; a burst (thousands of events a second) would otherwise
 * keep this many layers animating, each composited on its own, in every frame.
 */
const ENTRANCES_AT_ONCE = 8;
/** Longest entrance (timeline.css), in ms. */
const ENTRANCE_MS = 300;
const started: number[] = [];

/** True when one more entrance fits in the budget now (and counts it). */
function takeEntrance(now = performance.now()): boolean {
  while (started.length > 0 && now - started[0]! > ENTRANCE_MS) started.shift();
  if (started.length >= ENTRANCES_AT_ONCE) return false;
  started.push(now);
  return true;
}

type Props = HTMLAttributes<HTMLDivElement> & {
  /** How the shape comes in: fades, or fades while growing from small (marks). */
  enter: 'fade' | 'pop';
};

export const Shape = forwardRef<HTMLDivElement, Props>(function Shape({ enter, className, ...rest }, ref) {
  const animated = useContext(EntranceContext);
  // Decided once, when the shape appears: a later render never starts an entrance.
  const [enters] = useState(() => animated && takeEntrance());
  return <div ref={ref} className={enters && animated ? `${className ?? ''} enter-${enter}` : className} {...rest} />;
});
