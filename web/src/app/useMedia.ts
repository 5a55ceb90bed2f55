// Whether a media query matches, as React state that follows the window (a phone turned on
// its side, a window made narrower): one listener per query's list, no polling.
import { useSyncExternalStore } from 'react';

/** True while `query` matches; false where there is no window to ask. */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => matchMedia(query).matches,
    () => false,
  );
}
