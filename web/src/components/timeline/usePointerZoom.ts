// Wheel, drag and pinch on the timeline's tracks: the wheel zooms around the pointer (shift
// or a sideways wheel pans), a drag (a mouse's or a finger's) pans, two fingers pinch-zoom
// around their middle and pan as it moves, a click on the time axis puts the playhead there.
// Over the label column the wheel scrolls the page as usual. A finger's vertical drag is the
// browser's (timeline.css: touch-action pan-y): it scrolls the page or the lanes as ever.
import { useEffect, type RefObject } from 'react';
import { xToTime, makeScale } from '../../model/timeScale.js';
import { spanOf, wheelFactor } from '../../model/viewport.js';
import { currentView, panMs, setPlayhead, zoomNow } from '../../view/viewActions.js';
import { viewStore } from '../../view/viewStore.js';
import { listen } from './listen.js';

/** A drag shorter than this is a click, in px. */
const CLICK_PX = 4;

/** Two fingers on the tracks: how far apart they were, and where their middle was, in px. */
interface Pinch {
  gapPx: number;
  midX: number;
}

function pinchOf(fingers: Map<number, { x: number; y: number }>): Pinch | null {
  const [a, b] = [...fingers.values()];
  if (!a || !b) return null;
  return { gapPx: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), midX: (a.x + b.x) / 2 };
}

/**
 * Moves what is shown by `dx` px of the track: the view when zoomed in; else the lanes' own
 * box, where it is wider than the screen (a phone) and scrolls sideways.
 */
function panPx(el: HTMLElement, dx: number, trackWidth: number): void {
  if (viewStore.getState().window) panMs((-dx / trackWidth) * spanOf(currentView()));
  else {
    const scroller = el.parentElement;
    if (scroller) scroller.scrollLeft -= dx;
  }
}

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
    // The fingers on the tracks (touch pointers), and the pinch while there are two.
    const fingers = new Map<number, { x: number; y: number }>();
    let pinch: Pinch | null = null;
    const onDown = (e: PointerEvent) => {
      if (e.button !== 0 || (e.target as Element).closest('button, input, select, a, [role="dialog"]')) return;
      const at = timeAt(e.clientX);
      if (!at?.inside) return;
      if (e.pointerType === 'touch') {
        fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
        if (fingers.size >= 2) {
          // A second finger: a pinch, not a drag (nor a tap on the axis).
          drag = null;
          el.classList.remove('dragging');
          pinch = pinchOf(fingers);
          return;
        }
      }
      const onAxis = !!axisTrack.current?.parentElement?.contains(e.target as Node);
      drag = { id: e.pointerId, x: e.clientX, startX: e.clientX, moved: false, onAxis };
    };
    const onPinchMove = (e: PointerEvent) => {
      fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const next = pinchOf(fingers);
      const r = trackRect();
      if (!pinch || !next || !r) return;
      const at = timeAt(next.midX);
      if (at) zoomNow(next.gapPx / pinch.gapPx, at.ms);
      panPx(el, next.midX - pinch.midX, r.width);
      pinch = next;
    };
    const onMove = (e: PointerEvent) => {
      if (pinch && fingers.has(e.pointerId)) return onPinchMove(e);
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
      if (r) panPx(el, e.clientX - drag.x, r.width);
      drag.x = e.clientX;
    };
    const onUp = (e: PointerEvent) => {
      if (fingers.delete(e.pointerId) && pinch) {
        // The pinch ends with its first finger up; the one left does not start a drag.
        if (fingers.size < 2) pinch = null;
        return;
      }
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
