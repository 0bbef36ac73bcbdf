/**
 * Monaco from our own bundle, never from a CDN: the page must work with no
 * network. This is the only module that imports Monaco's runtime; it is
 * loaded lazily by `main.tsx` so the shell paints before Monaco's ~4 MB parse.
 * Slim entry points (the editor API, its features, JSON) keep the build far
 * smaller than `import 'monaco-editor'`.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import { configureJsonLanguage } from './json-language.ts';
import JsonWorker from './json-language.worker.ts?worker';
import { defineMonacoThemes } from './monaco-themes.ts';

/** Points Monaco at its bundled workers and `@monaco-editor/react` at the bundled Monaco. */
export function setupMonaco(): void {
  self.MonacoEnvironment = {
    getWorker(_workerId, label) {
      return label === 'json' ? new JsonWorker() : new EditorWorker();
    },
  };
  loader.config({ monaco });
  configureJsonLanguage(jsonDefaults);
  defineMonacoThemes(monaco);
}
