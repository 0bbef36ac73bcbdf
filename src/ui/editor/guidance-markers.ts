/**
 * The quick fixes of the config's guidance and errors as Monaco code actions
 * (the light bulb, Ctrl+.). The guidance itself reaches the editor as ordinary markers, Info
 * and Warning beside the core's errors (`markers.ts`); this provider finds,
 * for a marker under the cursor, the guidance diagnostic it came from and
 * offers its `fix.edits`.
 */
import type { editor, languages } from 'monaco-editor/editor';
import type { GuidanceEdit } from '../../core/types.ts';
import type { ConfigGuidance } from '../../state/guidance.ts';
import type { MonacoApi } from './monaco-types.ts';
import { TOML_LANGUAGE_ID } from './toml-language.ts';

/** What the provider reads from the app, at each request. */
export interface GuidanceActionsOptions {
  getGuidance: () => ConfigGuidance;
}

function markerCode(marker: editor.IMarkerData): string | undefined {
  const { code } = marker;
  return typeof code === 'string' ? code : code?.value;
}

function toTextEdit(edit: GuidanceEdit): languages.TextEdit {
  return {
    range: {
      startLineNumber: edit.line,
      startColumn: edit.column,
      endLineNumber: edit.endLine,
      endColumn: edit.endColumn,
    },
    text: edit.text,
  };
}

/**
 * The quick fixes for the markers among `markers`, from diagnostics
 * computed for `modelText`; none when they are for another text.
 */
export function getGuidanceActions(
  guidance: ConfigGuidance,
  modelText: string,
  markers: readonly editor.IMarkerData[],
): { title: string; marker: editor.IMarkerData; edits: languages.TextEdit[] }[] {
  if (guidance.configText !== modelText) return [];
  const actions: { title: string; marker: editor.IMarkerData; edits: languages.TextEdit[] }[] = [];
  for (const marker of markers) {
    const code = markerCode(marker);
    if (code === undefined) continue;
    const diagnostic = guidance.diagnostics.find(
      (candidate) =>
        candidate.code === code &&
        candidate.line === marker.startLineNumber &&
        candidate.column === marker.startColumn &&
        candidate.message === marker.message,
    );
    if (!diagnostic?.fix) continue;
    actions.push({
      title: diagnostic.fix.title,
      marker,
      edits: diagnostic.fix.edits.map(toTextEdit),
    });
  }
  return actions;
}

let registered = false;

/** Registers the provider once per page (Monaco's registries are global). */
export function registerGuidanceActions(monaco: MonacoApi, options: GuidanceActionsOptions): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCodeActionProvider(
    TOML_LANGUAGE_ID,
    {
      provideCodeActions(model, _range, context) {
        const found = getGuidanceActions(options.getGuidance(), model.getValue(), context.markers);
        const versionId = model.getVersionId();
        return {
          actions: found.map(
            ({ title, marker, edits }): languages.CodeAction => ({
              title,
              kind: 'quickfix',
              diagnostics: [marker],
              isPreferred: true,
              edit: {
                edits: edits.map((textEdit) => ({ resource: model.uri, textEdit, versionId })),
              },
            }),
          ),
          dispose() {},
        };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}
