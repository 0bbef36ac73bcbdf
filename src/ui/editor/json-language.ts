/**
 * The stream editor's JSON settings: the events.json schema, and lighter
 * settings for very large streams. Monaco's JSON defaults are handed in by
 * `monaco-setup.ts` (the only module that imports Monaco itself), so this
 * module and the editor components load in tests without Monaco.
 */
import type { LanguageServiceDefaults } from 'monaco-editor/languages/features/json/register';
import { EVENTS_SCHEMA } from './events-schema.ts';

/** The stream model's URI: the schema is matched against it. */
export const STREAM_MODEL_PATH = 'inmemory://playground/events.json';

/** The config model's URI. */
export const CONFIG_MODEL_PATH = 'inmemory://playground/config.toml';

/**
 * Above this many characters the JSON worker's schema validation, folding
 * and outline are turned off: the core's diagnostics still mark errors, and
 * typing in a 1.8 MB stream stays smooth.
 */
export const LARGE_STREAM_CHARS = 400_000;

let defaults: LanguageServiceDefaults | null = null;
let largeMode: boolean | null = null;

/** Takes Monaco's JSON defaults and applies the schema. */
export function configureJsonLanguage(jsonDefaults: LanguageServiceDefaults): void {
  defaults = jsonDefaults;
  largeMode = null;
  setLargeStreamMode(false);
}

/** Switches the JSON language between full assistance and the large-document settings. */
export function setLargeStreamMode(large: boolean): void {
  if (!defaults || largeMode === large) return;
  largeMode = large;
  defaults.setDiagnosticsOptions({
    validate: !large,
    allowComments: false,
    trailingCommas: 'error',
    enableSchemaRequest: false,
    schemaValidation: 'warning',
    schemas: [
      {
        uri: 'inmemory://playground/events.schema.json',
        fileMatch: [STREAM_MODEL_PATH],
        schema: EVENTS_SCHEMA,
      },
    ],
  });
  defaults.setModeConfiguration({
    completionItems: true,
    hovers: true,
    tokens: true,
    diagnostics: !large,
    documentSymbols: !large,
    foldingRanges: !large,
    selectionRanges: !large,
    colors: false,
    documentFormattingEdits: !large,
    documentRangeFormattingEdits: !large,
  });
}
