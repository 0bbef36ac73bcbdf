/**
 * A transcript with its recorded usage removed from some of its API
 * responses, as the file would read had the runtime not written it (issue
 * 40's measure of the calibration): Claude Code `message.usage`, Codex
 * `token_count` info set to null, Gemini CLI `tokens`, OpenCode's
 * step-finish `tokens`, Amp's, Pi's and OpenClaw's `usage`, Kimi Code's
 * `step.end` usage. Written from the formats' own shapes (FORMATS.md, the
 * runtimes' sources), not from the importers: the usage is removed from the
 * raw file, and the importers read what is left.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One place a response's usage is written, and how to remove it. */
interface UsageHolder {
  /** Lines or objects of one response share a group (Claude Code repeats usage per line). */
  group: string;
  strip(): void;
}

/** The usage holders of one value, in document order (`at` numbers them when they have no id). */
function findHolders(value: Json, holders: UsageHolder[], at: { n: number }): void {
  if (Array.isArray(value)) {
    for (const item of value) findHolders(item, holders, at);
    return;
  }
  if (!isObject(value)) return;
  const own = holderOf(value, at);
  if (own) holders.push(own);
  for (const child of Object.values(value)) findHolders(child, holders, at);
}

function holderOf(o: JsonObject, at: { n: number }): UsageHolder | undefined {
  const message = o.message;
  // Claude Code and Amp's stream: {"type": "assistant", "message": {"id", "usage"}}.
  if (o.type === 'assistant' && isObject(message) && message.usage !== undefined) {
    const id = typeof message.id === 'string' && message.id !== '' ? message.id : `#${at.n++}`;
    return { group: `message:${id}`, strip: () => delete message.usage };
  }
  // Pi and OpenClaw: {"type": "message", "message": {"role": "assistant", "usage"}}; OpenClaw's
  // run summary (api "cli") repeats the final reply with the run's summed usage: no response.
  if (
    o.type === 'message' &&
    isObject(message) &&
    message.usage !== undefined &&
    message.api !== 'cli'
  ) {
    return { group: `entry:${String(o.id ?? at.n++)}`, strip: () => delete message.usage };
  }
  // Codex: an event_msg token_count with its info; the event stays, its info goes.
  const payload = o.payload;
  if (
    o.type === 'event_msg' &&
    isObject(payload) &&
    payload.type === 'token_count' &&
    isObject(payload.info)
  ) {
    const info = payload.info;
    const total = isObject(info.total_token_usage) ? info.total_token_usage.total_tokens : null;
    // A count written again unchanged is the same response's.
    return {
      group: `total:${String(total ?? at.n++)}`,
      strip: () => {
        payload.info = null;
      },
    };
  }
  if (o.type === 'token_usage_record' && isObject(payload) && payload.usage !== undefined) {
    return { group: `record:${at.n++}`, strip: () => delete payload.usage };
  }
  // Gemini CLI: {"type": "gemini", "id", "tokens"}; a message appended again keeps its id.
  if (o.type === 'gemini' && o.tokens !== undefined) {
    return { group: `gemini:${String(o.id ?? at.n++)}`, strip: () => delete o.tokens };
  }
  // OpenCode: a step-finish part's tokens.
  if (o.type === 'step-finish' && o.tokens !== undefined) {
    return { group: `step:${String(o.id ?? at.n++)}`, strip: () => delete o.tokens };
  }
  // Kimi Code: step.end's usage (usage.record lines repeat it and are not read).
  if (o.type === 'step.end' && o.usage !== undefined) {
    return { group: `step-end:${String(o.uuid ?? at.n++)}`, strip: () => delete o.usage };
  }
  // Amp's thread document: an assistant message's usage.
  if (o.role === 'assistant' && isObject(o.usage) && o.usage.inputTokens !== undefined) {
    return { group: `amp:${String(o.messageId ?? at.n++)}`, strip: () => delete o.usage };
  }
  return undefined;
}

/** A transcript's text parsed as JSON lines, or as one document when it is not lines. */
function parseTranscript(text: string): { values: Json[]; lines: boolean } {
  try {
    return { values: [JSON.parse(text) as Json], lines: false };
  } catch {
    const values = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Json);
    return { values, lines: true };
  }
}

/** How many responses of the transcript record usage. */
export function countUsageResponses(text: string): number {
  const { values } = parseTranscript(text);
  const holders: UsageHolder[] = [];
  const at = { n: 0 };
  for (const value of values) findHolders(value, holders, at);
  return new Set(holders.map((holder) => holder.group)).size;
}

/**
 * The transcript with the usage of every response after the first `keep`
 * (in file order) removed; `keep` 0 removes all of it.
 */
export function stripUsage(text: string, keep: number): string {
  const { values, lines } = parseTranscript(text);
  const holders: UsageHolder[] = [];
  const at = { n: 0 };
  for (const value of values) findHolders(value, holders, at);
  const order = [...new Set(holders.map((holder) => holder.group))];
  const kept = new Set(order.slice(0, keep));
  for (const holder of holders) if (!kept.has(holder.group)) holder.strip();
  return lines
    ? `${values.map((value) => JSON.stringify(value)).join('\n')}\n`
    : JSON.stringify(values[0]);
}
