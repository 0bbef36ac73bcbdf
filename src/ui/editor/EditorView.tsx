/**
 * One Monaco editor bound to a store field: the shared part of the config
 * and stream editors (options, theme, diagnostics as markers, registration
 * for "reveal").
 */
import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor/editor';
import { useEffect, useMemo, useState } from 'react';
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
        value={value}
        theme={theme}
        loading={<div className="editor-loading">Loading the editor…</div>}
        options={allOptions}
        beforeMount={(monaco) => beforeMount?.(monaco as MonacoApi)}
        onMount={(editorInstance, monaco) => {
          // Monaco takes these keys before the page sees them (Ctrl+Enter would insert a line).
          const { KeyMod, KeyCode } = monaco;
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyS, requestCopyLink);
          editorInstance.addCommand(KeyMod.CtrlCmd | KeyCode.Enter, compactFromKeyboard);
          setMounted({ editor: editorInstance, monaco: monaco as MonacoApi });
        }}
        onChange={(next) => onChange(next ?? '')}
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
