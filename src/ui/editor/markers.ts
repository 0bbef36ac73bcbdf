/**
 * Core diagnostics as Monaco markers. The core's positions are 1-based and
 * count UTF-16 code units, exactly as Monaco's, so they map one to one.
 */
import type { editor } from 'monaco-editor/editor';
import type { Diagnostic } from '../../core/types.ts';
import type { MonacoApi } from './monaco-types.ts';

/** The marker owner for the core's diagnostics (the JSON worker uses its own). */
export const MARKER_OWNER = 'compaction-playground';

/** Converts diagnostics to marker data. */
export function toMarkers(
  monaco: MonacoApi,
  diagnostics: readonly Diagnostic[],
): editor.IMarkerData[] {
  const severities = {
    error: monaco.MarkerSeverity.Error,
    warning: monaco.MarkerSeverity.Warning,
    info: monaco.MarkerSeverity.Info,
  } as const;
  return diagnostics.map((diagnostic) => {
    const marker: editor.IMarkerData = {
      severity: severities[diagnostic.severity],
      message: diagnostic.message,
      startLineNumber: diagnostic.line,
      startColumn: diagnostic.column,
      // An empty range makes Monaco underline the word at the position.
      endLineNumber: diagnostic.endLine ?? diagnostic.line,
      endColumn: diagnostic.endColumn ?? diagnostic.column,
      source: 'playground',
    };
    if (diagnostic.code !== undefined) marker.code = diagnostic.code;
    return marker;
  });
}
