/**
 * A stream and rules where one tool's hint changes another tool's figures
 * under reading 13.1 "apply": the tests' shared example for the paths that
 * cannot assemble a report from hint tables.
 */
import type { StreamElement } from '../core/types.ts';

/**
 * Two rules as in the stacking example: the reasoning-only one is created
 * after the tool_calls one, so under reading 13.1 "apply" its overrides win
 * the turn and one tool's hint changes who decides the others.
 */
export const TWO_RULES = `[[conversation.compaction.rules]]
keep_last = 2
tool_calls = "strip-responses"

[[conversation.compaction.rules]]
keep_last = 1
reasoning = "strip"
`;

/** Five turns, each calling `tools` in order, each response long enough to strip. */
export function toolTurnsStream(tools: readonly string[] = ['xtool', 'ytool']): StreamElement[] {
  const t = '2025-07-01 00:00:00.0';
  const long = (tool: string) => `${tool} response content that is fairly long `.repeat(5);
  return Array.from({ length: 5 }, (_, turn) => [
    { timestamp: t, type: 'turn_start' },
    { timestamp: t, type: 'chat_request', content: `question ${turn}` },
    ...tools.flatMap((tool) => [
      {
        timestamp: t,
        type: 'tool_call_request',
        id: `${tool}${turn}`,
        name: tool,
        arguments: { q: `query ${turn}` },
      },
      {
        timestamp: t,
        type: 'tool_call_response',
        id: `${tool}${turn}`,
        content: long(tool),
        is_error: false,
      },
    ]),
    { timestamp: t, type: 'chat_response', message: `answer ${turn}` },
  ]).flat() as unknown as StreamElement[];
}
