/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
 * `{timestamp, type, payload}` per line. What the model sees is in the
 * `response_item` lines; `event_msg` lines repeat parts of it for the UI.
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { isUnknownCallItem } from './openai-responses.ts';
import {
  createRecordedUsage,
  type RecordedBy,
  type RecordedUsage,
  ResponseUsageTracker,
  readCount,
} from './recorded-usage.ts';
import type { JsonLine, JsonLines } from './source.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** The twelve line types of a rollout (Codex's `RolloutItem`, 2026). */
const LINE_TYPES = new Set([
  'session_meta',
  'response_item',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'compacted',
  'turn_context',
  'token_usage_record',
  'world_state',
  'security_risk_score',
  'retained_context',
  'event_msg',
  'realtime_item',
]);

/** Line types that hold no message: the harness's own state, skipped with a note each. */
const STATE_LINE_TYPES = new Set([
  'session_meta',
  'turn_context',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'world_state',
  'security_risk_score',
  'retained_context',
  'realtime_item',
]);

/**
 * User messages Codex writes itself before the user's prompt: the
 * environment, AGENTS.md and permission instructions. They are context the
 * harness injects, not the user's words.
 */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '<permissions instructions>',
  '<user_shell_command>',
  '# AGENTS.md instructions',
];

/** The name a Codex web search is imported under: its item type (it has no name of its own). */
export const WEB_SEARCH_TOOL = 'web_search_call';

/** What Codex calls its built-in shell tool when it records a `local_shell_call`. */
export const LOCAL_SHELL_TOOL = 'local_shell';

/** Whether parsed lines look like a Codex rollout; the reason when not. */
export function sniffCodex(lines: readonly JsonLine[]): Sniffed {
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) return misfit(`line ${line} is not a JSON object`);
    const type = getString(value, 'type');
    if (type !== undefined && LINE_TYPES.has(type) && isJsonObject(value.payload))
      return fits(`its first record (line ${line}) is a "${type}" with a "payload"`);
    return misfit(
      `line ${line} is not a {"type": "session_meta" | "response_item" | "event_msg" | …, "payload": {…}} record`,
    );
  }
  return misfit('the file has no lines');
}

/** The text of message content: a string, or its text parts joined. */
function messageText(content: JsonValue | undefined, line: number, out: StreamBuilder): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (isJsonObject(part) && typeof part.text === 'string') parts.push(part.text);
    else {
      out.note(
        'codex/non-text-content',
        'Non-text message parts (images, files) have no text to count; left out.',
        line,
      );
    }
  }
  return parts.join('\n');
}

/** What Codex sent ahead of the conversation, kept as its system prompt. */
interface SessionPrompt {
  /** The texts joined with blank lines. */
  text: string;
  time: JsonValue | undefined;
  line: number;
  instructions: boolean;
  developer: number;
  injected: number;
}

/** A message's text parts, each on its own. */
function textParts(content: JsonValue | undefined): string[] {
  if (typeof content === 'string') return [content];
  return (Array.isArray(content) ? content : []).flatMap((part) =>
    isJsonObject(part) && typeof part.text === 'string' && part.text !== '' ? [part.text] : [],
  );
}

/**
 * What Codex sends ahead of the conversation that the import leaves out of
 * it: the session's `base_instructions`, then the developer messages and
 * the context it injects before the first message the user typed. Kept
 * whole as a system prompt, so the replay can count it in the prefix every
 * request carries; later developer and context messages repeat it per turn
 * and stay out. Undefined when the rollout records none of it.
 */
function readSessionPrompt(lines: readonly JsonLine[]): SessionPrompt | undefined {
  const texts: string[] = [];
  let instructions = false;
  let developer = 0;
  let injected = 0;
  let first: { time: JsonValue | undefined; line: number } | undefined;
  const keep = (parts: string[], time: JsonValue | undefined, line: number) => {
    if (parts.length === 0) return false;
    texts.push(...parts);
    first ??= { time, line };
    return true;
  };
  for (const { line, value } of lines) {
    if (!isJsonObject(value) || !isJsonObject(value.payload)) continue;
    const payload = value.payload;
    if (value.type === 'session_meta' && !instructions) {
      const base = payload.base_instructions;
      const text = isJsonObject(base) ? base.text : base;
      instructions = typeof text === 'string' && keep([text], value.timestamp, line);
    } else if (value.type === 'event_msg' && payload.type === 'user_message') {
      break;
    } else if (value.type === 'response_item' && payload.type === 'message') {
      const parts = textParts(payload.content);
      if (payload.role === 'developer' || payload.role === 'system') {
        if (keep(parts, value.timestamp, line)) developer++;
      } else if (payload.role === 'user') {
        if (!isInjected(parts.join('\n'))) break;
        if (keep(parts, value.timestamp, line)) injected++;
      }
    }
  }
  if (first === undefined) return undefined;
  return { text: texts.join('\n\n'), ...first, instructions, developer, injected };
}

/** The note on the system prompt: what it holds. */
function describeSessionPrompt(prompt: SessionPrompt): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const held = [
    prompt.instructions ? "the session's base_instructions" : undefined,
    prompt.developer > 0 ? plural(prompt.developer, 'developer message') : undefined,
    prompt.injected > 0 ? plural(prompt.injected, 'injected context message') : undefined,
  ].filter((part) => part !== undefined);
  const list =
    held.length === 1 ? held[0] : `${held.slice(0, -1).join(', ')} and ${held.at(-1) as string}`;
  return `What Codex sent ahead of the first user message (${list}) is kept, joined with blank lines, as the system prompt of a config_delta at the start of the stream ({"assistant": {"system_prompt": …}}): not part of the conversation, but of every request's invisible prefix. Later developer and context messages are left out.`;
}

function isInjected(text: string): boolean {
  const start = text.trimStart();
  return INJECTED_PREFIXES.some((prefix) => start.startsWith(prefix));
}

/** Imports a Codex CLI rollout. */
export function importCodex(read: JsonLines): ImportResult {
  const out = new StreamBuilder('codex');

  // event_msg lines repeat what response_item lines hold; those that repeat nothing are kept.
  const said = {
    user: new Set<string>(),
    assistant: new Set<string>(),
    reasoning: new Set<string>(),
  };
  for (const { value } of read.lines) {
    if (!isJsonObject(value) || value.type !== 'response_item' || !isJsonObject(value.payload))
      continue;
    const payload = value.payload;
    if (payload.type === 'message') {
      const role = payload.role === 'assistant' ? 'assistant' : 'user';
      said[role].add(plainText(payload.content).trim());
    } else if (payload.type === 'reasoning') {
      for (const part of getArray(payload, 'summary')) {
        if (isJsonObject(part) && typeof part.text === 'string')
          said.reasoning.add(part.text.trim());
      }
    }
  }

  // Newer rollouts record each response's usage as a token_usage_record
  // line; older ones only as token_count events, which the newer ones still
  // write too: one source per file, so no response is counted twice.
  const usageFromRecords = read.lines.some(
    ({ value }) => isJsonObject(value) && value.type === 'token_usage_record',
  );
  const runtime = readRuntime(read.lines);
  const usage = new ResponseUsage(out, usageFromRecords, () => ({ ...runtime }));

  const prompt = readSessionPrompt(read.lines);
  if (prompt !== undefined) {
    out.configDelta({ assistant: { system_prompt: prompt.text } }, prompt.time, prompt.line);
    out.note('codex/system-prompt', describeSessionPrompt(prompt), prompt.line);
  }

  for (const { line, value } of read.lines) {
    if (!isJsonObject(value) || !isJsonObject(value.payload)) {
      out.skipLine(line, 'codex/bad-line', 'a {"type", "payload"} record');
      continue;
    }
    const time = value.timestamp;
    const payload = value.payload;
    switch (value.type) {
      case 'response_item':
        importItem(payload, time, line, out, usage.tracker);
        break;
      case 'event_msg':
        if (payload.type === 'token_count') usage.fromTokenCount(payload, line);
        else importEvent(payload, time, line, out, said, usage.tracker);
        break;
      case 'token_usage_record':
        usage.fromRecord(payload, line);
        break;
      case 'compacted':
        out.note(
          'codex/compacted',
          Array.isArray(payload.replacement_history)
            ? "Codex compacted the conversation here and recorded the history it goes on with (replacement_history); the items before are imported as they were, and Codex's summary and replacement history are skipped."
            : "Codex compacted the conversation here; the items before are imported as they were, and Codex's summary is skipped.",
          line,
        );
        break;
      case 'retained_context':
        out.note(
          'codex/retained_context',
          '"retained_context" lines (the user messages Codex keeps across a compaction) repeat messages already imported; skipped.',
          line,
        );
        break;
      default:
        if (value.type === 'turn_context' && typeof payload.model === 'string')
          runtime.model = payload.model;
        if (typeof value.type === 'string' && STATE_LINE_TYPES.has(value.type)) {
          out.note(
            `codex/${value.type}`,
            `"${value.type}" lines (the harness's own state: session settings, agents, world state) are not messages; skipped.`,
            line,
          );
          break;
        }
        out.note(
          `codex/unknown-${String(value.type)}`,
          `Lines of the unknown type "${String(value.type)}" are skipped.`,
          line,
        );
    }
  }
  usage.tracker.finish();
  return out.finish();
}

/**
 * What records a rollout's responses: Codex, its version and provider from
 * the first `session_meta`, and the model from the `turn_context` in force
 * (each turn's, updated as they come). Responses before the first
 * `turn_context` (a forked history copied in before it) take the first one
 * in the file, or the session's `model` where it records one.
 */
function readRuntime(lines: readonly JsonLine[]): RecordedBy {
  const runtime: RecordedBy = { runtime: 'codex' };
  let sessionModel: string | undefined;
  for (const { value } of lines) {
    if (!isJsonObject(value) || !isJsonObject(value.payload)) continue;
    const payload = value.payload;
    if (value.type === 'session_meta' && runtime.version === undefined) {
      runtime.version = getString(payload, 'cli_version');
      runtime.provider = getString(payload, 'model_provider');
      sessionModel = getString(payload, 'model');
    } else if (value.type === 'turn_context' && typeof payload.model === 'string') {
      runtime.model = payload.model;
      break;
    }
  }
  runtime.model ??= sessionModel;
  return runtime;
}

function plainText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return (Array.isArray(content) ? content : [])
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

function importItem(
  payload: JsonObject,
  time: JsonValue | undefined,
  line: number,
  out: StreamBuilder,
  tracker: ResponseUsageTracker,
) {
  switch (payload.type) {
    case 'message': {
      const text = messageText(payload.content, line, out);
      if (payload.role === 'assistant') {
        tracker.beginOutput();
        out.message(text, time, line);
      } else if (payload.role === 'user') {
        tracker.endOutput();
        if (isInjected(text)) {
          out.note(
            'codex/injected-context',
            "Context messages Codex injects (environment, AGENTS.md and permission instructions) are left out of the conversation: they are not the user's words and no hint applies to them (those before the first user message are in the config_delta at the start, codex/system-prompt).",
            line,
          );
        } else {
          out.userMessage(text, time, line);
        }
      } else {
        out.note(
          `codex/${String(payload.role)}-message`,
          `"${String(payload.role)}" messages (instructions Codex sends with every request) are left out of the conversation: JP keeps instructions in its config (those before the first user message are in the config_delta at the start, codex/system-prompt).`,
          line,
        );
      }
      return;
    }
    case 'reasoning': {
      const summary = getArray(payload, 'summary')
        .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
        .filter((part) => part !== '');
      const content = getArray(payload, 'content')
        .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
        .filter((part) => part !== '');
      const text = (summary.length > 0 ? summary : content).join('\n\n');
      tracker.beginOutput();
      if (text !== '') out.reasoning(text, time, line);
      if (typeof payload.encrypted_content === 'string') {
        out.note(
          'codex/encrypted-reasoning',
          text === ''
            ? 'Reasoning items with only encrypted content have no text; skipped.'
            : 'Reasoning items also carry encrypted content, which has no text; their summary text is imported.',
          line,
        );
      } else if (text === '') {
        out.note('codex/empty-reasoning', 'Reasoning items with no text are skipped.', line);
      }
      return;
    }
    case 'function_call':
    case 'custom_tool_call': {
      const id = getString(payload, 'call_id');
      const name = getString(payload, 'name');
      if (id === undefined || name === undefined) {
        out.skipItem(
          line,
          'codex/bad-call',
          `a ${payload.type} without a string "call_id" and "name"`,
        );
        return;
      }
      const raw = payload.type === 'function_call' ? payload.arguments : payload.input;
      const { args, wrapped } =
        payload.type === 'function_call'
          ? toArguments(raw)
          : { args: { input: raw ?? '' }, wrapped: false };
      tracker.beginOutput();
      if (out.toolCall(id, name, args, time, line) && wrapped) {
        out.note(
          'codex/arguments-not-object',
          'Arguments that are not a JSON object are kept whole under "input".',
          line,
        );
      }
      return;
    }
    case 'local_shell_call': {
      const id = getString(payload, 'call_id') ?? getString(payload, 'id');
      if (id === undefined) {
        out.skipItem(line, 'codex/bad-call', `a local_shell_call without "call_id"`);
        return;
      }
      const action = isJsonObject(payload.action) ? payload.action : {};
      tracker.beginOutput();
      out.toolCall(id, LOCAL_SHELL_TOOL, action, time, line);
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const id = getString(payload, 'call_id');
      if (id === undefined) {
        out.skipItem(line, 'codex/bad-output', `a ${payload.type} without a string "call_id"`);
        return;
      }
      // Codex records no error flag on outputs: none is inferred from the text.
      tracker.endOutput();
      out.toolResult(id, outputText(payload.output, line, out), false, time, line);
      return;
    }
    case 'web_search_call': {
      // A server-side tool: a call under its item type, so a hint can key on it.
      // Codex records the query but not what the search returned.
      const id =
        getString(payload, 'id') ?? getString(payload, 'call_id') ?? `web_search_call@${line}`;
      const action = isJsonObject(payload.action) ? payload.action : {};
      tracker.beginOutput();
      if (!out.toolCall(id, WEB_SEARCH_TOOL, action, time, line)) return;
      out.toolResult(id, '', payload.status === 'failed', time, line);
      out.note(
        'codex/web-search',
        'Web searches (web_search_call) are imported as calls of the tool "web_search_call" with an empty result: Codex records the query, not what the search returned.',
        line,
      );
      return;
    }
    default: {
      const type = String(payload.type);
      // A repeated one (a line written twice) is counted once.
      const call = isUnknownCallItem(type, payload) && out.sourceCall(String(payload.id));
      out.note(
        `codex/item-${type}`,
        `Response items of the type "${type}" (image generation and the like) have no JP event; skipped.`,
        line,
        call ? 1 : 0,
      );
    }
  }
}

function outputText(output: JsonValue | undefined, line: number, out: StreamBuilder): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return messageText(output, line, out);
  if (isJsonObject(output) && typeof output.content === 'string') return output.content;
  return output === undefined ? '' : JSON.stringify(output);
}

function importEvent(
  payload: JsonObject,
  time: JsonValue | undefined,
  line: number,
  out: StreamBuilder,
  said: { user: Set<string>; assistant: Set<string>; reasoning: Set<string> },
  tracker: ResponseUsageTracker,
) {
  const message = getString(payload, 'message') ?? getString(payload, 'text');
  const kind =
    payload.type === 'user_message'
      ? 'user'
      : payload.type === 'agent_message'
        ? 'assistant'
        : payload.type === 'agent_reasoning'
          ? 'reasoning'
          : undefined;
  if (kind === undefined || message === undefined) {
    out.note(
      'codex/event',
      'event_msg lines of other kinds (token counts, task start and end, command output shown in the UI) repeat or describe the session; skipped.',
      line,
    );
    return;
  }
  if (said[kind].has(message.trim())) {
    out.note(
      'codex/event-duplicate',
      'event_msg lines that repeat a response_item (the same user message, answer or reasoning) are skipped as duplicates.',
      line,
    );
    return;
  }
  out.note(
    'codex/event-only',
    'Messages recorded only as event_msg lines (no response_item holds them) are imported from there.',
    line,
  );
  if (kind === 'user') {
    tracker.endOutput();
    out.userMessage(message, time, line);
  } else {
    tracker.beginOutput();
    if (kind === 'assistant') out.message(message, time, line);
    else out.reasoning(message, time, line);
  }
}

/** Codex's usage figures (`input_tokens` includes `cached_input_tokens`) as recorded usage. */
function toRecordedUsage(figures: JsonValue | undefined): RecordedUsage | undefined {
  if (!isJsonObject(figures)) return undefined;
  return createRecordedUsage({
    prompt_tokens: readCount(figures.input_tokens),
    cache_read_tokens: readCount(figures.cached_input_tokens ?? 0),
    cache_write_tokens: readCount(figures.cache_write_input_tokens ?? 0),
    output_tokens: readCount(figures.output_tokens),
    reasoning_tokens: readCount(figures.reasoning_output_tokens),
  });
}

/** Puts each response's recorded usage on the response's first event. */
class ResponseUsage {
  readonly tracker: ResponseUsageTracker;
  private lastTotal: number | undefined;

  constructor(
    private readonly out: StreamBuilder,
    private readonly fromRecords: boolean,
    describe: () => RecordedBy,
  ) {
    this.tracker = new ResponseUsageTracker(out.elements, describe, true);
  }

  /** A `token_usage_record` line: one response's usage. */
  fromRecord(payload: JsonObject, line: number): void {
    this.keep(toRecordedUsage(payload.usage), line);
  }

  /** A `token_count` event: the last response's usage, unless the file has records. */
  fromTokenCount(payload: JsonObject, line: number): void {
    const info = isJsonObject(payload.info) ? payload.info : undefined;
    const total =
      info && isJsonObject(info.total_token_usage)
        ? readCount(info.total_token_usage.total_tokens)
        : undefined;
    if (!this.fromRecords && info === undefined && payload.info === null) {
      // The count of a response whose usage was not written: it still ends that response.
      this.tracker.close();
    }
    if (this.fromRecords || info === undefined) {
      this.out.note(
        'codex/event',
        'event_msg lines of other kinds (token counts, task start and end, command output shown in the UI) repeat or describe the session; skipped.',
        line,
      );
      return;
    }
    // Codex writes the count again, unchanged, when only its rate limits change.
    if (total !== undefined && total === this.lastTotal) {
      this.out.note(
        'codex/token-count-repeated',
        'token_count events that repeat the one before (the session total did not change) are no new response; skipped.',
        line,
      );
      return;
    }
    this.lastTotal = total;
    this.keep(toRecordedUsage(info.last_token_usage), line);
  }

  private keep(usage: RecordedUsage | undefined, line: number): void {
    if (usage === undefined) {
      this.out.note(
        'codex/usage-unreadable',
        'Usage records without whole input and output token counts are not kept.',
        line,
      );
    } else if (!this.tracker.attach(usage)) {
      this.out.note(
        'codex/usage-without-response',
        'Usage recorded where no response is waiting for it (no item of the model since the last usage, or only items with no event, such as encrypted reasoning) has no event to go on; not kept.',
        line,
      );
    }
  }
}
