// Zoom and pan from buttons (the same as + − 0 and the arrow keys), and whether the view
// follows a live run.
import { useStore } from 'zustand';
import { fitView, panFraction, zoomBy } from '../../view/viewActions.js';
import { viewStore } from '../../view/viewStore.js';
import { ToggleButton } from '../controls/ToggleButton.js';

export function ZoomControls() {
  const whole = useStore(viewStore, (s) => s.window === null);
  const follow = useStore(viewStore, (s) => s.follow);
  return (
    <div className="zoom-controls" role="toolbar" aria-label="Zoom">
      <button type="button" aria-label="Zoom in" title="Zoom in (+, or the wheel over the timeline)" onClick={() => zoomBy(2)}>
        +
      </button>
      <button type="button" aria-label="Zoom out" title="Zoom out (−)" disabled={whole} onClick={() => zoomBy(0.5)}>
        −
      </button>
      <button type="button" aria-label="Pan left" title="Pan left (←, or drag)" disabled={whole} onClick={() => panFraction(-0.25)}>
        ←
      </button>
      <button type="button" aria-label="Pan right" title="Pan right (→, or drag)" disabled={whole} onClick={() => panFraction(0.25)}>
        →
      </button>
      <button type="button" aria-label="Show the whole run" title="Show the whole run (0)" disabled={whole} onClick={() => fitView()}>
        fit
      </button>
      <ToggleButton
        pressed={follow}
        onChange={(on) => viewStore.getState().setFollow(on)}
        title="Keep the live edge in view while a run is in progress (L)"
      >
        follow live
      </ToggleButton>
    </div>
  );
}
