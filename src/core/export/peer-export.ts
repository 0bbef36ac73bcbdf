/**
 * The export folder owns writing a config's hints as another framework's
 * configuration: one module per target (anthropic.ts, langchain.ts,
 * vercel.ts, openai-agents.ts), the shape they share with the per-tool
 * notes (peer-target.ts), the hints in force per tool they start from
 * (hints-in-force.ts), and this entry point.
 *
 * The peer exports: a config's hints written as each framework's own
 * configuration, and the saving that configuration would give, measured by
 * the same pipeline as the playground's figure with every tool's hint
 * replaced by the peer's nearest (never estimated).
 *
 * Boundary: pure TypeScript, no DOM. The worker and the CLI call it.
 */

import { applyRecommendations } from '../analyses/recommend.ts';
import type { Readings } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import { formatCount, formatPercent, formatSavedTokens } from '../counting/format.ts';
import { type Report, savedPercent } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import { buildToolInfo, planCompactions, reportStream } from '../playground/playground.ts';
import type { ViewMode } from '../playground/types.ts';
import { type PolicyChoice, parsePolicyChoice } from '../replay/policies/policies.ts';
import { createReplaySettings } from '../replay/replay.ts';
import type { StreamElement } from '../types.ts';
import { getToolsInForce } from './hints-in-force.ts';
import { type PeerReplay, replayPeerExport } from './peer-replay.ts';
import type { PeerTarget } from './peer-target.ts';
import { getPeerTarget, isPeerTargetId, PEER_TARGETS } from './peer-targets.ts';
import type { PeerExport, PeerSaving, PeerTargetId, SavedAmounts, ToolMapping } from './types.ts';

export type { PeerPolicyRun, PeerReplay } from './peer-replay.ts';
export type * from './types.ts';
export type { PeerTarget };
export { getPeerTarget, isPeerTargetId, PEER_TARGETS };

/**
 * The user's config with each tool's hint replaced by the nearest one the
 * peer can say: the rules, and everything else, unchanged.
 */
export function createNearestHintsConfig(
  config: ParsedConfig,
  tools: readonly Pick<ToolMapping, 'name' | 'nearest'>[],
): ParsedConfig {
  return applyRecommendations(
    config,
    tools.map((tool) => ({ tool: tool.name, hint: tool.nearest })),
  );
}

/** How the figures are computed: as `report` computes them, under the same readings. */
export interface PeerExportOptions {
  now: string | null;
  view: ViewMode;
  counter: TokenCounter;
  /** The readings, base included; the defaults when absent. */
  readings?: Readonly<Readings>;
  /** A runtime target's parameters (`readTargetParameters`); its policy's defaults when absent. */
  parameters?: PolicyChoice['parameters'];
}

/**
 * A runtime target's parameters from `key=value` assignments, as `--set`
 * and the cost pane give them (its policy's defaults filled in); undefined
 * for a target configured per tool, which takes none.
 */
export function readTargetParameters(
  targetId: PeerTargetId,
  set: readonly string[],
): { ok: true; value: PolicyChoice['parameters'] | undefined } | { ok: false; message: string } {
  const policy = getPeerTarget(targetId).policy;
  if (!policy) {
    return set.length === 0
      ? { ok: true, value: undefined }
      : {
          ok: false,
          message: `--set is for the runtime targets (${PEER_TARGETS.filter((t) => t.policy)
            .map((t) => t.id)
            .join(', ')}): ${targetId} is configured per tool by the hints`,
        };
  }
  const parsed = parsePolicyChoice(policy, set);
  return parsed.ok
    ? { ok: true, value: parsed.value.parameters }
    : { ok: false, message: `${policy}: ${parsed.errors.join('; ')}` };
}

/** A peer export with its replayed figure (issue 22). */
export interface PeerExportFigures extends PeerExport {
  /**
   * The runtime's own clearing replayed with the exported parameters and
   * with its defaults, request by request (default model); null without a
   * conversation or for a target with no replayed policy (Vercel).
   */
  replay: PeerReplay | null;
}

/** A peer export with its replayed figure, or why the inputs could not give one (the page's dialog). */
export type PeerExportFiguresResult =
  | { ok: true; value: PeerExportFigures }
  | { ok: false; message: string };

/**
 * A target's configuration for the tools of a conversation (or of the
 * config alone, when `elements` is null), with the saving it would give.
 */
export function exportPeerConfig(
  elements: readonly StreamElement[] | null,
  config: ParsedConfig,
  targetId: PeerTargetId,
  options: PeerExportOptions,
): PeerExportFigures {
  const stream = elements ?? [];
  const plan = planCompactions(stream, config, options.now, options.readings);
  const tools = getToolsInForce(
    buildToolInfo(stream, plan.configInForce),
    plan.configInForce.rules,
  );
  const peer = getPeerTarget(targetId).render(tools, options.parameters);
  if (elements === null) return { ...peer, saving: null, replay: null };
  const own = reportStream(elements, config, options).report;
  const nearest = reportStream(elements, createNearestHintsConfig(config, peer.tools), options);
  return {
    ...peer,
    saving: {
      before: { ...own.totals.before },
      playground: getSaved(own),
      peer: getSaved(nearest.report),
    },
    replay: replayPeerExport(
      elements,
      targetId,
      peer.tools,
      createReplaySettings(options.counter, {
        config,
        view: options.view,
        schedule: 'none',
        ...(options.readings ? { readings: options.readings } : {}),
      }),
      options.parameters,
    ),
  };
}

/** A report's savings, in total and over its tool rows (the unknown row included). */
export function getSaved(report: Report): SavedAmounts {
  const toolCalls = { tokens: 0, chars: 0 };
  for (const row of report.tools) {
    toolCalls.tokens += row.saved.tokens;
    toolCalls.chars += row.saved.chars;
  }
  return { total: { ...report.totals.saved }, toolCalls };
}

/**
 * The saving in one sentence, as the CLI prints it: tool calls first (what
 * the peer's config governs), then the totals, which also hold what the
 * rules do beyond tools. Compaction that adds tokens reads as a cost
 * ("costs 5 more tokens (62.5% more)"), never as "Saved -5 tokens".
 */
export function describePeerSaving(saving: PeerSaving, title: string): string {
  const said = (amount: { tokens: number }) => formatSavedTokens(amount.tokens, 'present');
  const share = (amount: { tokens: number }) => {
    const percent = formatPercent(Math.abs(savedPercent(amount.tokens, saving.before.tokens)));
    return amount.tokens < 0 ? `${percent} more` : percent;
  };
  const playground = "the playground's config";
  const peer = `the nearest one ${title} can say`;
  return `On tool calls, ${playground} ${said(saving.playground.toolCalls)} and ${peer} ${said(saving.peer.toolCalls)}. In total (reasoning and summaries included, as your rules do them), of the ${formatCount(saving.before.tokens)} tokens, ${playground} ${said(saving.playground.total)} (${share(saving.playground.total)}) and ${peer} ${said(saving.peer.total)} (${share(saving.peer.total)}).`;
}

/**
 * The replayed figure in one sentence: what the runtime's own clearing
 * saves over the conversation's requests, with the exported parameters and
 * at its defaults, in prompt tokens and dollars (cache included).
 */
export function describePeerReplay(replay: PeerReplay): string {
  const figure = (run: PeerReplay['exported']) =>
    `${formatCount(run.totals.saved.prompt_tokens)} prompt tokens and $${run.totals.saved.cost.toFixed(4)} (${formatPercent(run.totals.saved.percent)} of $${run.totals.baseline.cost.toFixed(4)}), ${formatCount(run.cleared)} tool uses cleared`;
  return `Replayed as ${replay.exported.policy.name} request by request (replay --policy, default model): with this config ${figure(replay.exported)}; at its defaults ${figure(replay.defaults)}.`;
}
