// Presenter mode (large type, high contrast, the stage only), the theme, and the list of
// shortcuts: for a speaker on a stage with a projector.
import { useStore } from '../../store/index.js';

export function PresentControls() {
  const presenter = useStore((s) => s.presenter);
  const theme = useStore((s) => s.theme);
  const setPresenter = useStore((s) => s.setPresenter);
  const setTheme = useStore((s) => s.setTheme);
  const setHelpOpen = useStore((s) => s.setHelpOpen);
  return (
    <div className="present-controls" role="toolbar" aria-label="Presenting">
      <button type="button" aria-pressed={presenter} title="Large type and high contrast for a projector (P)" onClick={() => setPresenter(!presenter)}>
        Presenter mode
      </button>
      <button type="button" aria-pressed={theme === 'light'} title="Light theme, for bright rooms (T)" onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}>
        Light theme
      </button>
      <button type="button" aria-haspopup="dialog" title="Keyboard shortcuts (?)" onClick={() => setHelpOpen(true)}>
        Keyboard shortcuts
      </button>
    </div>
  );
}
