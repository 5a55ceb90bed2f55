// Wheel and drag on the timeline's tracks: the wheel zooms around the pointer (shift or a
// sideways wheel pans), a drag pans, a click on the time axis puts the playhead there.
// Over the label column the wheel scrolls the page as usual.
import { useEffect, type RefObject } from 'react';
import { xToTime, makeScale } from '../../model/timeScale.js';
import { spanOf, wheelFactor } from '../../model/viewport.js';
import { currentView, panMs, setPlayhead, zoomNow } from '../../view/viewActions.js';
import { viewStore } from '../../view/viewStore.js';
import { listen } from './listen.js';

/** A drag shorter than this is a click, in px. */
const CLICK_PX = 4;

export function usePointerZoom(body: RefObject<HTMLElement | null>, axisTrack: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const trackRect = () => axisTrack.current?.getBoundingClientRect() ?? null;
    const timeAt = (clientX: number): { ms: number; inside: boolean } | null => {
      const r = trackRect();
      if (!r || r.width <= 0) return null;
      const frac = (clientX - r.left) / r.width;
      const view = currentView();
      return { ms: xToTime(frac * 100, makeScale(view.startMs, view.endMs)), inside: frac >= 0 && frac <= 1 };
    };

    const onWheel = (e: WheelEvent) => {
      const at = timeAt(e.clientX);
      if (!at?.inside) return;
      e.preventDefault();
      const sideways = Math.abs(e.deltaX) > Math.abs(e.deltaY);
      if (e.shiftKey || sideways) {
        const r = trackRect()!;
        const px = sideways ? e.deltaX : e.deltaY;
        panMs((px / r.width) * spanOf(currentView()));
        return;
      }
      zoomNow(wheelFactor(e.deltaY, e.deltaMode), at.ms);
    };

    let drag: { id: number; x: number; startX: number; moved: boolean; onAxis: boolean } | null = null;
    const onDown = (e: PointerEvent) => {
      if (e.button !== 0 || (e.target as Element).closest('button, input, select, a, [role="dialog"]')) return;
      const at = timeAt(e.clientX);
      if (!at?.inside) return;
      const onAxis = !!axisTrack.current?.parentElement?.contains(e.target as Node);
      drag = { id: e.pointerId, x: e.clientX, startX: e.clientX, moved: false, onAxis };
    };
    const onMove = (e: PointerEvent) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (!drag.moved && Math.abs(e.clientX - drag.startX) < CLICK_PX) return;
      if (!drag.moved) {
        drag.moved = true;
        try {
          el.setPointerCapture(e.pointerId);
        } catch {
          // A synthetic pointer (a benchmark's) cannot be captured; the drag works without.
        }
        el.classList.add('dragging');
      }
      const r = trackRect();
      if (r && viewStore.getState().window) panMs((-(e.clientX - drag.x) / r.width) * spanOf(currentView()));
      drag.x = e.clientX;
    };
    const onUp = (e: PointerEvent) => {
      if (!drag || e.pointerId !== drag.id) return;
      const { moved, onAxis } = drag;
      drag = null;
      el.classList.remove('dragging');
      if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
      if (!moved && onAxis) {
        const at = timeAt(e.clientX);
        if (at?.inside) setPlayhead(Math.max(0, at.ms));
      }
    };
    // Not passive: the wheel zooms instead of scrolling the page (the pointer events are never passive).
    return listen(
      el,
      { wheel: onWheel, pointerdown: onDown, pointermove: onMove, pointerup: onUp, pointercancel: onUp },
      { passive: false },
    );
  }, [body, axisTrack]);
}
