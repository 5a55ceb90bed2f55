// Presenter mode (the stage only, fitted to the screen, in large type), the themes (a
// high-contrast one for washed-out projectors), and the list of shortcuts.
import { useStore } from '../../store/index.js';

export function PresentControls() {
  const presenter = useStore((s) => s.presenter);
  const theme = useStore((s) => s.theme);
  const setPresenter = useStore((s) => s.setPresenter);
  const setTheme = useStore((s) => s.setTheme);
  const setHelpOpen = useStore((s) => s.setHelpOpen);
  return (
    <div className="present-controls" role="toolbar" aria-label="Presenting">
      <button
        type="button"
        aria-pressed={presenter}
        title="The stage only, in large type, fitted to the screen (P)"
        onClick={() => setPresenter(!presenter)}
      >
        Presenter mode
      </button>
      <button
        type="button"
        aria-pressed={theme === 'light'}
        title="Light theme, for bright rooms (T)"
        onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}
      >
        Light theme
      </button>
      <button
        type="button"
        aria-pressed={theme === 'contrast'}
        title="Black on white with strong colours, for a washed-out projector (H)"
        onClick={() => setTheme(theme === 'contrast' ? 'dark' : 'contrast')}
      >
        High contrast
      </button>
      <button type="button" aria-haspopup="dialog" title="Keyboard shortcuts (?)" onClick={() => setHelpOpen(true)}>
        Keyboard shortcuts
      </button>
    </div>
  );
}
