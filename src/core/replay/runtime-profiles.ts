/**
 * What each runtime sends that its transcript does not hold, and how it
 * caches (issue 40): the defaults the replay's calibration falls back on
 * where the transcript recorded no usage. Every figure is measured on real
 * transcripts that did record their usage (prices-2026-12.md, update of
 * 2026-12-07, and the corpus's own sessions; `tools/calibration/` measures
 * them again) or taken from the runtime's published behaviour; the source
 * is beside each row. Data, easy to update: one row per runtime.
 */

/** Where a runtime puts its cache breakpoints. */
export type Breakpoints =
  /** Automatic caching: the whole previous request is a cached prefix. */
  | 'every-request'
  /**
   * Claude Code: on the system/tools head and the last user turns only, and
   * the cache looks back at most 20 blocks: a change older than that is
   * read only up to the head.
   */
  | 'head-and-last-turns';

/** How far back from a breakpoint a cache hit is looked for, in blocks (Anthropic's automatic caching). */
export const CACHE_LOOKBACK_BLOCKS = 20;

/** One runtime's defaults. */
export interface RuntimeProfile {
  /** The import format's name that runtime writes. */
  runtime: string;
  title: string;
  /** The invisible prefix in billed tokens: system prompt, tool definitions, reminders. */
  prefixTokens: number;
  /** The prefix from a version on, where it grew (latest last); `prefixTokens` before the first. */
  prefixByVersion?: readonly { from: string; tokens: number }[];
  /** The prefix of the runtime's subagents (their own, shorter system prompt), where measured. */
  subagentPrefixTokens?: number;
  /** Provider tokens per counted (o200k) token. */
  tokenFactor: number;
  /** Output a response produces that the transcript does not show (thinking kept as a signature), per response. */
  hiddenOutputPerResponse: number;
  breakpoints: Breakpoints;
  /** The cache write the runtime asks for from a version on (Claude Code 2.1.132: one hour). */
  oneHourCacheFrom?: string;
  /** Where the figures come from. */
  source: string;
}

const MEASURED = 'measured on real transcripts with recorded usage (prices-2026-12.md, 2026-12-07)';

/** The runtimes with defaults, by import format. */
const PROFILES: readonly RuntimeProfile[] = [
  {
    runtime: 'claude-code',
    title: 'Claude Code',
    prefixTokens: 20_500,
    // The corpus's sessions: 2.1.55 about 20.2 K, 2.1.71 about 22.1 K, 2.1.132 about 25.7 K.
    prefixByVersion: [
      { from: '2.1.60', tokens: 22_000 },
      { from: '2.1.100', tokens: 26_000 },
    ],
    tokenFactor: 1.3,
    hiddenOutputPerResponse: 120,
    breakpoints: 'head-and-last-turns',
    oneHourCacheFrom: '2.1.132',
    source: `${MEASURED}: 16–56 K (median 22 K); about 26.2 K in an empty project (public measurement)`,
  },
  {
    runtime: 'codex',
    title: 'Codex CLI',
    prefixTokens: 7_200,
    tokenFactor: 1.15,
    hiddenOutputPerResponse: 100,
    breakpoints: 'every-request',
    source: `${MEASURED}: 12–18 K, of which the tool schemas 6.5–7.9 K; the rest (base instructions, developer messages, injected context) is counted from the rollout`,
  },
  {
    runtime: 'gemini-cli',
    title: 'Gemini CLI',
    prefixTokens: 6_500,
    tokenFactor: 1.1,
    hiddenOutputPerResponse: 30,
    breakpoints: 'every-request',
    source: `${MEASURED}: 2.7–8.2 K`,
  },
  {
    runtime: 'opencode',
    title: 'OpenCode',
    prefixTokens: 9_500,
    tokenFactor: 1.1,
    hiddenOutputPerResponse: 40,
    breakpoints: 'every-request',
    source: `${MEASURED}: 7.7–10.6 K`,
  },
  {
    runtime: 'amp',
    title: 'Amp',
    prefixTokens: 15_500,
    tokenFactor: 1.4,
    hiddenOutputPerResponse: 60,
    breakpoints: 'every-request',
    source: `${MEASURED}: 14.4–15.5 K`,
  },
  {
    runtime: 'openclaw',
    title: 'OpenClaw',
    prefixTokens: 25_300,
    subagentPrefixTokens: 14_300,
    tokenFactor: 1.3,
    hiddenOutputPerResponse: 80,
    breakpoints: 'every-request',
    source: `${MEASURED}: 24.6–26.1 K`,
  },
  {
    runtime: 'pi',
    title: 'Pi',
    prefixTokens: 1_500,
    tokenFactor: 1.3,
    hiddenOutputPerResponse: 0,
    breakpoints: 'every-request',
    source: 'the corpus session (gemma4 over Ollama): about 1.5 K',
  },
  {
    runtime: 'kimi-code',
    title: 'Kimi Code',
    prefixTokens: 12_700,
    tokenFactor: 1.3,
    hiddenOutputPerResponse: 0,
    breakpoints: 'every-request',
    source: `${MEASURED}: about 12–14 K`,
  },
];

const BY_RUNTIME = new Map(PROFILES.map((profile) => [profile.runtime, profile]));

/** The defaults of a runtime, or undefined for one without measured defaults (JP, API bodies). */
export function getRuntimeProfile(runtime: string | null | undefined): RuntimeProfile | undefined {
  return runtime ? BY_RUNTIME.get(runtime) : undefined;
}

/** Every runtime with defaults, for the docs' table. */
export function listRuntimeProfiles(): readonly RuntimeProfile[] {
  return PROFILES;
}

/** A runtime's default prefix for a version (null: unknown) and for a subagent or not. */
export function getProfilePrefix(
  profile: RuntimeProfile,
  version: string | null,
  subagent: boolean,
): number {
  if (subagent && profile.subagentPrefixTokens !== undefined) return profile.subagentPrefixTokens;
  let tokens = profile.prefixTokens;
  if (version === null) {
    // An unknown version is taken as the latest: a transcript without one is most likely new.
    return profile.prefixByVersion?.at(-1)?.tokens ?? tokens;
  }
  for (const step of profile.prefixByVersion ?? []) {
    if (isVersionAtLeast(version, step.from)) tokens = step.tokens;
  }
  return tokens;
}

/** Whether dotted version `a` is `b` or later (missing parts are 0; non-numbers compare as 0). */
export function isVersionAtLeast(a: string, b: string): boolean {
  const parts = (v: string) => v.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/**
 * Providers that never send a model its earlier reasoning: Ollama's chat
 * templates drop the thinking of earlier turns (measured on the corpus's Pi
 * session with gemma4: the second prompt grew by the answer's text alone).
 * Elsewhere what reasoning costs is the calibration's to find.
 */
const WITHHOLD_REASONING = new Set(['ollama']);

/** Whether a provider never sends earlier reasoning back in a prompt. */
export function withholdsReasoning(provider: string | null): boolean {
  return provider !== null && WITHHOLD_REASONING.has(provider.toLowerCase());
}
