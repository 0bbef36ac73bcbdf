/**
 * Guidance for the config editor: what the config does on this stream, as
 * info and warning diagnostics with quick fixes. The worker computes it with
 * the result (core `getConfigGuidance`, on the config it already parsed);
 * here it is only shown while the editor still holds the text the result was
 * computed from: guidance about an older text would point at the wrong places.
 */
import type { GuidanceDiagnostic } from '../core/types.ts';
import type { AppState } from './app-state.ts';

/** Guidance and the config text it was computed for. */
export interface ConfigGuidance {
  configText: string;
  diagnostics: readonly GuidanceDiagnostic[];
}

const NONE: readonly GuidanceDiagnostic[] = [];
let last: { configText: string; value: ConfigGuidance } | null = null;

/**
 * The guidance for the config text in the editor: empty while the last
 * result was computed from another text (an edit is pending) or failed.
 * Memoised, so components get the same object while nothing changed.
 */
export function selectConfigGuidance(state: AppState): ConfigGuidance {
  const { configText, result } = state;
  const diagnostics = result && result.configText === configText ? result.guidance : NONE;
  if (
    last &&
    last.configText === configText &&
    // Compared by content, not identity: every result crosses postMessage as a fresh copy,
    // and an unchanged array keeps the editor's markers as they are.
    (last.value.diagnostics === diagnostics ||
      JSON.stringify(last.value.diagnostics) === JSON.stringify(diagnostics))
  ) {
    return last.value;
  }
  const value: ConfigGuidance = { configText, diagnostics };
  last = { configText, value };
  return value;
}

/** The guidance the problems list shows, and whether it is the text's before the pending edit. */
export interface ListedGuidance {
  diagnostics: readonly GuidanceDiagnostic[];
  stale: boolean;
}

let listed: ListedGuidance = { diagnostics: NONE, stale: false };

/**
 * The problems list's guidance: the editor's, except while the run of an
 * edit is on its way, when the list keeps the guidance of the last result
 * (computed on the text before the edit), marked stale. Emptied and filled
 * again on every keystroke, the list changed height twice per key and made
 * the editors above it lay out again (measured: a second layout in the
 * frame that shows the figure). The editor's markers never show stale
 * guidance: it would point at the wrong places. Derived from the state
 * alone, so the moment between an edit and its run's start (`setInput`
 * stores the text, then the run its status) leaves nothing behind.
 */
export function selectListedGuidance(state: AppState): ListedGuidance {
  const { result } = state;
  const pending =
    state.status === 'running' && result !== null && result.configText !== state.configText;
  const diagnostics = pending ? result.guidance : selectConfigGuidance(state).diagnostics;
  if (listed.diagnostics !== diagnostics || listed.stale !== pending) {
    listed = { diagnostics, stale: pending };
  }
  return listed;
}

/**
 * The config editor's quick fixes: the guidance's, plus those of the config
 * errors (a misplaced rule) while the editor holds the text they were found in.
 */
export function selectConfigFixes(state: AppState): ConfigGuidance {
  const guidance = selectConfigGuidance(state);
  if (state.configDiagnosticsText !== state.configText) return guidance;
  const fixes = state.configDiagnostics.filter((diagnostic) => diagnostic.fix !== undefined);
  if (fixes.length === 0) return guidance;
  return { configText: state.configText, diagnostics: [...guidance.diagnostics, ...fixes] };
}
