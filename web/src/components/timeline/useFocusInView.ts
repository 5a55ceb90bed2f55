// Tab to a mark that is outside the visible window: the view pans to bring it in.
import { useEffect, type RefObject } from 'react';
import { spanOf } from '../../model/viewport.js';
import { currentView, panMs } from '../../view/viewActions.js';
import { listen } from './listen.js';

export function useFocusInView(body: RefObject<HTMLElement | null>, axisTrack: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const onFocus = (e: FocusEvent) => {
      const target = e.target as HTMLElement;
      const track = axisTrack.current?.getBoundingClientRect();
      if (!track || !target.closest('.tl-content')) return;
      const r = target.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const margin = track.width * 0.1;
      const dx = x < track.left ? x - track.left - margin : x > track.right ? x - track.right + margin : 0;
      if (dx !== 0) panMs((dx / track.width) * spanOf(currentView()));
    };
    return listen(el, { focusin: onFocus });
  }, [body, axisTrack]);
}
