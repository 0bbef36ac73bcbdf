/**
 * Monaco's JSON language service, made to pass over text nested deeper than
 * JP reads. The service parses recursively and overflows the worker's stack a
 * few thousand levels down, which filled the console with a RangeError on
 * every keystroke. The core already refuses such a stream, with the position
 * of the offending bracket, so this treats it as absent (no validation,
 * folding or outline) until the nesting is fixed. The worker's entry is
 * `json-language.worker.ts`.
 */
import {
  JSONWorker,
  type WorkerTextDocument,
} from 'monaco-editor/languages/features/json/jsonWorker';
import { findTooDeepNesting } from '../../core/json/limits.ts';

/** Monaco's JSON worker, answering "nothing" for text nested deeper than JP reads. */
export class NestingGuardedJsonWorker extends JSONWorker {
  /** The last document checked, so a burst of requests on one version scans it once. */
  private checked: { uri: string; version: number; tooDeep: boolean } | null = null;

  protected override _getTextDocument(uri: string): WorkerTextDocument | null {
    const document = super._getTextDocument(uri);
    if (!document) return null;
    const { checked } = this;
    if (checked?.uri !== uri || checked.version !== document.version) {
      // The core's check reads an unclosed string to the end of the text,
      // where Monaco's parser stops at the line's end: while a quote is
      // open, deep brackets after it can slip through, and the service may
      // overflow until the string is closed. The core's diagnostic is right
      // either way.
      this.checked = {
        uri,
        version: document.version,
        tooDeep: findTooDeepNesting(document.getText()) !== undefined,
      };
    }
    return this.checked?.tooDeep ? null : document;
  }
}
