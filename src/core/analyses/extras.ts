/**
 * The extras: what a pane shows beyond the figures, each computed only when
 * its pane asks, from the run the figures came from (`RunContext`). A run
 * answers the figures alone (a few kilobytes); the transcripts of a large
 * conversation are megabytes, and the what-if grid and the recommender are
 * pipeline passes per tool, so nobody pays for a pane that is not in view.
 *
 * One extra is one handler here: `(context, args) => value`. Its name, its
 * arguments and its value's type are derived from the handler (`ExtraName`,
 * `ExtraArgs`, `ExtraValue`), so the worker's protocol and the page's hook
 * follow without a line written twice. Handlers that take no arguments take
 * `null`.
 *
 * The analyses stand on the session, never the reverse: this module imports
 * both; the session imports neither this module nor an analysis.
 *
 * Boundary: pure TypeScript, no DOM. Runs in the Web Worker, the CLI and tests.
 */

import { getJpMainDryRun } from '../compaction/jp-timeline.ts';
import {
  exportPeerConfig,
  type PeerExportFigures,
  type PeerExportFiguresResult,
  type PeerTargetId,
  readTargetParameters,
} from '../export/peer-export.ts';
import {
  describeFirstProblem,
  type PlaygroundSession,
  type RunContext,
} from '../playground/playground.ts';
import { buildTranscripts } from '../playground/transcripts.ts';
import type {
  PlaygroundFigures,
  PlaygroundInput,
  ReadingChoice,
  ReadingDiff,
  ReadingEffect,
  Transcripts,
  WhatIfGrid,
} from '../playground/types.ts';
import {
  comparePoliciesForPane,
  type PolicyComparisonResult,
  type ReplayPricing,
  replayForPane,
  replayToolsForPane,
  sweepForPane,
  type ToolWhatIfResult,
  type TriggerSweepResult,
} from '../replay/pane-replay.ts';
import type { PolicyChoice } from '../replay/policies/policies.ts';
import {
  hasInventedTimes,
  type ReplayChoice,
  type ReplayResult,
  type ReplaySource,
} from '../replay/replay.ts';
import {
  getRequestPrompt,
  type RequestPromptArgs,
  type RequestPromptResult,
} from '../replay/request-prompt.ts';
import type { StreamElement } from '../types.ts';
import { getReadingDiff, measureReadingEffects } from './design-questions.ts';
import {
  createHintTable,
  getReportFromHintTable,
  type HintTable,
  type HintTableSettings,
} from './hint-table.ts';
import { type HintRecommendations, recommendHints } from './recommend.ts';
import { suggestThresholds } from './threshold-suggestion.ts';
import { createWhatIfCache } from './what-if.ts';

/** The transcripts, and the "after" view under another reading when the diff compares two. */
export interface TranscriptsExtra extends Transcripts {
  /** The "after" view under `diffReading`, or null when none was asked. */
  readingDiff: ReadingDiff | null;
}

/** What `jp conversation compact --dry-run` would print for the previewed compactions. */
export interface TimelineExtra {
  jpDryRun: string[];
}

/** The run's conversation as the replay reads it. */
function replaySourceOf(context: RunContext): ReplaySource {
  return {
    elements: context.elements,
    config: context.config,
    configText: context.input.configText,
    view: context.input.view,
    readings: context.readings,
    counter: context.counter,
    untimed: hasInventedTimes(context.figures.imported?.summary.notes),
    format: context.figures.imported?.summary.format ?? null,
  };
}

/**
 * The extras' handlers for one session, with the caches that make a hint
 * edit cheap for them too (the what-if grid's and the recommender's hint
 * table, rebuilt only when the stream, the rules or the settings change).
 */
export function createPlaygroundExtras() {
  const whatIf = createWhatIfCache();
  let hintTable: { elements: readonly StreamElement[]; table: HintTable } | undefined;

  /** The stream's hint table under the context's rules and settings, readings (base) included. */
  const getHintTable = (context: RunContext, settings: HintTableSettings): HintTable => {
    const fresh =
      hintTable?.elements === context.elements &&
      getReportFromHintTable(hintTable.table, context.config, settings) !== undefined;
    if (!fresh || !hintTable) {
      const table = createHintTable(context.elements, context.config, {
        now: context.input.now,
        view: context.input.view,
        counter: context.counter,
        readings: context.readings,
      });
      hintTable = { elements: context.elements, table };
    }
    return hintTable.table;
  };

  const settingsOf = (context: RunContext) => ({
    now: context.input.now,
    view: context.input.view,
    counter: context.counter,
    readings: context.readings,
  });

  return {
    /** Both provider views as transcript blocks, with explanations (the diff and explain panes). */
    transcripts(
      context: RunContext,
      args: { diffReading: ReadingChoice | null },
    ): TranscriptsExtra {
      const transcripts = buildTranscripts(
        context.elements,
        context.views,
        context.timeline,
        context.counter,
      );
      const readingDiff = args.diffReading
        ? getReadingDiff(
            { elements: context.elements, config: context.config, ...settingsOf(context) },
            args.diffReading,
          )
        : null;
      return { ...transcripts, readingDiff };
    },

    /** The compactions pane's dry-run lines. */
    timeline(context: RunContext, _args: null): TimelineExtra {
      return {
        jpDryRun: getJpMainDryRun(
          context.elements,
          context.plan.created.events,
          context.readings.base,
        ),
      };
    },

    /** Every tool under each of its six hint choices (what-if.ts). */
    whatIf(context: RunContext, _args: null): WhatIfGrid {
      return whatIf.getGrid(context.elements, context.config, settingsOf(context));
    },

    /** Hint recommendations for this conversation (recommend.ts). */
    recommend(context: RunContext, _args: null): HintRecommendations {
      const settings: HintTableSettings = {
        now: context.input.now,
        view: context.input.view,
        tokenizer: context.counter.id,
        readings: context.readings,
      };
      return {
        ...recommendHints([getHintTable(context, settings)], context.config, settings),
        thresholds: suggestThresholds([context.elements], context.config, settingsOf(context)),
      };
    },

    /**
     * The config's hints as another framework's configuration, with its
     * saving and the runtime's own clearing replayed with it (the Export
     * menu's dialog, asked for while it is open).
     */
    peerExport(
      context: RunContext,
      args: { target: PeerTargetId; parameters?: PolicyChoice['parameters'] },
    ): PeerExportFigures {
      return exportPeerConfig(context.elements, context.config, args.target, {
        ...settingsOf(context),
        ...(args.parameters ? { parameters: args.parameters } : {}),
      });
    },

    /**
     * What the conversation cost, request by request, under the pane's model,
     * schedule and policy (core/replay/pane-replay.ts): every schedule side
     * by side with its per-request figures, for the headline, the schedules
     * and the chart. The policies side by side and the per-tool what-if are
     * their own extras, asked for only when their sections are open: on a
     * long conversation they are most of the work. `replay --json` gives the
     * same figures.
     */
    replay(context: RunContext, args: ReplayChoice): ReplayResult {
      return replayForPane(replaySourceOf(context), args);
    },

    /** Every runtime policy at its defaults and with the hints mapped, and JP's schedules (issue 22). */
    replayPolicies(context: RunContext, args: ReplayPricing): PolicyComparisonResult {
      return comparePoliciesForPane(replaySourceOf(context), args);
    },

    /** The per-tool what-if in money under JP's schedule (`replay --json`'s `tools`). */
    replayTools(
      context: RunContext,
      args: ReplayPricing & Pick<ReplayChoice, 'schedule'>,
    ): ToolWhatIfResult {
      return replayToolsForPane(replaySourceOf(context), args);
    },

    /** When to compact: `auto`'s trigger swept (`replay --sweep trigger --json`), asked for when its section is open. */
    replaySweep(context: RunContext, args: ReplayPricing): TriggerSweepResult {
      return sweepForPane(replaySourceOf(context), args);
    },

    /**
     * One request's prompt with no clearing and under a runtime's policy
     * (the diff pane's per-request view): computed for that request and
     * policy only, through the replay's own steps.
     */
    requestPrompt(context: RunContext, args: RequestPromptArgs): RequestPromptResult {
      return getRequestPrompt(replaySourceOf(context), args);
    },

    /** Per alternative reading, what it would change here (the Design questions panel). */
    design(context: RunContext, _args: null): ReadingEffect[] {
      return measureReadingEffects({
        elements: context.elements,
        config: context.config,
        ...settingsOf(context),
        current: context.views,
        currentAfterTokens: context.report.totals.after.tokens,
      });
    },
  };
}

/** The extras' handlers of one session. */
export type PlaygroundExtras = ReturnType<typeof createPlaygroundExtras>;

/** The name of an extra. */
export type ExtraName = keyof PlaygroundExtras;

/** What an extra takes beside the input (null for most). */
export type ExtraArgs<K extends ExtraName> = Parameters<PlaygroundExtras[K]>[1];

/** What an extra answers. */
export type ExtraValue<K extends ExtraName> = ReturnType<PlaygroundExtras[K]>;

/** An extra's answer: its value, or `invalid` when the input has errors (nothing to compute from). */
export type ExtraOutcome<K extends ExtraName> =
  | { status: 'ok'; value: ExtraValue<K> }
  | { status: 'invalid' };

/** Computes one extra for `input`, from the session's run of it (reused when it was the last run). */
export async function computeExtra<K extends ExtraName>(
  session: PlaygroundSession,
  extras: PlaygroundExtras,
  input: PlaygroundInput,
  name: K,
  args: ExtraArgs<K>,
): Promise<ExtraOutcome<K>> {
  const run = await session.prepareRun(input);
  if (!run.ok) return { status: 'invalid' };
  const handler = extras[name] as (context: RunContext, args: ExtraArgs<K>) => ExtraValue<K>;
  return { status: 'ok', value: handler(run.context, args) };
}

/**
 * A peer export for `input`, through the session like every figure the page
 * shows: the same parse, the same readings, so its saving is the table's.
 */
export async function exportPeerThroughSession(
  session: PlaygroundSession,
  extras: PlaygroundExtras,
  input: PlaygroundInput,
  target: PeerTargetId,
  /** A runtime target's `key=value` parameters (the cost pane's, for its policy). */
  set: readonly string[] = [],
): Promise<PeerExportFiguresResult> {
  const parameters = readTargetParameters(target, set);
  if (!parameters.ok) return parameters;
  const run = await session.prepareRun(input);
  if (!run.ok) {
    const { streamDiagnostics, configDiagnostics } = run.figures;
    return { ok: false, message: describeFirstProblem(streamDiagnostics, configDiagnostics) };
  }
  return {
    ok: true,
    value: extras.peerExport(run.context, {
      target,
      ...(parameters.value ? { parameters: parameters.value } : {}),
    }),
  };
}

/** The figures with every extra: for the CLI and tests, which want everything at once. */
export type FiguresWithExtras = PlaygroundFigures &
  TranscriptsExtra &
  TimelineExtra & {
    whatIf: WhatIfGrid | null;
    readingEffects: ReadingEffect[];
  };

/** The figures of `input` with every extra computed (empty extras when the input has errors). */
export async function runWithExtras(
  session: PlaygroundSession,
  input: PlaygroundInput,
  options: { diffReading?: ReadingChoice | null; compareReadings?: boolean } = {},
  extras: PlaygroundExtras = createPlaygroundExtras(),
): Promise<FiguresWithExtras> {
  const figures = await session.run(input);
  const get = async <K extends ExtraName>(name: K, args: ExtraArgs<K>) => {
    const outcome = await computeExtra(session, extras, input, name, args);
    return outcome.status === 'ok' ? outcome.value : undefined;
  };
  const transcripts = await get('transcripts', { diffReading: options.diffReading ?? null });
  const timeline = await get('timeline', null);
  return {
    ...figures,
    before: transcripts?.before ?? [],
    after: transcripts?.after ?? [],
    removedBySanitize: transcripts?.removedBySanitize ?? [],
    readingDiff: transcripts?.readingDiff ?? null,
    jpDryRun: timeline?.jpDryRun ?? [],
    whatIf: (await get('whatIf', null)) ?? null,
    readingEffects: options.compareReadings ? ((await get('design', null)) ?? []) : [],
  };
}
