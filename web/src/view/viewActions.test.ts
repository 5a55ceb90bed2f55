import { beforeEach, describe, expect, it } from 'vitest';
import { currentView, panMs, zoomNow } from './viewActions.js';
import { viewStore } from './viewStore.js';

describe('view actions', () => {
  beforeEach(() => {
    viewStore.getState().reset();
    viewStore.getState().setBounds({ startMs: 0, endMs: 1000 });
  });

  it('zooms from the whole run around an anchor, and back to the whole run', () => {
    expect(currentView()).toEqual({ startMs: 0, endMs: 1000 });
    zoomNow(4, 500);
    expect(viewStore.getState().window).toEqual({ startMs: 375, endMs: 625 });
    zoomNow(0.1, 500);
    expect(viewStore.getState().window).toBeNull(); // the whole run again: fitted, following
  });

  it('pans a zoomed view; panning back in time stops following the live edge', () => {
    panMs(100);
    expect(viewStore.getState().window).toBeNull(); // nothing to pan when all is in view
    zoomNow(4, 500);
    panMs(-100);
    expect(viewStore.getState().window).toEqual({ startMs: 275, endMs: 525 });
    expect(viewStore.getState().follow).toBe(false);
  });

  it('keeps a zoomed window inside bounds that shrink when a run ends', () => {
    zoomNow(4, 900);
    viewStore.getState().setBounds({ startMs: 0, endMs: 800 });
    expect(viewStore.getState().window).toEqual({ startMs: 550, endMs: 800 });
  });
});
