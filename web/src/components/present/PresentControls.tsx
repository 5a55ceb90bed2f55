// Presenter mode (the stage only, fitted to the screen, in large type), the themes (a
// high-contrast one for washed-out projectors), and the list of shortcuts.
import { useStore } from '../../store/index.js';
import type { Theme } from '../../store/types.js';
import { ToggleButton } from '../controls/ToggleButton.js';

/** The themes besides the dark one: each button turns its theme on, or back to dark. */
const THEMES: { theme: Theme; label: string; title: string }[] = [
  { theme: 'light', label: 'Light theme', title: 'Light theme, for bright rooms (T)' },
  { theme: 'contrast', label: 'High contrast', title: 'Black on white with strong colours, for a washed-out projector (H)' },
];

export function PresentControls() {
  const presenter = useStore((s) => s.presenter);
  const theme = useStore((s) => s.theme);
  const setPresenter = useStore((s) => s.setPresenter);
  const setTheme = useStore((s) => s.setTheme);
  const setHelpOpen = useStore((s) => s.setHelpOpen);
  return (
    <div className="present-controls" role="toolbar" aria-label="Presenting">
      <ToggleButton pressed={presenter} onChange={setPresenter} title="The stage only, in large type, fitted to the screen (P)">
        Presenter mode
      </ToggleButton>
      {THEMES.map((t) => (
        <ToggleButton key={t.theme} pressed={theme === t.theme} onChange={(on) => setTheme(on ? t.theme : 'dark')} title={t.title}>
          {t.label}
        </ToggleButton>
      ))}
      <button type="button" aria-haspopup="dialog" title="Keyboard shortcuts (?)" onClick={() => setHelpOpen(true)}>
        Keyboard shortcuts
      </button>
    </div>
  );
}
