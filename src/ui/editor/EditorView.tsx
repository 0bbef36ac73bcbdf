/**
 * One Monaco editor bound to a store field: the shared part of the config
 * and stream editors (options, theme, diagnostics as markers, registration
 * for "reveal").
 */
import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor/editor';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Diagnostic } from '../../core/types.ts';
import type { EditorId } from '../../state/selectors.ts';
import { compactFromKeyboard, requestCopyLink } from '../shortcuts.ts';
import { registerEditor } from './editor-registry.ts';
import { MARKER_OWNER, toMarkers } from './markers.ts';
import type { CodeEditor, MonacoApi } from './monaco-types.ts';
import { useMonacoTheme, WhenEditorsReady } from './WhenEditorsReady.tsx';

/** Props of an editor view. */
export interface EditorViewProps {
  id: EditorId;
  /** The model URI; the JSON schema is matched against it. */
  path: string;
  language: string;
  /** Also the accessible name of the editor's text area. */
  ariaLabel: string;
  value: string;
  onChange: (value: string) => void;
  diagnostics: readonly Diagnostic[];
  /** Registers languages and providers before the first editor mounts. */
  beforeMount?: (monaco: MonacoApi) => void;
  /**
   * Options on top of the shared ones. Pass a stable object (a module
   * constant or a memo): the wrapper calls `updateOptions` whenever it
   * changes, and on a large model that re-detects indentation and rebuilds
   * the bracket pairs, which blocks the page for a hundred milliseconds.
   */
  options?: editor.IStandaloneEditorConstructionOptions;
}

const BASE_OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  tabSize: 2,
  wordWrap: 'off',
  renderWhitespace: 'none',
  // Suggest and hover widgets must escape the panes' overflow clipping.
  fixedOverflowWidgets: true,
  // Tab and Shift+Tab move focus out of the editor, so it never traps the
  // keyboard nor changes the text unasked (WCAG 2.1.2). Indenting is
  // Ctrl+] / Ctrl+[, shown where focus lands (KeysHint). As an option
  // (not Monaco's page-wide Ctrl+M toggle) it holds in every editor.
  tabFocusMode: true,
  scrollbar: { alwaysConsumeMouseWheel: false },
  // Enter accepts a suggestion only when that changes the text; otherwise it
  // is the newline the user typed it for.
  acceptSuggestionOnEnter: 'smart',
};

/** Renders the editor once Monaco is loaded; a placeholder before. */
export function EditorView(props: EditorViewProps) {
  return (
    <WhenEditorsReady>
      <MountedEditor {...props} />
    </WhenEditorsReady>
  );
}

function MountedEditor({
  id,
  path,
  language,
  ariaLabel,
  value,
  onChange,
  diagnostics,
  beforeMount,
  options,
}: EditorViewProps) {
  const theme = useMonacoTheme();
  const allOptions = useMemo(
    () => ({ ...BASE_OPTIONS, ...options, ariaLabel }),
    [options, ariaLabel],
  );
  const [mounted, setMounted] = useState<{ editor: CodeEditor; monaco: MonacoApi } | null>(null);
  /** The text the model holds, as far as this view knows (its own edits and the user's). */
  const held = useRef<string | null>(null);
  /** True while this view puts a text from the store into the model: no change to report back. */
  const applying = useRef(false);

  const colorizeBrackets = options?.bracketPairColorization?.enabled !== false;
  useLayoutEffect(() => {
    // The editor's option draws the colours; the model builds the brackets' tree for them over
    // the whole text unless its own option says not to (32 ms at the first frame of 1.8 MB).
    mounted?.editor.getModel()?.updateOptions({
      bracketColorizationOptions: {
        enabled: colorizeBrackets,
        independentColorPoolPerBracketType: false,
      },
    });
  }, [mounted, colorizeBrackets]);

  // A layout effect: the text is in the model before the browser paints the frame that shows it.
  useLayoutEffect(() => {
    if (!mounted || held.current === value) return;
    applying.current = true;
    try {
      applyStoreText(mounted.editor, held.current, value);
    } finally {
      applying.current = false;
    }
    held.current = value;
  }, [mounted, value]);

  useEffect(() => {
    if (!mounted) return;
    const model = mounted.editor.getModel();
    if (!model) return;
    mounted.monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      toMarkers(mounted.monaco, diagnostics),
    );
  }, [mounted, diagnostics]);

  useEffect(() => {
    if (!mounted) return;
    return registerEditor(id, mounted.editor);
  }, [mounted, id]);

  return (
    <>
      <Editor
        height="100%"
        path={path}
        defaultLanguage={language}
        language={language}
        // Read once, when the model is made: later texts go in through applyStoreText. A `value`
        // prop would make the wrapper read the whole model back (getValue) on every change.
        defaultValue={value}
        theme={theme}
        loading={<div className="editor-loading">Loading the editor…</div>}
        options={allOptions}
        beforeMount={(monaco) => beforeMount?.(monaco as MonacoApi)}
        onMount={(editorInstance, monaco) => {
          // Monaco takes these keys before the page sees them (Ctrl+Enter would insert a line).
          const { KeyMod, KeyCode } = monaco;
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyS, requestCopyLink);
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.Enter, compactFromKeyboard);
          held.current = editorInstance.getValue();
          setMounted({ editor: editorInstance, monaco: monaco as MonacoApi });
        }}
        onChange={(next) => {
          held.current = next ?? '';
          if (!applying.current) onChange(next ?? '');
        }}
      />
      <KeysHint />
    </>
  );
}

/**
 * Above this many characters replaced, a text from the store is set anew
 * rather than edited in: an edit keeps the old and the new text in the undo
 * stack, and Monaco serialises both (about 50 ms of the longest task when
 * the 1.8 MB corpus file replaced the example). Undo then starts afresh, as
 * when an editor opens a file; "Restore previous work" still brings the old
 * text back.
 */
const SET_ANEW_CHARS = 400_000;

/**
 * Puts a text from the store (an opened file, an example, a quick fix, a
 * what-if click) into the editor: the part that changed as one undoable
 * edit, the cursor kept where the text around it is unchanged.
 */
function applyStoreText(editorInstance: CodeEditor, held: string | null, next: string): void {
  const model = editorInstance.getModel();
  if (!model) return;
  const current = held ?? model.getValue();
  if (current === next) return;
  const limit = Math.min(current.length, next.length);
  let start = 0;
  while (start < limit && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < limit - start &&
    current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
  ) {
    end++;
  }
  // Never split a surrogate pair between the kept and the replaced text.
  if (start > 0 && isHighSurrogate(next.charCodeAt(start - 1))) start--;
  if (end > 0 && isHighSurrogate(next.charCodeAt(next.length - end - 1))) end--;
  const inserted = next.slice(start, next.length - end);
  if (inserted.length > SET_ANEW_CHARS || current.length - start - end > SET_ANEW_CHARS) {
    model.setValue(next);
    return;
  }
  const from = model.getPositionAt(start);
  const to = model.getPositionAt(current.length - end);
  // Its own undo step, apart from what the user typed before it.
  editorInstance.pushUndoStop();
  editorInstance.executeEdits('store', [
    {
      range: {
        startLineNumber: from.lineNumber,
        startColumn: from.column,
        endLineNumber: to.lineNumber,
        endColumn: to.column,
      },
      text: inserted,
      forceMoveMarkers: true,
    },
  ]);
  editorInstance.pushUndoStop();
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * The keys that differ from the rest of the page, shown while focus is in
 * the editor (styles.css); hidden from assistive technology, which Monaco
 * tells itself (Alt+F1).
 */
function KeysHint() {
  return (
    <p className="editor-keys" aria-hidden="true">
      Tab leaves the editor · <kbd>Ctrl+]</kbd> indents, <kbd>Ctrl+[</kbd> outdents
    </p>
  );
}
