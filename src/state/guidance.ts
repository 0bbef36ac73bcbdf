/**
 * Guidance for the config editor (core `getConfigGuidance`): what the config
 * does on this stream, as info and warning diagnostics with quick fixes.
 *
 * It is computed on the main thread from the last result (cheap: it parses
 * the small TOML once), and only from a result computed for the config text
 * now in the editor: guidance about an older text would point at the wrong
 * places. The engine is wrapped so each result remembers its input.
 */
import { type GuidanceDiagnostic, getConfigGuidance } from '../core/config/guidance.ts';
import type { PlaygroundInput, PlaygroundResult } from '../core/playground/playground.ts';
import type { Engine } from './actions.ts';
import type { AppState } from './store.ts';

/** Guidance and the config text it was computed for. */
export interface ConfigGuidance {
  configText: string;
  diagnostics: readonly GuidanceDiagnostic[];
}

/** The input each result was computed from; results are fresh objects per run. */
const inputs = new WeakMap<PlaygroundResult, PlaygroundInput>();

/** Records which input a result belongs to (the engine wrapper and tests). */
export function rememberInput(result: PlaygroundResult, input: PlaygroundInput): void {
  inputs.set(result, input);
}

/** The engine, with every result remembering its input. */
export function withResultInputs<E extends Engine>(engine: E): E {
  return {
    ...engine,
    run: async (input, options) => {
      const result = await engine.run(input, options);
      rememberInput(result, input);
      return result;
    },
  };
}

const NONE: readonly GuidanceDiagnostic[] = [];
let last: { configText: string; result: PlaygroundResult | null; value: ConfigGuidance } | null =
  null;

/**
 * The guidance for the config text in the editor: empty while the last
 * result was computed from another text (an edit is pending) or failed.
 * Memoised, so components get the same object while nothing changed.
 */
export function selectConfigGuidance(state: AppState): ConfigGuidance {
  const { configText, result } = state;
  if (last && last.configText === configText && last.result === result) return last.value;
  const input = result ? inputs.get(result) : undefined;
  const diagnostics =
    result && input?.configText === configText ? getConfigGuidance(configText, result) : NONE;
  const value: ConfigGuidance = {
    configText,
    // Keep the previous array when nothing changed: the editor then keeps its markers.
    diagnostics:
      last && JSON.stringify(last.value.diagnostics) === JSON.stringify(diagnostics)
        ? last.value.diagnostics
        : diagnostics,
  };
  last = { configText, result, value };
  return value;
}
