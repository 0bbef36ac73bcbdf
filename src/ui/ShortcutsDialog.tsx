/**
 * The keyboard shortcut list (opened with `?` or the header's Shortcuts
 * button) and the page-wide listener for the app's own keys. None of them is
 * a key an editor needs: `?` only counts outside editors and fields, and
 * Ctrl+S / Ctrl+Enter mean nothing to a text field.
 */
import { useEffect, useState } from 'react';
import { ModalDialog } from './feedback/ModalDialog.tsx';
import { compactFromKeyboard, modifierName, requestCopyLink } from './shortcuts.ts';

/** True when a key typed there is text: fields, editors, anything editable. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest(
      'input, textarea, select, [contenteditable=""], [contenteditable="true"], .monaco-editor',
    ) !== null
  );
}

function ShortcutList() {
  const mod = modifierName();
  const rows: readonly [string, string][] = [
    ['?', 'Show this list (outside the editors)'],
    [`${mod}+S`, 'Copy a link to this state'],
    [`${mod}+Enter`, 'Compact: append the previewed compactions'],
    ['Tab / Shift+Tab', 'Leave an editor (it never inserts a tab)'],
    [`${mod}+] / ${mod}+[`, 'Indent / outdent in an editor'],
    ['F8 / Shift+F8', 'Next / previous problem in an editor'],
    ['Alt+F1', "An editor's accessibility help"],
    ['Escape', 'Close a dialog or menu'],
  ];
  return (
    <table className="cp-table shortcut-table">
      <thead>
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Does</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([keys, does]) => (
          <tr key={keys}>
            <td>
              <kbd>{keys}</kbd>
            </td>
            <td>{does}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The header's Shortcuts button, its dialog, and the page's key listener. */
export function ShortcutsButton() {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // An editor that handled the key (its own command included) has said so.
      if (event.defaultPrevented) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        requestCopyLink();
      } else if (mod && !event.altKey && event.key === 'Enter') {
        event.preventDefault();
        compactFromKeyboard();
      } else if (event.key === '?' && !mod && !event.altKey && !isTypingTarget(event.target)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="?"
        title="Keyboard shortcuts (?)"
      >
        Shortcuts
      </button>
      {open ? (
        <ModalDialog title="Keyboard shortcuts" onClose={() => setOpen(false)}>
          <ShortcutList />
        </ModalDialog>
      ) : null}
    </>
  );
}
