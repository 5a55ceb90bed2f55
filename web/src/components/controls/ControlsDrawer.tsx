// The controls (scenario, variants and libraries, parameters, breakpoints, speed, compare,
// recordings): a column beside the stage on a wide screen; on a narrow one (a phone, a
// small window) a drawer one tap away, so that the first screen is the race, not the form.
// The drawer is a modal dialog while open: the focus moves in, Tab stays inside, Escape or
// a tap outside closes it, and the focus goes back to the button that opened it. A run
// that starts closes it: the timeline is what to look at then.
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { create } from 'zustand';
import { useStore } from '../../store/index.js';

interface DrawerState {
  open: boolean;
  setOpen(open: boolean): void;
}

/** Whether the drawer is open: its own small store, shared by the drawer and its opener. */
export const useDrawer = create<DrawerState>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

export const DRAWER_ID = 'controls';

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside the drawer, in order: enabled and laid out. */
function focusablesIn(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (f) => !f.matches(':disabled') && f.getClientRects().length > 0 && !(f instanceof HTMLInputElement && f.type === 'radio' && !f.checked),
  );
}

/** Closes the drawer when a run is asked for. */
function useCloseOnRun(): void {
  useEffect(
    () =>
      useStore.subscribe((s, before) => {
        if (before.pending.length === 0 && s.pending.length > 0 && useDrawer.getState().open) useDrawer.getState().setOpen(false);
      }),
    [],
  );
}

/** Moves the focus into the drawer as it opens and back to its opener as it closes. */
function useFocusHandOver(panel: RefObject<HTMLElement | null>, open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!open) return;
    const el = panel.current;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    el?.querySelector<HTMLElement>('.drawer-close')?.focus();
    return () => {
      // Back to the opener, unless the focus went somewhere on purpose meanwhile.
      const active = document.activeElement;
      if (!active || active === document.body || el?.contains(active)) opener.current?.focus();
    };
  }, [open, panel]);
}

export function ControlsDrawer({ drawer, children }: { drawer: boolean; children: ReactNode }) {
  const open = useDrawer((s) => s.open) && drawer;
  const setOpen = useDrawer((s) => s.setOpen);
  const panel = useRef<HTMLElement>(null);
  useCloseOnRun();
  useFocusHandOver(panel, open);
  // Widened past the drawer's layout (a phone turned on its side): nothing stays open.
  useEffect(() => {
    if (!drawer) setOpen(false);
  }, [drawer, setOpen]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!open) return;
    if (e.key === 'Escape') {
      // Handled here: the page's own Escape (clearing the playhead) does not act as well.
      e.preventDefault();
      setOpen(false);
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const all = focusablesIn(panel.current);
    const first = all[0];
    const last = all[all.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <>
      <aside
        id={DRAWER_ID}
        ref={panel}
        className={`controls${drawer ? ' drawer' : ''}${open ? ' open' : ''}`}
        aria-label="Controls"
        role={open ? 'dialog' : undefined}
        aria-modal={open ? true : undefined}
        onKeyDown={onKeyDown}
      >
        {drawer && (
          <div className="drawer-head">
            <h2>Setup</h2>
            <button type="button" className="drawer-close" aria-label="Close the setup" title="Close (Esc)" onClick={() => setOpen(false)}>
              ✕
            </button>
          </div>
        )}
        {children}
      </aside>
      {open && <div className="drawer-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
    </>
  );
}
