/**
 * The reading `base` (spec 15.0): which JP the playground reads, writes and
 * projects like. `2026-09` is JP main with PRs #994, #945 and #932 (the
 * default, because users run current JP); `2026-08` is the pinned commit
 * `4c1c39f1`, sections 1 to 14 as written. The readings module lists it
 * with the D17 readings; it lives here because the config and stream
 * readers need it and sit below the compaction folder.
 */

/** The two versions of JP the playground implements. */
export type JpBase = '2026-09' | '2026-08';

/** The default reading: JP main. */
export const DEFAULT_BASE: JpBase = '2026-09';

/**
 * What each base reads, writes and projects, by the section of spec 15
 * that changed it. This is the one home of the differences between the
 * bases: code asks `JP_BASES[base].<capability>`, never compares a base
 * with a literal, so when JP main moves again a new base is one row here
 * and the capabilities it changes.
 */
export interface JpBaseCapabilities {
  /** Which JP it is, as exports and the About panel name it. */
  name: string;
  /** 15.1: stored `reasoning`/`tool_calls` take an `over` threshold, a stored summary a `source`. */
  storedThresholdsAndSources: boolean;
  /** 15.3: a tool response pairs with its request by position within its turn, not through the stream-wide id map; JP's dry-run lines name the tools. */
  pairsByPosition: boolean;
  /**
   * 15.4: rule configuration as JP main reads it: policy tables with `over`,
   * bounds written as strings (`"-N"` the Nth turn from the end, absolute
   * positions), a summary's verbatim `text`.
   */
  mainRuleConfig: boolean;
  /** 15.5: growing a summary's range over an authored summary is refused. */
  guardsAuthoredSummaries: boolean;
  /** 15.6: the DSL's `-N` is 1-based from the end, policies take `,over=SIZE`, `summary` spells `s`. */
  mainDsl: boolean;
}

/** Each base's capabilities. */
export const JP_BASES: Readonly<Record<JpBase, JpBaseCapabilities>> = {
  '2026-09': {
    name: 'JP main',
    storedThresholdsAndSources: true,
    pairsByPosition: true,
    mainRuleConfig: true,
    guardsAuthoredSummaries: true,
    mainDsl: true,
  },
  '2026-08': {
    name: 'JP 4c1c39f1',
    storedThresholdsAndSources: false,
    pairsByPosition: false,
    mainRuleConfig: false,
    guardsAuthoredSummaries: false,
    mainDsl: false,
  },
};

/** Which JP a base is, as exports and the About panel name it. */
export function getJpVersionName(base: JpBase): string {
  return JP_BASES[base].name;
}
