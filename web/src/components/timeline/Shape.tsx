// A shape of the timeline: a plain div, or, for runs a person can follow, a framer-motion
// div that fades (and pops) in. Past a few thousand events entrances would cost frames
// (each motion div carries its own animation state), so shapes are plain divs then.
import { m, type TargetAndTransition, type Transition } from 'framer-motion';
import { createContext, forwardRef, useContext, type HTMLAttributes } from 'react';

export const ENTRANCE_BUDGET_EVENTS = 2000;

export const EntranceContext = createContext(true);

type Props = HTMLAttributes<HTMLDivElement> & {
  /** Where the entrance starts, e.g. { opacity: 0, scale: 0.4 }; it ends at 1 for each. */
  enter: Record<string, number>;
  transition?: Transition;
};

export const Shape = forwardRef<HTMLDivElement, Props>(function Shape({ enter, transition, ...rest }, ref) {
  const animated = useContext(EntranceContext);
  if (!animated) return <div ref={ref} {...rest} />;
  const to: TargetAndTransition = Object.fromEntries(Object.keys(enter).map((k) => [k, 1]));
  const { onAnimationStart: _a, onDragStart: _b, onDragEnd: _c, onDrag: _d, ...motionSafe } = rest;
  return <m.div ref={ref} initial={enter} animate={to} transition={transition ?? { duration: 0.2 }} {...motionSafe} />;
});
