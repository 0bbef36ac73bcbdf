/**
 * Monaco's JSON language worker, made to pass over text nested deeper than JP
 * reads. The JSON language service parses recursively and overflows the
 * worker's stack a few thousand levels down, which fills the console with a
 * RangeError on every keystroke. The core already refuses such a stream, with
 * the position of the offending bracket, so the worker treats it as absent
 * (no validation, folding or outline) until the nesting is fixed.
 */
import { initialize } from 'monaco-editor/internal/common/initialize';
import {
  JSONWorker,
  type WorkerTextDocument,
} from 'monaco-editor/languages/features/json/jsonWorker';
import { findTooDeepNesting } from '../../core/limits.ts';

/** Monaco's JSON worker, answering "nothing" for text nested deeper than JP reads. */
export class NestingGuardedJsonWorker extends JSONWorker {
  /** The last document checked, so a burst of requests on one version scans it once. */
  private checked: { uri: string; version: number; tooDeep: boolean } | null = null;

  protected override _getTextDocument(uri: string): WorkerTextDocument | null {
    const document = super._getTextDocument(uri);
    if (!document) return null;
    const { checked } = this;
    if (checked?.uri !== uri || checked.version !== document.version) {
      this.checked = {
        uri,
        version: document.version,
        tooDeep: findTooDeepNesting(document.getText()) !== undefined,
      };
    }
    return this.checked?.tooDeep ? null : document;
  }
}

// As Monaco's own json.worker: the first message carries the worker's set-up.
self.onmessage = () => {
  initialize((context, createData) => new NestingGuardedJsonWorker(context, createData));
};
