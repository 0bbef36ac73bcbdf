/**
 * What several policies share: a result's text, the tokens of a prompt as
 * the previous decisions left it, and the summary that compaction (server
 * side at Anthropic, client side in Claude Code and Codex) puts in place of
 * the history.
 */
import type { JsonValue } from '../../types.ts';
import type { PolicyDecision, PolicyItem, PolicyRequest, Replacement } from './types.ts';
import { getBilledInput, replacementKey } from './types.ts';

/** A tool result's content as text, as the counter reads it. */
export function getResultText(item: PolicyItem): string {
  const content: JsonValue | undefined = item.element.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

/** The items a summary has not replaced. */
export function getLiveItems(
  items: readonly PolicyItem[],
  previous: PolicyDecision | null,
): readonly PolicyItem[] {
  const through = previous?.summary?.through;
  return through === undefined ? items : items.filter((item) => item.origin > through);
}

/** The prompt's tokens with the previous decision's replacements and summary in place. */
export function getEditedTokens(
  items: readonly PolicyItem[],
  previous: PolicyDecision | null,
): number {
  let total = previous?.summary ? previous.summary.tokens : 0;
  for (const item of getLiveItems(items, previous)) {
    total += previous?.replaced.get(replacementKey(item.origin, item.kind))?.tokens ?? item.tokens;
  }
  return total;
}

/**
 * The summary that replaces the whole prompt once it passes `limit`: its
 * size is `ratio` of what it summarises (an estimate), and it is in force
 * from the next request (the request that crosses the limit is the one
 * summarised, sent whole).
 */
export function summariseAbove(
  request: PolicyRequest,
  previous: PolicyDecision | null,
  replaced: ReadonlyMap<string, Replacement>,
  limit: number,
  ratio: number,
): PolicyDecision['summary'] {
  const decided: PolicyDecision = {
    replaced,
    summary: previous?.summary ?? null,
    clearedHere: 0,
  };
  const tokens = getEditedTokens(request.items, decided);
  let hidden = 0;
  for (const item of getLiveItems(request.items, decided)) hidden += item.hidden;
  const last = request.items[request.items.length - 1];
  // The runtime compares the prompt it sends: its invisible prefix and the provider's count.
  if (getBilledInput(request, tokens, hidden) <= limit || !last) return previous?.summary ?? null;
  return { through: last.origin, tokens: Math.round(tokens * ratio), since: request.index };
}

/** The tool names of a list of tools in force whose hint is one of `hints`. */
export function toolsWithHint(
  tools: readonly { name: string; hint: string }[],
  hints: readonly string[],
): string[] {
  return tools.filter((tool) => hints.includes(tool.hint)).map((tool) => tool.name);
}
