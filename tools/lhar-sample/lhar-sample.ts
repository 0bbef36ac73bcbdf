/**
 * Builds the LHAR sample the importer is tested on: no real Context Lens
 * recording is openly licensed, so this turns a real session with per-call
 * usage (the 2026 corpus's OpenClaw run, claude-opus-4-8 over the Anthropic
 * Messages API) into what the proxy would have recorded with full bodies:
 * a `session` line, then one `entry` per API call, its request body (the
 * history so far), its response body and its usage and cache figures, as
 * `schema/lhar.schema.json` of larsderidder/context-lens describes them.
 *
 * Usage: `npx tsx tools/lhar-sample/lhar-sample.ts > src/test/fixtures/lhar/openclaw-convo.lhar`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** The OpenClaw session the sample is built from (Apache-2.0, empathic/toolpath). */
export const SAMPLE_SOURCE = 'agent-transcripts-2026/openclaw/toolpath__convo.jsonl';

/** The LHAR text for an OpenClaw (Pi-format) session's lines. */
export function createLharSample(sessionText: string): string {
  const lines = sessionText
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Obj);
  const header = lines[0] as Obj;
  const traceId = String(header.id);
  const out: Obj[] = [
    {
      type: 'session',
      trace_id: traceId,
      started_at: String(header.timestamp),
      tool: 'openclaw',
      model: 'claude-opus-4-8',
    },
  ];
  const history: Obj[] = [];
  let sequence = 0;
  for (const line of lines) {
    const message = line.message as Obj | undefined;
    if (line.type !== 'message' || !message) continue;
    const content = (message.content as Obj[]) ?? [];
    if (message.role === 'user') {
      history.push({
        role: 'user',
        content: content.map((p) => ({ type: 'text', text: p.text ?? '' })),
      });
    } else if (message.role === 'toolResult') {
      history.push({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId ?? '',
            content: content.map((p) => ({ type: 'text', text: p.text ?? '' })),
            is_error: message.isError === true,
          },
        ],
      });
    } else if (message.role === 'assistant' && message.api !== 'cli') {
      const blocks = content.map(
        (b): Obj =>
          b.type === 'toolCall'
            ? { type: 'tool_use', id: b.id ?? '', name: b.name ?? '', input: b.arguments ?? {} }
            : { type: 'text', text: b.text ?? '' },
      );
      const usage = message.usage as Obj;
      const input = Number(usage.input);
      const output = Number(usage.output);
      sequence++;
      out.push({
        type: 'entry',
        id: `entry-${sequence}`,
        trace_id: traceId,
        span_id: `span-${sequence}`,
        parent_span_id: null,
        timestamp: String(line.timestamp),
        sequence,
        source: {
          tool: 'openclaw',
          tool_version: null,
          agent_role: 'main',
          collector: 'context-lens',
          collector_version: 'sample',
        },
        gen_ai: {
          system: 'anthropic',
          request: {
            model: 'claude-opus-4-8',
            max_tokens: null,
            temperature: null,
            top_p: null,
            stop_sequences: [],
          },
          response: {
            model: 'claude-opus-4-8',
            finish_reasons: [String(message.stopReason ?? 'stop')],
          },
          usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
        },
        usage_ext: {
          cache_read_tokens: Number(usage.cacheRead),
          cache_write_tokens: Number(usage.cacheWrite),
          thinking_tokens: 0,
          cost_usd: null,
        },
        http: {
          method: 'POST',
          url: 'https://api.anthropic.com/v1/messages',
          status_code: 200,
          api_format: 'anthropic-messages',
          stream: false,
          request_headers: {},
          response_headers: {},
        },
        timings: null,
        transfer: { request_bytes: 0, response_bytes: 0, compressed: false },
        context_lens: {
          window_size: 200_000,
          utilization: (input + Number(usage.cacheRead) + Number(usage.cacheWrite)) / 200_000,
          system_tokens: 0,
          tools_tokens: 0,
          messages_tokens: input + Number(usage.cacheRead) + Number(usage.cacheWrite),
          composition: [],
          growth: {
            tokens_added_this_turn: null,
            cumulative_tokens: input + Number(usage.cacheRead) + Number(usage.cacheWrite),
            compaction_detected: false,
          },
          security: { alerts: [], summary: { high: 0, medium: 0, info: 0 } },
        },
        raw: {
          request_body: { model: 'claude-opus-4-8', messages: structuredClone(history) },
          response_body: { type: 'message', role: 'assistant', content: blocks },
        },
      });
      history.push({ role: 'assistant', content: blocks });
    }
  }
  return `${out.map((entry) => JSON.stringify(entry)).join('\n')}\n`;
}

if (process.argv[1]?.endsWith('lhar-sample.ts')) {
  const corpus = join(import.meta.dirname, '../../../shared/corpus');
  process.stdout.write(createLharSample(readFileSync(join(corpus, SAMPLE_SOURCE), 'utf8')));
}
