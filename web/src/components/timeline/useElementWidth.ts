import { useLayoutEffect, useState, type RefObject } from 'react';

/** The element's width in px, kept current by a ResizeObserver (a render per resize only). */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback = 1000): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || fallback);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width) || fallback);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, fallback]);
  return width;
}
