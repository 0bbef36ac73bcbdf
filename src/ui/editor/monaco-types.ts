/**
 * The Monaco API type. `@monaco-editor/react` types its `Monaco` through an
 * old deep path that monaco-editor 0.57's exports no longer resolve (it
 * silently becomes `any`), so the glue names the real entry point instead.
 */
import type * as MonacoEditorApi from 'monaco-editor/editor';

/** The `monaco` namespace as `@monaco-editor/react` hands it to `beforeMount` / `onMount`. */
export type MonacoApi = typeof MonacoEditorApi;

/** A code editor instance. */
export type CodeEditor = MonacoEditorApi.editor.IStandaloneCodeEditor;
