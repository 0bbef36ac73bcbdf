/**
 * The playground pipeline: one call turns the user's config and stream into
 * everything the page shows (PlaygroundResult). Sessions cache parsed
 * streams and token counts so that a hint edit recounts almost nothing.
 *
 * Boundary: pure TypeScript, no DOM. Runs in the Web Worker, the CLI and tests.
 */
import type { PlaygroundInput, PlaygroundResult } from './playground-types.ts';
import type { Report } from './report.ts';

export type * from './playground-types.ts';

/** The result of an action that rewrites the stream text (Compact, Reset). */
export type StreamEdit = { ok: true; streamText: string } | { ok: false; message: string };

/** A long-lived pipeline with caches, one per worker or CLI run. */
export interface PlaygroundSession {
  /** Computes everything the page shows. Never throws on user input. */
  run(input: PlaygroundInput): Promise<PlaygroundResult>;
  /** The stream with the previewed compactions appended for real (spec 14.5). */
  compact(input: PlaygroundInput): Promise<StreamEdit>;
  /** The stream without its compactions, or without the K-th (1-based). */
  reset(input: PlaygroundInput, position: number | null): Promise<StreamEdit>;
}

/** An empty report, for a page that has computed nothing yet. */
export function createEmptyReport(): Report {
  const amount = () => ({ tokens: 0, chars: 0 });
  const pair = () => ({ before: amount(), after: amount() });
  return {
    tokenizer: 'o200k',
    tools: [],
    totals: { ...pair(), saved: amount() },
    groups: { toolRequests: pair(), toolResponses: pair(), reasoning: pair(), messages: pair() },
  };
}

/** The result shown before the first run finishes. */
export function createEmptyResult(): PlaygroundResult {
  return {
    status: 'ok',
    configDiagnostics: [],
    streamDiagnostics: [],
    encoding: 'plain',
    now: '2026-01-01 00:00:00.0',
    nowIsDefault: true,
    turnCount: 0,
    rules: [],
    usesBuiltinRule: true,
    plans: [],
    toolOverrides: {},
    tools: [],
    timeline: [],
    report: createEmptyReport(),
    before: [],
    after: [],
    removedBySanitize: [],
  };
}

/** Creates a session. (Implementation lands with the core modules.) */
export function createPlaygroundSession(): PlaygroundSession {
  return {
    run: async () => createEmptyResult(),
    compact: async () => ({ ok: false, message: 'not implemented yet' }),
    reset: async () => ({ ok: false, message: 'not implemented yet' }),
  };
}
