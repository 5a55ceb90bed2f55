// The listeners an effect adds to an element, named once: the function returned removes
// them all, and is the effect's clean-up.
type Handlers = { [K in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[K]) => void };

/** Adds each handler to `el` (with `options`); returns what removes them all. */
export function listen(el: HTMLElement, handlers: Handlers, options?: AddEventListenerOptions): () => void {
  const listening = new AbortController();
  for (const [type, handler] of Object.entries(handlers))
    el.addEventListener(type, handler as EventListener, { ...options, signal: listening.signal });
  return () => listening.abort();
}
