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
import { putStoreText } from './store-text.ts';
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
  /**
   * A new text is on its way that `value` does not hold yet (the stream editor
   * holds a large one back until its figures are shown): the editor is
   * read-only and busy meanwhile, as while it takes a text in.
   */
  waiting?: boolean;
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
  // Shown on a key typed while a new text goes in (the editor is read-only then).
  readOnlyMessage: { value: 'A new text is going into the editor: type again in a moment.' },
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
  waiting = false,
}: EditorViewProps) {
  const theme = useMonacoTheme();
  const allOptions = useMemo(
    () => ({ ...BASE_OPTIONS, ...options, ariaLabel }),
    [options, ariaLabel],
  );
  const [mounted, setMounted] = useState<{ editor: CodeEditor; monaco: MonacoApi } | null>(null);
  /** The text the model holds, as far as this view knows (its own edits and the user's). */
  const held = useRef<string | null>(null);
  /**
   * True from a new store text until all of it is in the model: the model's
   * changes meanwhile are not reported back (a key typed then would put the
   * old text with it back in the store, over the new one).
   */
  const pending = useRef(false);
  /** The latest `onChange`, for the listener set up once the editor is mounted. */
  const reportChange = useRef(onChange);
  reportChange.current = onChange;

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

  /** `pending` for rendering: the editor is `aria-busy` and read-only meanwhile. */
  const [takingText, setTakingText] = useState(false);
  useEffect(() => {
    if (!mounted || held.current === value) {
      setTakingText(false);
      return;
    }
    pending.current = true;
    setTakingText(true);
    const stop = putStoreText({
      editor: mounted.editor,
      held: () => held.current,
      next: value,
      done: () => {
        held.current = value;
        pending.current = false;
        setTakingText(false);
      },
    });
    return () => {
      stop();
      // Stopped part-way, the model may hold a part of it: the next text starts from the model.
      if (pending.current) held.current = null;
      pending.current = false;
    };
  }, [mounted, value]);

  const busy = takingText || waiting;
  useEffect(() => {
    // A key typed into the text on its way out would put that text back in the store over the new one.
    mounted?.editor.updateOptions({ readOnly: busy });
  }, [mounted, busy]);

  useEffect(() => {
    // Set on the text they belong to: not on the text before it, nor on a part of it.
    if (!mounted || takingText) return;
    const model = mounted.editor.getModel();
    if (!model) return;
    mounted.monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      toMarkers(mounted.monaco, diagnostics),
    );
  }, [mounted, diagnostics, takingText]);

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
        wrapperProps={{ 'data-editor': id, 'aria-busy': busy }}
        options={allOptions}
        beforeMount={(monaco) => beforeMount?.(monaco as MonacoApi)}
        onMount={(editorInstance, monaco) => {
          // Monaco takes these keys before the page sees them (Ctrl+Enter would insert a line).
          const { KeyMod, KeyCode } = monaco;
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyS, requestCopyLink);
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.Enter, compactFromKeyboard);
          held.current = editorInstance.getValue();
          // Not the wrapper's onChange: it reads the whole text back on every change, the slices of
          // a text going in included (a 73 MB file read back once a slice, hundreds of times).
          editorInstance.onDidChangeModelContent(() => {
            if (pending.current) return;
            const next = editorInstance.getValue();
            held.current = next;
            reportChange.current(next);
          });
          setMounted({ editor: editorInstance, monaco: monaco as MonacoApi });
        }}
      />
      <KeysHint />
    </>
  );
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
