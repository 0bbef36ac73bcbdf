/**
 * The TOML config editor: hints and rules, with completion, hovers, the
 * core's markers, and the guidance (info and warning markers with quick
 * fixes) for the config text it shows.
 */
import type { editor } from 'monaco-editor/editor';
import { useMemo } from 'react';
import { setConfigText } from '../../state/actions.ts';
import { selectConfigFixes, selectConfigGuidance } from '../../state/guidance.ts';
import { selectToolNames } from '../../state/selectors.ts';
import { store, useAppStore } from '../../state/store.ts';
import { EditorView } from './EditorView.tsx';
import { registerGuidanceActions } from './guidance-markers.ts';
import { CONFIG_MODEL_PATH } from './json-language.ts';
import type { MonacoApi } from './monaco-types.ts';
import { registerTomlLanguage, TOML_LANGUAGE_ID } from './toml-language.ts';

/** Accessible name of the config editor. */
export const CONFIG_EDITOR_LABEL = 'Config (TOML)';

const CONFIG_OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  quickSuggestions: { other: true, strings: true, comments: false },
  // Aligned trailing comments would otherwise draw a fence of guides.
  guides: { indentation: false },
};

function registerLanguage(monaco: MonacoApi): void {
  // Read at each request so completions follow the latest stream.
  registerTomlLanguage(monaco, { getToolNames: () => selectToolNames(store.getState()) });
  registerGuidanceActions(monaco, { getGuidance: () => selectConfigFixes(store.getState()) });
}

/** The config editor. */
export function ConfigEditor() {
  const value = useAppStore((s) => s.configText);
  const errors = useAppStore((s) => s.configDiagnostics);
  const guidance = useAppStore((s) => selectConfigGuidance(s).diagnostics);
  const diagnostics = useMemo(
    () => (guidance.length === 0 ? errors : [...errors, ...guidance]),
    [errors, guidance],
  );
  return (
    <EditorView
      id="config"
      path={CONFIG_MODEL_PATH}
      language={TOML_LANGUAGE_ID}
      ariaLabel={CONFIG_EDITOR_LABEL}
      value={value}
      onChange={setConfigText}
      diagnostics={diagnostics}
      beforeMount={registerLanguage}
      options={CONFIG_OPTIONS}
    />
  );
}
