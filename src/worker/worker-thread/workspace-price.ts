/**
 * One workspace conversation in money, in a pool worker: its file read again
 * (the pool keeps no stream between calls), replayed under the page's
 * pricing, and forgotten. A chunk of its own, loaded at the first call, so
 * a worker that only counts never loads the replay.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */
import { withReadings } from '../../core/compaction/readings.ts';
import type { ParsedConfig } from '../../core/config/config.ts';
import { loadTokenCounter } from '../../core/counting/tokens.ts';
import { hasErrors } from '../../core/diagnostics.ts';
import { readAnyStream } from '../../core/import/read-stream.ts';
import { describeFirstProblem } from '../../core/playground/pipeline.ts';
import { priceConversation, type ReplayPricing } from '../../core/replay/pane-replay.ts';
import { hasInventedTimes } from '../../core/replay/replay.ts';
import type {
  ConversationFiles,
  PricedWorkspaceConversation,
  WorkspaceSettings,
} from '../shared/workspace-protocol.ts';

/**
 * The conversation's row as `replay --by-conversation` computes it: read as
 * the count reads it (the same encoding, base and inline subagent), with the
 * config already parsed under the same base.
 */
export async function priceFiles(
  files: ConversationFiles,
  name: string,
  settings: WorkspaceSettings,
  config: ParsedConfig,
  pricing: ReplayPricing,
): Promise<PricedWorkspaceConversation> {
  const { index } = files;
  const readings = withReadings(settings.readings);
  const read = readAnyStream(await files.events.text(), {
    encoding: settings.encoding,
    base: readings.base,
    ...(files.agent !== undefined ? { agent: files.agent } : {}),
  });
  const { elements, diagnostics } = read.parsed;
  if (!elements || hasErrors(diagnostics)) {
    return {
      index,
      ok: false,
      message: describeFirstProblem(diagnostics, [], files.name ?? 'events.json'),
    };
  }
  // A fresh counter per conversation, as the count has: its cache would only hold this one's strings.
  const counter = await loadTokenCounter(settings.tokenizer);
  const priced = priceConversation(
    name,
    {
      elements,
      config,
      configText: settings.configText,
      view: settings.view,
      readings,
      counter,
      untimed: hasInventedTimes(read.imported?.notes),
      format: read.imported?.format ?? null,
    },
    pricing,
  );
  return priced.status === 'ok'
    ? { index, ok: true, money: priced.money }
    : { index, ok: false, message: priced.message };
}
