/**
 * App links: the share codec applied to this playground's examples. A link
 * is encoded against the frozen v1 defaults and the example it names, so
 * links shared before keep opening to the same state.
 */

import type { EncodingSetting } from '../types.ts';
import {
  decodeShareHash,
  encodeShareState,
  type ShareDecodeResult,
  type ShareState,
} from './share-codec.ts';

/**
 * The defaults every link (v1 and v2 alike) is encoded against, frozen: a link holds only
 * what differs from them, so changing one of these values would change what
 * every link already shared opens to. `configText` and `encoding` are not
 * here because they follow the example the state names (see
 * {@link getShareDefaults}).
 */
export const SHARE_DEFAULTS_V1 = Object.freeze({
  /** The example a link opens when it names none. */
  exampleId: 'coding-session',
  tokenizer: 'o200k',
  now: null,
  selectedTool: null,
  view: 'sanitized',
  diffLayout: 'side-by-side',
} as const satisfies Omit<ShareState, 'configText' | 'stream' | 'encoding'> & {
  exampleId: string;
});

/** What links need to know of an example: what loading it puts in the editors. */
export interface ShareExample {
  id: string;
  title: string;
  configText: string;
  streamText: string;
  /** The example's encoding setting; `auto` when absent (as `loadExample` does). */
  encoding?: EncodingSetting;
}

/**
 * The defaults a state is encoded against. Everything but `configText` and
 * `encoding` is {@link SHARE_DEFAULTS_V1}; those two are what loading the
 * example the state names gives, and for a state with its own stream text,
 * what loading the v1 default example gives. The stream default is always
 * the v1 default example, so a link says which example it names.
 */
export function getShareDefaults(
  examples: readonly ShareExample[],
  exampleId: string = SHARE_DEFAULTS_V1.exampleId,
): ShareState | null {
  const example = examples.find((candidate) => candidate.id === exampleId);
  if (!example) return null;
  return {
    configText: example.configText,
    stream: { exampleId: SHARE_DEFAULTS_V1.exampleId },
    encoding: example.encoding ?? 'auto',
    tokenizer: SHARE_DEFAULTS_V1.tokenizer,
    now: SHARE_DEFAULTS_V1.now,
    selectedTool: SHARE_DEFAULTS_V1.selectedTool,
    view: SHARE_DEFAULTS_V1.view,
    diffLayout: SHARE_DEFAULTS_V1.diffLayout,
  };
}

function requireDefaults(examples: readonly ShareExample[], exampleId?: string): ShareState {
  const defaults = getShareDefaults(examples, exampleId);
  if (!defaults) {
    throw new Error(`share links need the example "${exampleId ?? SHARE_DEFAULTS_V1.exampleId}"`);
  }
  return defaults;
}

/** The URL hash (`#v2/…`) of a state, against the defaults of the example it names. */
export function encodeAppLink(state: ShareState, examples: readonly ShareExample[]): string {
  const exampleId = 'exampleId' in state.stream ? state.stream.exampleId : undefined;
  const defaults = getShareDefaults(examples, exampleId) ?? requireDefaults(examples);
  return encodeShareState(state, defaults);
}

/** Why an app link failed: the codec's reasons, plus an example this playground lacks. */
export type AppLinkResult =
  | Extract<ShareDecodeResult, { ok: true }>
  | { ok: false; reason: string; message: string };

/**
 * Reads a hash made by {@link encodeAppLink}, in two steps: with the v1
 * defaults to learn which example it names, then with that example's
 * defaults. Never throws.
 */
export function decodeAppLink(hash: string, examples: readonly ShareExample[]): AppLinkResult {
  const base = getShareDefaults(examples);
  if (!base) return { ok: false, reason: 'corrupt', message: 'This link could not be read.' };
  const first = decodeShareHash(hash, base);
  if (!first.ok) return first;
  const { stream } = first.state;
  if (!('exampleId' in stream)) return first;
  const defaults = getShareDefaults(examples, stream.exampleId);
  if (!defaults) {
    return {
      ok: false,
      reason: 'unknown-example',
      message: `This link names the example “${stream.exampleId}”, which this version of the playground does not have.`,
    };
  }
  return decodeShareHash(hash, defaults);
}
