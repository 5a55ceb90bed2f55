// Every shortcut, by group, in a modal dialog opened with ? and closed with Esc.
import { useEffect, useRef } from 'react';
import { SHORTCUTS, type Shortcut } from '../../app/shortcutTable.js';
import { useStore } from '../../store/index.js';

const groups: Shortcut['group'][] = ['Run', 'Choose', 'Faults', 'Timeline', 'Present'];

export function ShortcutsDialog() {
  const open = useStore((s) => s.helpOpen);
  const setHelpOpen = useStore((s) => s.setHelpOpen);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setHelpOpen(false)}>
      <div className="dialog-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" onClick={() => setHelpOpen(false)}>
          Close
        </button>
      </div>
      <div className="shortcut-groups">
        {groups.map((g) => (
          <section key={g} aria-label={g}>
            <h3>{g}</h3>
            <dl>
              {SHORTCUTS.filter((s) => s.group === g).map((s) => (
                <div key={s.id} className="shortcut">
                  <dt>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && ' or '}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  );
}
