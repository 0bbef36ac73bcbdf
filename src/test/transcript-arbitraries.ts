/**
 * fast-check generators for the loss guard's property (issue 20): small
 * conversations with tool calls of every kind (the agent's, server-side,
 * unknown item types), written out as the transcripts each format's agent
 * writes, with what agents really do to them (lines written twice, a
 * history written again on resume, inline subagents, rewound branches,
 * lines cut mid-write, bookkeeping lines, lines without `parentUuid`,
 * results whose call is not in the file, item types no importer knows,
 * rewinds). Each generated transcript comes with the number of distinct
 * tool calls it holds, counted here as it was written, never by the
 * importers. Shared pieces: the conversation (`turnsArbitrary`) and the
 * noise of any JSON Lines format (`lineNoise`, `writeLines`).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { importTranscript } from '../core/import/import.ts';
import { accountImport, describeImportAccount } from '../core/import/loss-guard.ts';
import type { ImportFormat } from '../core/import/types.ts';
import type { StreamElement } from '../core/types.ts';

/** A tool call of the model's conversation. */
interface Call {
  id: string;
  name: string;
  /** The agent's own tool, a server-side tool the API ran, or an item type no importer knows. */
  kind: 'agent' | 'server' | 'unknown';
}

interface Step {
  text: string;
  calls: Call[];
}

interface Turn {
  prompt: string;
  steps: Step[];
}

/** A transcript and how many distinct tool calls it holds. */
export interface GeneratedTranscript {
  text: string;
  calls: number;
  /** The ids of calls on a branch the user left (rewound, or left with `/tree`): in the file, never imported. */
  offBranch?: readonly string[];
}

const NAMES = ['Bash', 'Read', 'toString', '__proto__', 'mcp__fake__lookup'];
const SERVER_NAMES = ['web_search', 'code_execution', 'tool_search_tool_regex'];

const word = fc.constantFrom('fake', 'list files', 'ok', 'done', '');

function turnsArbitrary(kinds: readonly Call['kind'][]): fc.Arbitrary<Turn[]> {
  const call = fc.record({
    name: fc.constantFrom(...NAMES),
    server: fc.constantFrom(...SERVER_NAMES),
    kind: fc.constantFrom(...kinds),
  });
  const step = fc.record({ text: word, calls: fc.array(call, { maxLength: 3 }) });
  const turn = fc.record({ prompt: word, steps: fc.array(step, { minLength: 1, maxLength: 3 }) });
  return fc.array(turn, { minLength: 1, maxLength: 4 }).map((turns) => {
    let n = 0;
    return turns.map((t) => ({
      prompt: t.prompt,
      steps: t.steps.map((s) => ({
        text: s.text,
        calls: s.calls.map((c) => ({
          id: `call_${++n}`,
          name: c.kind === 'server' ? c.server : c.name,
          kind: c.kind,
        })),
      })),
    }));
  });
}

const distinct = (turns: readonly Turn[]) =>
  turns.reduce((sum, t) => sum + t.steps.reduce((s, step) => s + step.calls.length, 0), 0);

/** What agents do to a Claude Code session file. */
interface ClaudeNoise {
  duplicateLine: number | null;
  appendToItself: boolean;
  resumeCopy: boolean;
  subagentCalls: number;
  branchCalls: number;
  cutLine: number | null;
  bookkeeping: boolean;
  noParentUuid: boolean;
}

type Line = Record<string, unknown>;

/** Claude Code session files. */
export function claudeCodeTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({
    duplicateLine: fc.option(fc.nat(40)),
    appendToItself: fc.boolean(),
    resumeCopy: fc.boolean(),
    subagentCalls: fc.nat(3),
    branchCalls: fc.nat(2),
    cutLine: fc.option(fc.nat(40)),
    bookkeeping: fc.boolean(),
    noParentUuid: fc.boolean(),
  });
  return fc
    .tuple(turnsArbitrary(['agent', 'server']), noise)
    .map(([turns, n]) => writeClaudeCode(turns, n));
}

function writeClaudeCode(turns: readonly Turn[], noise: ClaudeNoise): GeneratedTranscript {
  let uuid = 0;
  let response = 0;
  let parent: string | null = null;
  const at = '2026-03-01T10:00:00.000Z';
  const line = (type: string, content: unknown, extra: Line = {}): Line => {
    const record: Line = {
      type,
      uuid: `l${++uuid}`,
      parentUuid: parent,
      timestamp: at,
      sessionId: 's',
      message: { role: type, content },
      ...extra,
    };
    parent = record.uuid as string;
    return record;
  };
  // One turn's lines; `prompt: true` lines are the user's prompts (the only ones the noise cuts).
  const writeTurn = (turn: Turn, out: Line[], prompts: Set<Line>, extra: Line = {}) => {
    const prompt = line('user', turn.prompt, extra);
    prompts.add(prompt);
    out.push(prompt);
    for (const step of turn.steps) {
      const id = `msg_${++response}`;
      if (step.text !== '') {
        out.push(line('assistant', [{ type: 'text', text: step.text }], messageId(id, extra)));
      }
      for (const call of step.calls) {
        const type = call.kind === 'server' ? 'server_tool_use' : 'tool_use';
        const blocks: Line[] = [{ type, id: call.id, name: call.name, input: {} }];
        if (call.kind === 'server') {
          blocks.push({ type: 'web_search_tool_result', tool_use_id: call.id, content: [] });
        }
        out.push(line('assistant', blocks, messageId(id, extra)));
      }
      const results = step.calls
        .filter((call) => call.kind === 'agent')
        .map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: 'fake' }));
      if (results.length > 0) out.push(line('user', results, extra));
    }
  };
  const messageId = (id: string, extra: Line) => ({ ...extra, messageId: id });

  const out: Line[] = [];
  const prompts = new Set<Line>();
  if (noise.bookkeeping) out.push({ type: 'summary', summary: 'fake', leafUuid: 'x' });
  let extraCalls = 0;
  const offBranch: string[] = [];
  for (const [index, turn] of turns.entries()) {
    writeTurn(turn, out, prompts);
    if (noise.bookkeeping) out.push({ type: 'ai-title', title: 'fake', sessionId: 's' });
    if (index === 0 && noise.branchCalls > 0 && !noise.noParentUuid) {
      // A rewound branch: written, then the user went back to the end of the first turn.
      const back: string | null = parent;
      const calls = Array.from({ length: noise.branchCalls }, (_, i) => ({
        id: `branch_${i}`,
        name: 'Bash',
        kind: 'agent' as const,
      }));
      writeTurn({ prompt: 'abandoned', steps: [{ text: '', calls }] }, out, new Set());
      extraCalls += calls.length;
      // Left only when the conversation went on after it (else it is the last branch, read),
      // no resume copied it onto the chain again (this resume copies every line so far), and
      // no line was cut (a cut prompt after it breaks the chain there: bridged through the branch).
      if (turns.length > 1 && !noise.resumeCopy && noise.cutLine === null)
        offBranch.push(...calls.map((call) => call.id));
      parent = back;
    }
    if (index === 0 && noise.subagentCalls > 0) {
      const back: string | null = parent;
      parent = null;
      const calls = Array.from({ length: noise.subagentCalls }, (_, i) => ({
        id: `sub_${i}`,
        name: 'Grep',
        kind: 'agent' as const,
      }));
      writeTurn({ prompt: 'subtask', steps: [{ text: '', calls }] }, out, new Set(), {
        isSidechain: true,
        agentId: 'agent1',
      });
      extraCalls += calls.length;
      parent = back;
    }
    if (index === 0 && noise.resumeCopy && turns.length > 1) {
      // The resume writes the history so far again under new uuids, then goes on.
      const copy = out
        .filter((record) => typeof record.uuid === 'string' && record.isSidechain !== true)
        .map((record) => ({ ...record }));
      const renamed = new Map<string, string>();
      for (const record of copy) {
        const fresh = `r${++uuid}`;
        renamed.set(record.uuid as string, fresh);
        record.uuid = fresh;
        record.parentUuid =
          record.parentUuid === null ? null : (renamed.get(record.parentUuid as string) ?? null);
      }
      out.push(...copy);
      parent = (copy.at(-1)?.uuid as string | undefined) ?? parent;
    }
  }
  // Assistant lines of one response share message.id, as Claude Code writes them.
  for (const record of out) {
    if (typeof record.messageId === 'string') {
      record.message = { ...(record.message as Line), id: record.messageId };
      delete record.messageId;
    }
    if (noise.noParentUuid) delete record.parentUuid;
  }
  if (noise.duplicateLine !== null && out.length > 0) {
    const at = noise.duplicateLine % out.length;
    out.splice(at, 0, out[at] as Line);
  }
  const texts = out.map((record) => {
    const text = JSON.stringify(record);
    // A prompt cut mid-write: it does not read, and it holds no call. Not the first:
    // a file whose one message does not read is refused, rightly.
    const first = out.find((r) => prompts.has(r));
    return prompts.has(record) &&
      record !== first &&
      noise.cutLine !== null &&
      out.indexOf(record) === noise.cutLine
      ? text.slice(0, text.length >> 1)
      : text;
  });
  const text = texts.join('\n');
  return {
    text: noise.appendToItself ? `${text}\n${text}` : text,
    calls: distinct(turns) + extraCalls,
    offBranch,
  };
}

/** Anthropic Messages request bodies, with server-side and MCP calls. */
export function anthropicTranscript(): fc.Arbitrary<GeneratedTranscript> {
  return turnsArbitrary(['agent', 'server']).map((turns) => {
    const messages: Line[] = [];
    for (const turn of turns) {
      messages.push({ role: 'user', content: [{ type: 'text', text: turn.prompt }] });
      for (const step of turn.steps) {
        const content: Line[] = [{ type: 'text', text: step.text }];
        for (const call of step.calls) {
          if (call.kind === 'server') {
            content.push({ type: 'server_tool_use', id: call.id, name: call.name, input: {} });
            content.push({ type: `${call.name}_tool_result`, tool_use_id: call.id, content: [] });
          } else {
            content.push({ type: 'tool_use', id: call.id, name: call.name, input: {} });
          }
        }
        content.push({ type: 'image', source: { type: 'base64', data: 'AA==' } });
        messages.push({ role: 'assistant', content });
        const results = step.calls
          .filter((call) => call.kind === 'agent')
          .map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: 'fake' }));
        if (results.length > 0) messages.push({ role: 'user', content: results });
      }
    }
    return { text: JSON.stringify({ model: 'fake', messages }), calls: distinct(turns) };
  });
}

/** OpenAI Responses inputs, with hosted tools and item types no importer knows. */
export function responsesTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const hosted = ['web_search_call', 'file_search_call', 'mcp_call', 'tool_search_call'];
  return turnsArbitrary(['agent', 'server', 'unknown']).map((turns) => {
    const input: Line[] = [];
    for (const turn of turns) {
      input.push({ type: 'message', role: 'user', content: turn.prompt });
      for (const step of turn.steps) {
        input.push({ type: 'message', role: 'assistant', content: step.text });
        for (const call of step.calls) {
          if (call.kind === 'agent') {
            input.push({
              type: 'function_call',
              call_id: call.id,
              name: call.name,
              arguments: '{}',
            });
            input.push({ type: 'function_call_output', call_id: call.id, output: 'fake' });
          } else if (call.kind === 'server') {
            const type = hosted[call.id.length % hosted.length] as string;
            input.push({ type, id: call.id, status: 'completed', name: call.name });
          } else {
            input.push({ type: 'future_tool_call', id: call.id, status: 'completed' });
          }
        }
        input.push({ type: 'item_reference', id: `ref_${input.length}` });
      }
    }
    return { text: JSON.stringify({ model: 'fake', input }), calls: distinct(turns) };
  });
}

/** OpenAI Chat Completions messages. */
export function chatTranscript(): fc.Arbitrary<GeneratedTranscript> {
  return turnsArbitrary(['agent']).map((turns) => {
    const messages: Line[] = [{ role: 'system', content: 'fake' }];
    for (const turn of turns) {
      messages.push({ role: 'user', content: turn.prompt });
      for (const step of turn.steps) {
        const calls = step.calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: '{}' },
        }));
        messages.push({
          role: 'assistant',
          content: step.text,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        });
        for (const call of step.calls) {
          messages.push({ role: 'tool', tool_call_id: call.id, content: 'fake' });
        }
      }
    }
    return { text: JSON.stringify({ model: 'fake', messages }), calls: distinct(turns) };
  });
}

/**
 * What agents do to a JSON Lines transcript of any format: a line written
 * twice, the whole file written again (a logger appending again, where the
 * format's importer reads a line written twice once), an orphan result,
 * bookkeeping lines.
 */
interface LineNoise {
  duplicate: number | null;
  appendToItself: boolean;
  orphan: number | null;
  bookkeeping: number | null;
}

const lineNoise: fc.Arbitrary<LineNoise> = fc.record({
  duplicate: fc.option(fc.nat(40)),
  appendToItself: fc.boolean(),
  orphan: fc.option(fc.nat(40)),
  bookkeeping: fc.option(fc.nat(40)),
});

/** How one JSON Lines format writes the lines the noise adds. */
interface LineFormat {
  /** Lines at the start that stay first (a header), which the noise never precedes. */
  header: number;
  /** A result whose call is nowhere in the file, where the format records results apart. */
  orphan?: (id: string) => Line;
  /** A line that is no message: the format's bookkeeping or a type no importer knows. */
  bookkeeping: () => Line;
  /** How a line is added at `at` (where lines link to their parent, it joins the chain there). */
  insert?: (out: Line[], at: number, line: Line) => void;
  /** Whether its importer reads a line written twice once (issue 43, item 8): then the file may be written again whole. */
  readsLinesOnce?: boolean;
}

/** The lines with the noise applied, as JSON Lines text. */
function writeLines(lines: readonly Line[], noise: LineNoise, format: LineFormat): string {
  const out = [...lines];
  const at = (pick: number) => format.header + (pick % (out.length - format.header + 1));
  const insert = format.insert ?? ((into, index, line) => into.splice(index, 0, line));
  if (noise.orphan !== null && format.orphan !== undefined) {
    insert(out, at(noise.orphan), format.orphan('orphan_1'));
  }
  if (noise.bookkeeping !== null) insert(out, at(noise.bookkeeping), format.bookkeeping());
  if (noise.duplicate !== null && out.length > format.header) {
    const index = format.header + (noise.duplicate % (out.length - format.header));
    out.splice(index, 0, out[index] as Line);
  }
  const text = out.map((line) => JSON.stringify(line)).join('\n');
  return noise.appendToItself && format.readsLinesOnce ? `${text}\n${text}` : text;
}

const AT = '2026-03-01T10:00:00.000Z';

/**
 * Pi's session lines (OpenClaw writes the same, with its own `custom`
 * entries), each entry the child of the one before, except where the user
 * went back with `/tree`: after the first turn, `branchCalls` calls were
 * made on a branch the user then left (with a `branch_summary` where
 * `summary`), and the conversation goes on from the end of the first turn.
 */
function piLines(turns: readonly Turn[], openClaw: boolean, branch: PiBranch): Line[] {
  let n = 0;
  let parent: string | null = null;
  const entry = (fields: Line): Line => {
    const id = `e${++n}`;
    const line: Line = { ...fields, id, parentId: parent, timestamp: AT };
    parent = id;
    return line;
  };
  const message = (body: Line) => entry({ type: 'message', message: body });
  const lines: Line[] = [{ type: 'session', version: 3, id: 's', timestamp: AT, cwd: '/' }];
  if (openClaw) lines.push(entry({ type: 'custom', customType: 'model-snapshot', data: {} }));
  const writeTurn = (turn: Turn) => {
    lines.push(message({ role: 'user', content: [{ type: 'text', text: turn.prompt }] }));
    for (const step of turn.steps) {
      const content: Line[] = [{ type: 'text', text: step.text }];
      for (const call of step.calls) {
        content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: {} });
      }
      lines.push(message({ role: 'assistant', content }));
      for (const call of step.calls) lines.push(message(piResult(call.id)));
    }
  };
  for (const [index, turn] of turns.entries()) {
    writeTurn(turn);
    if (index !== 0 || branch.calls === 0) continue;
    const back: string | null = parent;
    const calls = Array.from({ length: branch.calls }, (_, i) => ({
      id: `branch_${i}`,
      name: 'Bash',
      kind: 'agent' as const,
    }));
    writeTurn({ prompt: 'abandoned', steps: [{ text: '', calls }] });
    const left: string | null = parent;
    parent = back;
    if (branch.summary)
      lines.push(entry({ type: 'branch_summary', fromId: left, summary: 'fake' }));
  }
  return lines;
}

/** A branch the user left with `/tree` after the first turn: its calls, and whether Pi summarised it. */
interface PiBranch {
  calls: number;
  summary: boolean;
}

const piResult = (id: string): Line => ({
  role: 'toolResult',
  toolCallId: id,
  content: [{ type: 'text', text: 'fake' }],
  isError: false,
});

/**
 * A line added to a Pi session as Pi appends: the child of the entry before
 * it, and the parent of the entry after it where that was the child of the
 * one before (so it joins the chain, on whatever branch it lands).
 */
function insertPiEntry(out: Line[], at: number, line: Line): void {
  const before = out[at - 1];
  const after = out[at];
  const parent = typeof before?.id === 'string' && before.type !== 'session' ? before.id : null;
  const added: Line = { ...line, parentId: parent };
  if (after !== undefined && after.parentId === parent && parent !== null)
    after.parentId = added.id;
  out.splice(at, 0, added);
}

function piTranscript(openClaw: boolean): fc.Arbitrary<GeneratedTranscript> {
  const header = 1;
  const branch = fc.record({ calls: fc.nat(2), summary: fc.boolean() });
  return fc.tuple(turnsArbitrary(['agent']), lineNoise, branch).map(([turns, noise, left]) => ({
    text: writeLines(piLines(turns, openClaw, left), noise, {
      header,
      orphan: (id) => ({ type: 'message', id: 'o', timestamp: AT, message: piResult(id) }),
      bookkeeping: () => ({ type: 'future_entry', id: 'b', timestamp: AT }),
      insert: insertPiEntry,
      readsLinesOnce: true,
    }),
    calls: distinct(turns) + left.calls,
    // Left when the session went on after it, or Pi's summary of it hangs off the turn before.
    offBranch:
      turns.length > 1 || left.summary
        ? Array.from({ length: left.calls }, (_, i) => `branch_${i}`)
        : [],
  }));
}

/** Pi coding agent sessions. */
export const piSessionTranscript = () => piTranscript(false);

/** OpenClaw sessions. */
export const openClawTranscript = () => piTranscript(true);

/**
 * Kimi CLI contexts, with Kimi's bookkeeping roles. Call ids are Kimi's
 * `Name:N`, its counter restarting from a turn on where `restartAt` says
 * (a new process): an id used again by another call where the number
 * repeats under the same name. Arguments name the call's place, so such a
 * call is another call (issue 43, item 9); counted here by id, name and
 * arguments.
 */
export function kimiCliTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const result = (id: string): Line => ({
    role: 'tool',
    tool_call_id: id,
    content: [{ type: 'text', text: 'fake' }],
  });
  const restart = fc.option(fc.nat(3));
  return fc
    .tuple(turnsArbitrary(['agent']), lineNoise, restart)
    .map(([turns, noise, restartAt]) => {
      const lines: Line[] = [{ role: '_checkpoint', id: 0 }];
      const written = new Set<string>();
      let counter = 0;
      let place = 0;
      for (const [t, turn] of turns.entries()) {
        if (t === restartAt) {
          counter = 0;
          lines.push({ role: '_checkpoint', id: 0 });
        }
        lines.push({ role: 'user', content: turn.prompt });
        for (const step of turn.steps) {
          const calls = step.calls.map((call) => {
            const id = `${call.name}:${counter++}`;
            const args = JSON.stringify({ place: place++ });
            written.add(JSON.stringify([id, call.name, args]));
            return { type: 'function', id, function: { name: call.name, arguments: args } };
          });
          lines.push({
            role: 'assistant',
            content: [{ type: 'text', text: step.text }],
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          });
          for (const call of calls) lines.push(result(call.id));
        }
      }
      return {
        text: writeLines(lines, noise, {
          header: 1,
          orphan: result,
          bookkeeping: () => ({ role: '_usage', token_count: 10 }),
          readsLinesOnce: true,
        }),
        calls: written.size,
      };
    });
}

/** GitHub Copilot CLI events, each call also announced by `tool.execution_start`; some calls only there. */
export function copilotTranscript(): fc.Arbitrary<GeneratedTranscript> {
  return fc
    .tuple(turnsArbitrary(['agent']), lineNoise, fc.nat(2))
    .map(([turns, noise, startOnly]) => {
      let n = 0;
      const event = (type: string, data: Line): Line => ({
        type,
        data,
        id: `ev${++n}`,
        timestamp: AT,
        parentId: n === 1 ? null : `ev${n - 1}`,
      });
      const start = (id: string, name: string) =>
        event('tool.execution_start', { toolCallId: id, toolName: name, arguments: {} });
      const complete = (id: string) =>
        event('tool.execution_complete', {
          toolCallId: id,
          success: true,
          result: { content: 'fake' },
        });
      const lines: Line[] = [event('session.start', { sessionId: 's', version: 1 })];
      for (const [index, turn] of turns.entries()) {
        lines.push(event('user.message', { content: turn.prompt }));
        for (const step of turn.steps) {
          const toolRequests = step.calls.map((call) => ({
            toolCallId: call.id,
            name: call.name,
            arguments: {},
          }));
          lines.push(event('assistant.message', { content: step.text, toolRequests }));
          for (const call of step.calls) lines.push(start(call.id, call.name), complete(call.id));
        }
        // Calls Copilot ran without the assistant requesting them (a hook's), known only by their start.
        if (index === 0) {
          for (let i = 0; i < startOnly; i++)
            lines.push(start(`start_${i}`, 'Bash'), complete(`start_${i}`));
        }
      }
      return {
        text: writeLines(lines, noise, {
          header: 1,
          orphan: complete,
          bookkeeping: () => event('session.model_change', { newModel: 'auto' }),
          readsLinesOnce: true,
        }),
        calls: distinct(turns) + startOnly,
      };
    });
}

/** Codex CLI rollouts, with web searches and response items no importer knows. */
export function codexTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const item = (payload: Line): Line => ({ timestamp: AT, type: 'response_item', payload });
  const output = (id: string) =>
    item({ type: 'function_call_output', call_id: id, output: 'fake' });
  const message = (role: string, part: string, text: string) =>
    item({ type: 'message', role, content: [{ type: part, text }] });
  return fc
    .tuple(turnsArbitrary(['agent', 'server', 'unknown']), lineNoise)
    .map(([turns, noise]) => {
      const lines: Line[] = [
        { timestamp: AT, type: 'session_meta', payload: { id: 's', cwd: '/' } },
      ];
      for (const turn of turns) {
        lines.push(message('user', 'input_text', turn.prompt));
        for (const step of turn.steps) {
          lines.push(message('assistant', 'output_text', step.text));
          for (const call of step.calls) {
            if (call.kind === 'agent') {
              lines.push(
                item({ type: 'function_call', call_id: call.id, name: call.name, arguments: '{}' }),
              );
              lines.push(output(call.id));
            } else if (call.kind === 'server') {
              lines.push(
                item({ type: 'web_search_call', id: call.id, status: 'completed', action: {} }),
              );
            } else {
              lines.push(item({ type: 'image_generation_call', id: call.id, status: 'completed' }));
            }
          }
        }
      }
      return {
        text: writeLines(lines, noise, {
          header: 1,
          orphan: output,
          bookkeeping: () => ({ timestamp: AT, type: 'turn_context', payload: { cwd: '/' } }),
        }),
        calls: distinct(turns),
      };
    });
}

/** What Gemini CLI does to a session: messages written again as they grow, a rewind, notices. */
interface GeminiNoise {
  rewoundCalls: number;
  growth: boolean;
  notice: boolean;
}

/** Gemini CLI sessions, as JSON Lines (`lines: true`) or the older JSON document. */
function geminiTranscript(lines: boolean): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({ rewoundCalls: fc.nat(2), growth: fc.boolean(), notice: fc.boolean() });
  return fc
    .tuple(turnsArbitrary(['agent']), noise, lineNoise)
    .map(([turns, gemini, line]) => writeGemini(turns, gemini, line, lines));
}

function writeGemini(
  turns: readonly Turn[],
  noise: GeminiNoise,
  line: LineNoise,
  lines: boolean,
): GeneratedTranscript {
  let n = 0;
  const message = (type: string, content: string, extra: Line = {}): Line => ({
    id: `m${++n}`,
    timestamp: AT,
    type,
    content: [{ text: content }],
    ...extra,
  });
  const toolCall = (call: Call): Line => ({
    id: call.id,
    name: call.name,
    args: {},
    result: [{ functionResponse: { id: call.id, name: call.name, response: { output: 'fake' } } }],
    status: 'success',
    timestamp: AT,
  });
  const records: Line[] = [];
  const writeTurn = (turn: Turn) => {
    records.push(message('user', turn.prompt));
    for (const step of turn.steps) {
      const answer = message('gemini', step.text, { toolCalls: step.calls.map(toolCall) });
      // Gemini CLI appends the message each time it grows: first with no calls yet.
      if (lines && noise.growth) records.push({ ...answer, toolCalls: [] });
      records.push(answer);
    }
  };
  let extraCalls = 0;
  for (const [index, turn] of turns.entries()) {
    writeTurn(turn);
    if (noise.notice) records.push(message(index === 0 ? 'info' : 'warning', 'fake'));
    if (index === 0 && lines && noise.rewoundCalls > 0) {
      // A turn the user went back from: written, then `$rewindTo` its prompt.
      const calls = Array.from({ length: noise.rewoundCalls }, (_, i) => ({
        id: `rewound_${i}`,
        name: 'Bash',
        kind: 'agent' as const,
      }));
      const prompt = `m${n + 1}`;
      writeTurn({ prompt: 'abandoned', steps: [{ text: '', calls }] });
      records.push({ $rewindTo: prompt });
      extraCalls += calls.length;
    }
  }
  const calls = distinct(turns) + extraCalls;
  if (!lines) {
    return {
      text: JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: AT, messages: records }),
      calls,
    };
  }
  const header = { sessionId: 's', projectHash: 'p', startTime: AT, kind: 'main' };
  return {
    text: writeLines([header, ...records], line, {
      header: 1,
      bookkeeping: () => ({ $set: { lastUpdated: AT } }),
    }),
    calls,
  };
}

/** Gemini CLI sessions as JSON Lines. */
export const geminiLinesTranscript = () => geminiTranscript(true);

/** Gemini CLI sessions as one JSON document. */
export const geminiDocumentTranscript = () => geminiTranscript(false);

/** OpenCode session exports: steps, bookkeeping parts, calls still running, parts no importer knows. */
export function openCodeTranscript(): fc.Arbitrary<GeneratedTranscript> {
  return fc.tuple(turnsArbitrary(['agent']), fc.boolean()).map(([turns, running]) => {
    const time = { created: 1772359200000 };
    const messages: Line[] = [];
    for (const [index, turn] of turns.entries()) {
      messages.push({
        info: { id: `u${index}`, role: 'user', time },
        parts: [{ type: 'text', text: turn.prompt }],
      });
      for (const [s, step] of turn.steps.entries()) {
        const tools = step.calls.map((call, c) => {
          // The last call of the last step still running when exported, with no output.
          const last = running && c === step.calls.length - 1 && s === turn.steps.length - 1;
          const state = last
            ? { status: 'running', input: {}, time: { start: time.created } }
            : { status: 'completed', input: {}, output: 'fake', time: { start: time.created } };
          return { type: 'tool', callID: call.id, tool: call.name, state };
        });
        messages.push({
          info: { id: `a${index}_${s}`, role: 'assistant', time },
          parts: [
            { type: 'step-start' },
            { type: 'text', text: step.text },
            ...tools,
            { type: 'agent', name: 'fake' },
            { type: 'step-finish', tokens: { input: 1, output: 1 } },
          ],
        });
      }
    }
    return {
      text: JSON.stringify({ info: { id: 's', title: 'fake' }, messages }),
      calls: distinct(turns),
    };
  });
}

/** Kimi Code wire journals: loop events, with operations that are not messages. */
export function kimiCodeTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const at = 1772359200000;
  const event = (body: Line): Line => ({
    type: 'context.append_loop_event',
    event: body,
    time: at,
  });
  const result = (id: string) =>
    event({ type: 'tool.result', toolCallId: id, result: { output: 'fake' } });
  return fc.tuple(turnsArbitrary(['agent']), lineNoise).map(([turns, noise]) => {
    const lines: Line[] = [{ type: 'metadata', protocol_version: '1', created_at: at }];
    for (const turn of turns) {
      lines.push({
        type: 'context.append_message',
        message: { role: 'user', content: [{ type: 'text', text: turn.prompt }] },
        time: at,
      });
      for (const step of turn.steps) {
        lines.push(event({ type: 'step.begin' }));
        lines.push(event({ type: 'content.part', part: { type: 'text', text: step.text } }));
        for (const call of step.calls) {
          lines.push(event({ type: 'tool.call', toolCallId: call.id, name: call.name, args: {} }));
        }
        lines.push(event({ type: 'step.end' }));
        for (const call of step.calls) lines.push(result(call.id));
      }
    }
    return {
      text: writeLines(lines, noise, {
        header: 1,
        orphan: result,
        bookkeeping: () => ({ type: 'turn.prompt', text: 'fake', time: at }),
      }),
      calls: distinct(turns),
    };
  });
}

/** Amp thread exports: `toolUseID` results under `run`, encrypted thinking, a message written twice, a role no importer reads. */
export function ampThreadTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({ repeat: fc.option(fc.nat(40)), other: fc.boolean() });
  return fc.tuple(turnsArbitrary(['agent']), noise).map(([turns, n]) => {
    const messages: Line[] = [];
    for (const turn of turns) {
      messages.push({ role: 'user', content: [{ type: 'text', text: turn.prompt }] });
      for (const step of turn.steps) {
        const content: Line[] = [
          { type: 'thinking', thinking: '', signature: 'fake' },
          { type: 'text', text: step.text },
        ];
        for (const call of step.calls) {
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: {} });
        }
        messages.push({ role: 'assistant', content, usage: { inputTokens: 1, outputTokens: 1 } });
        const results = step.calls.map((call) => ({
          type: 'tool_result',
          toolUseID: call.id,
          run: { status: 'done', result: { output: 'fake', exitCode: 0 } },
        }));
        if (results.length > 0) messages.push({ role: 'user', content: results });
      }
    }
    if (n.repeat !== null) {
      const index = n.repeat % messages.length;
      messages.splice(index, 0, messages[index] as Line);
    }
    if (n.other) messages.push({ role: 'info', content: [] });
    return {
      text: JSON.stringify({ v: 73, id: 'T-00000000-0000-4000-8000-000000000000', messages }),
      calls: distinct(turns),
    };
  });
}

const AMP_THREAD = 'T-00000000-0000-4000-8000-000000000000';

/**
 * Amp `--stream-json` lines: results by `tool_use_id` as strings, a closing
 * `result` line (written twice in the real sample), calls the run ended
 * before answering, a line type newer than the importer, and a `tool_use`
 * without a name (no Amp build writes one, but a call the importer cannot
 * import must still be counted as left out). No server tools (Amp runs web
 * search as a tool of its own) and no block without an id (Amp writes a
 * `TU-…` id on every one).
 */
export function ampStreamTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({ unanswered: fc.boolean(), nameless: fc.boolean() });
  const line = (type: string, fields: Line): Line => ({
    type,
    ...fields,
    parent_tool_use_id: null,
    session_id: AMP_THREAD,
  });
  const results = (ids: readonly string[]): Line =>
    line('user', {
      message: {
        role: 'user',
        content: ids.map((id) => ({
          type: 'tool_result',
          tool_use_id: id,
          content: '{"output":"fake"}',
          is_error: false,
        })),
      },
    });
  return fc.tuple(turnsArbitrary(['agent']), noise, lineNoise).map(([turns, n, lines]) => {
    const out: Line[] = [line('system', { subtype: 'init', cwd: '/', tools: ['shell_command'] })];
    let nameless = n.nameless;
    for (const [t, turn] of turns.entries()) {
      out.push(
        line('user', { message: { role: 'user', content: [{ type: 'text', text: turn.prompt }] } }),
      );
      for (const [s, step] of turn.steps.entries()) {
        const content: Line[] = [{ type: 'text', text: step.text }];
        for (const call of step.calls) {
          const block: Line = { type: 'tool_use', id: call.id, name: call.name, input: {} };
          if (nameless) {
            delete block.name;
            nameless = false;
          }
          content.push(block);
        }
        out.push(
          line('assistant', {
            message: {
              type: 'message',
              role: 'assistant',
              content,
              usage: { input_tokens: 1, cache_read_input_tokens: 0, output_tokens: 1 },
            },
          }),
        );
        // The run stopped before the last step's tools answered.
        const last = t === turns.length - 1 && s === turn.steps.length - 1;
        if (step.calls.length > 0 && !(last && n.unanswered))
          out.push(results(step.calls.map((call) => call.id)));
      }
    }
    out.push(line('result', { subtype: 'success', is_error: false, result: 'fake' }));
    return {
      text: writeLines(out, lines, {
        header: 1,
        orphan: (id) => results([id]),
        bookkeeping: () => line('stream_event', { event: { type: 'message_start' } }),
        readsLinesOnce: true,
      }),
      calls: distinct(turns),
    };
  });
}

/** The API whose bodies an LHAR recording holds. */
type LharApi = 'anthropic' | 'chat' | 'responses';

/** One model call: the history its request sent, and the answer its response held. */
interface LharCall {
  request: Line[];
  answer: Line[];
}

/** A conversation as an API's model calls; `nameless`: the first call is written without its name. */
function lharCalls(api: LharApi, turns: readonly Turn[], nameless: boolean): LharCall[] {
  const history: Line[] = [];
  const calls: LharCall[] = [];
  let unnamed = nameless;
  const name = (call: Call): Line => {
    if (!unnamed) return { name: call.name };
    unnamed = false;
    return {};
  };
  for (const turn of turns) {
    history.push(
      api === 'chat'
        ? { role: 'user', content: turn.prompt }
        : api === 'anthropic'
          ? { role: 'user', content: [{ type: 'text', text: turn.prompt }] }
          : { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.prompt }] },
    );
    for (const step of turn.steps) {
      let answer: Line[];
      let answered: Call[];
      if (api === 'anthropic') {
        // The API ran the server tools and put their results in the answer; an unknown kind is the agent's.
        const content: Line[] = [{ type: 'text', text: step.text }];
        for (const call of step.calls) {
          if (call.kind === 'server') {
            content.push({ type: 'server_tool_use', id: call.id, ...name(call), input: {} });
            content.push({ type: 'web_search_tool_result', tool_use_id: call.id, content: [] });
          } else content.push({ type: 'tool_use', id: call.id, ...name(call), input: {} });
        }
        answer = [{ role: 'assistant', content }];
        answered = step.calls.filter((call) => call.kind !== 'server');
      } else if (api === 'chat') {
        // Chat Completions has no hosted tools: every call is a function the agent runs.
        const toolCalls = step.calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { ...name(call), arguments: '{}' },
        }));
        answer = [
          {
            role: 'assistant',
            content: step.text,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
        ];
        answered = step.calls;
      } else {
        answer = [
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: step.text }],
          },
        ];
        for (const call of step.calls) {
          if (call.kind === 'agent') {
            answer.push({
              type: 'function_call',
              call_id: call.id,
              ...name(call),
              arguments: '{}',
            });
          } else if (call.kind === 'server') {
            answer.push({
              type: 'web_search_call',
              id: call.id,
              status: 'completed',
              action: { type: 'search', query: 'fake' },
            });
          } else answer.push({ type: 'future_tool_call', id: call.id, status: 'completed' });
        }
        answered = step.calls.filter((call) => call.kind === 'agent');
      }
      calls.push({ request: [...history], answer });
      history.push(...answer);
      if (answered.length === 0) continue;
      if (api === 'anthropic') {
        history.push({
          role: 'user',
          content: answered.map((call) => ({
            type: 'tool_result',
            tool_use_id: call.id,
            content: 'fake',
          })),
        });
      } else {
        for (const call of answered) {
          history.push(
            api === 'chat'
              ? { role: 'tool', tool_call_id: call.id, content: 'fake' }
              : { type: 'function_call_output', call_id: call.id, output: 'fake' },
          );
        }
      }
    }
  }
  return calls;
}

/** A response body as the API returns it whole. */
function lharBody(api: LharApi, answer: readonly Line[]): Line {
  if (api === 'anthropic') return { type: 'message', ...(answer[0] as Line) };
  if (api === 'chat')
    return { choices: [{ index: 0, message: answer[0] as Line, finish_reason: 'stop' }] };
  return { object: 'response', status: 'completed', output: answer };
}

/** A response body as the proxy keeps a streamed one: its server-sent events. */
function lharStream(api: LharApi, answer: readonly Line[], completed: boolean): string {
  const events: Line[] = [];
  if (api === 'anthropic') {
    events.push({ type: 'message_start', message: { role: 'assistant', content: [] } });
    const blocks = ((answer[0] as Line).content as Line[]) ?? [];
    for (const [index, block] of blocks.entries()) {
      if (block.type === 'text') {
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        });
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: '{}' },
        });
      } else events.push({ type: 'content_block_start', index, content_block: block });
      events.push({ type: 'content_block_stop', index });
    }
    events.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
    events.push({ type: 'message_stop' });
  } else if (api === 'chat') {
    const message = answer[0] as Line;
    const chunk = (delta: Line) => ({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta }],
    });
    events.push(chunk({ role: 'assistant', content: message.content }));
    const toolCalls = (message.tool_calls as Line[] | undefined) ?? [];
    for (const [index, call] of toolCalls.entries()) {
      const fn = call.function as Line;
      events.push(
        chunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { ...fn, arguments: '' } },
          ],
        }),
      );
      events.push(chunk({ tool_calls: [{ index, function: { arguments: '{}' } }] }));
    }
  } else {
    events.push({ type: 'response.created', response: { status: 'in_progress', output: [] } });
    for (const [index, item] of answer.entries())
      events.push({ type: 'response.output_item.done', output_index: index, item });
    if (completed)
      events.push({
        type: 'response.completed',
        response: { status: 'completed', output: answer },
      });
  }
  const data = events.map(
    (event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`,
  );
  return `${data.join('')}${api === 'chat' ? 'data: [DONE]\n\n' : ''}`;
}

/** How the proxy kept a response: whole, as its event stream, or not (`raw: true`, no body captured). */
type LharKept = 'json' | 'stream' | 'none';

/**
 * Context Lens LHAR recordings with full privacy off: one entry per model
 * call of a main agent and a subagent, in Anthropic, Chat Completions or
 * Responses bodies, with server-side and unknown call items, responses kept
 * whole, as event streams or not at all, a recording that began after the
 * conversation did, entries written out of order, an entry written twice,
 * a session line again, the wrapped `.lhar.json` form, and a call without
 * its name. A call counts when the file holds it: in a response kept, or in
 * a later request of its conversation, which repeats it.
 */
export function lharTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({
    api: fc.constantFrom<LharApi>('anthropic', 'chat', 'responses'),
    kept: fc.array(fc.constantFrom<LharKept>('json', 'stream', 'none'), {
      minLength: 1,
      maxLength: 12,
    }),
    completed: fc.boolean(),
    late: fc.nat(2),
    subagentCalls: fc.nat(2),
    swap: fc.option(fc.nat(20)),
    nameless: fc.boolean(),
    wrapped: fc.boolean(),
  });
  return fc
    .tuple(turnsArbitrary(['agent', 'server', 'unknown']), noise, lineNoise)
    .map(([turns, n, lines]) => {
      const trace = 'a'.repeat(32);
      const main = lharCalls(n.api, turns, n.nameless);
      const subagent =
        n.subagentCalls === 0
          ? []
          : lharCalls(
              n.api,
              [
                {
                  prompt: 'subtask',
                  steps: [
                    {
                      text: '',
                      calls: Array.from({ length: n.subagentCalls }, (_, i) => ({
                        id: `sub_${i}`,
                        name: 'Grep',
                        kind: 'agent' as const,
                      })),
                    },
                    { text: 'done', calls: [] },
                  ],
                },
              ],
              false,
            );
      let calls = 0;
      let kept = 0;
      const entries: { role: string; call: LharCall; how: LharKept }[] = [];
      const record = (conversation: LharCall[], role: string, skip: number) => {
        for (const [index, call] of conversation.entries()) {
          const how = n.kept[kept++ % n.kept.length] as LharKept;
          const last = index === conversation.length - 1;
          // Its calls are in the file if its response was kept or a later request repeats them.
          const ids = call.answer.flatMap(callIdsOf);
          if (!last || how !== 'none') calls += new Set(ids).size;
          if (index < skip) continue;
          entries.push({ role, call, how });
        }
      };
      // The recording began after the main agent's first calls: its first request holds them.
      record(main, 'main', Math.min(n.late, main.length - 1));
      record(subagent, 'subagent', 0);
      // The subagent ran during the main agent's first recorded call.
      const order = [...entries.filter((e) => e.role === 'main')];
      order.splice(1, 0, ...entries.filter((e) => e.role === 'subagent'));
      const written = order.map((entry, index): Line => {
        const call = entry.call;
        const body =
          entry.how === 'json'
            ? lharBody(n.api, call.answer)
            : entry.how === 'stream'
              ? lharStream(n.api, call.answer, n.completed)
              : null;
        const request =
          n.api === 'responses'
            ? { model: 'fake', input: call.request, stream: entry.how === 'stream' }
            : { model: 'fake', messages: call.request, stream: entry.how === 'stream' };
        return {
          type: 'entry',
          id: `entry-${index + 1}`,
          trace_id: trace,
          span_id: `span-${index + 1}`,
          parent_span_id: null,
          timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, index)).toISOString(),
          sequence: index + 1,
          source: { tool: 'fake', agent_role: entry.role, collector: 'context-lens' },
          gen_ai: {
            system: n.api === 'anthropic' ? 'anthropic' : 'openai',
            request: { model: 'fake' },
            usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
          },
          usage_ext: { cache_read_tokens: 0, cache_write_tokens: 0, thinking_tokens: 0 },
          raw: { request_body: request, response_body: body },
        };
      });
      // Entries are written as calls finish: a later call can finish first.
      if (n.swap !== null && written.length > 1) {
        const at = n.swap % (written.length - 1);
        [written[at], written[at + 1]] = [written[at + 1] as Line, written[at] as Line];
      }
      const session = {
        type: 'session',
        trace_id: trace,
        started_at: '2026-03-01T10:00:00.000Z',
        tool: 'fake',
        model: 'fake',
      };
      const text = writeLines([session, ...written], lines, {
        header: 1,
        bookkeeping: () => session,
      });
      if (!n.wrapped) return { text, calls };
      const parsed = text.split('\n').map((l) => JSON.parse(l) as Line);
      return {
        text: JSON.stringify({
          lhar: {
            version: '0.1.0',
            creator: { name: 'context-lens', version: 'fake' },
            sessions: parsed
              .filter((l) => l.type === 'session')
              .map(({ type: _, ...rest }) => rest),
            entries: parsed.filter((l) => l.type === 'entry'),
          },
        }),
        calls,
      };
    });
}

/** The call ids of an answer, in any of the three APIs' shapes. */
function callIdsOf(item: Line): string[] {
  const ids: string[] = [];
  for (const block of (Array.isArray(item.content) ? item.content : []) as Line[]) {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') ids.push(String(block.id));
  }
  for (const call of (item.tool_calls as Line[] | undefined) ?? []) ids.push(String(call.id));
  if (item.type === 'function_call') ids.push(String(item.call_id));
  else if (typeof item.type === 'string' && item.type.endsWith('_call')) ids.push(String(item.id));
  return ids;
}

/**
 * OpenTelemetry GenAI spans (OTLP/JSON): one `chat` span per model call,
 * its input repeating the conversation so far. What instrumentations and
 * agents do: each call a trace of its own or all in one, spans in no order,
 * `execute_tool` and `invoke_agent` spans without messages, an output not
 * captured (its answer is known from the next call's input, or nowhere),
 * reasoning the agent does not send back, server tools
 * (`server_tool_call`), calls and responses without ids (the conventions
 * make `id` optional; Gemini's calls have none: the `unknown` kind here),
 * and a call without its name (the conventions require one; the importer
 * must still count it as left out).
 */
export function otelGenAiTranscript(): fc.Arbitrary<GeneratedTranscript> {
  const noise = fc.record({
    oneTrace: fc.boolean(),
    shuffle: fc.nat(1000),
    toolSpans: fc.boolean(),
    uncaptured: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
    reasoning: fc.boolean(),
    nameless: fc.boolean(),
  });
  return fc.tuple(turnsArbitrary(['agent', 'server', 'unknown']), noise).map(([turns, n]) => {
    const history: Line[] = [];
    const spans: Line[] = [];
    let unnamed = n.nameless;
    let calls = 0;
    const text = (content: string) => ({ type: 'text', content });
    const attribute = (key: string, value: unknown) => ({
      key,
      value: typeof value === 'string' ? { stringValue: value } : { intValue: String(value) },
    });
    const span = (name: string, attributes: Line[]): Line => {
      const index = spans.length;
      const start = 1_800_000_000_000_000_000n + BigInt(index) * 1_000_000_000n;
      return {
        traceId: n.oneTrace ? 'b'.repeat(32) : index.toString(16).padStart(32, '0'),
        spanId: index.toString(16).padStart(16, '0'),
        name,
        startTimeUnixNano: String(start),
        endTimeUnixNano: String(start + 500_000_000n),
        attributes,
      };
    };
    const steps = turns.flatMap((turn) =>
      turn.steps.map((step, s) => ({ prompt: s === 0 ? turn.prompt : undefined, step })),
    );
    for (const [index, { prompt, step }] of steps.entries()) {
      if (prompt !== undefined) history.push({ role: 'user', parts: [text(prompt)] });
      const parts: Line[] = [];
      if (n.reasoning) parts.push({ type: 'reasoning', content: 'fake' });
      parts.push(text(step.text));
      const responses: Line[] = [];
      for (const call of step.calls) {
        const named = unnamed ? {} : { name: call.name };
        unnamed = false;
        if (call.kind === 'server') {
          parts.push({
            type: 'server_tool_call',
            id: call.id,
            ...named,
            server_tool_call: { type: call.name },
          });
          parts.push({
            type: 'server_tool_call_response',
            id: call.id,
            server_tool_call_response: { type: call.name, content: [] },
          });
        } else if (call.kind === 'unknown') {
          parts.push({ type: 'tool_call', id: null, ...named, arguments: { n: call.id } });
          responses.push({ type: 'tool_call_response', id: null, response: `fake ${call.id}` });
        } else {
          parts.push({ type: 'tool_call', id: call.id, ...named, arguments: {} });
          responses.push({ type: 'tool_call_response', id: call.id, response: 'fake' });
        }
      }
      const answer = {
        role: 'assistant',
        parts,
        finish_reason: step.calls.length > 0 ? 'tool_call' : 'stop',
      };
      const captured = n.uncaptured[index % n.uncaptured.length] !== true;
      // Its calls are in the file if its output was captured or a later call's input repeats them.
      if (captured || index < steps.length - 1) calls += step.calls.length;
      spans.push(
        span('chat fake', [
          attribute('gen_ai.operation.name', 'chat'),
          attribute('gen_ai.provider.name', 'fake'),
          attribute('gen_ai.input.messages', JSON.stringify(history)),
          ...(captured ? [attribute('gen_ai.output.messages', JSON.stringify([answer]))] : []),
          attribute('gen_ai.usage.input_tokens', 1),
          attribute('gen_ai.usage.output_tokens', 1),
        ]),
      );
      // The agent sends its answer back without the reasoning (and without the finish reason).
      history.push({ role: 'assistant', parts: parts.filter((part) => part.type !== 'reasoning') });
      if (n.toolSpans) {
        for (const call of step.calls.filter((c) => c.kind !== 'server')) {
          spans.push(
            span(`execute_tool ${call.name}`, [
              attribute('gen_ai.operation.name', 'execute_tool'),
              attribute('gen_ai.tool.name', call.name),
              attribute('gen_ai.tool.call.id', call.id),
            ]),
          );
        }
      }
      if (responses.length > 0) history.push({ role: 'tool', parts: responses });
    }
    if (n.toolSpans)
      spans.push(span('invoke_agent fake', [attribute('gen_ai.operation.name', 'invoke_agent')]));
    // Exporters write spans as they end, batched: the file's order is not the calls' order.
    const shuffled = spans
      .map((value, i) => ({ value, key: (i * 7919 + n.shuffle) % 1009 }))
      .sort((a, b) => a.key - b.key)
      .map((entry) => entry.value);
    return {
      text: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [attribute('service.name', 'fake')] },
            scopeSpans: [{ scope: { name: 'fake' }, spans: shuffled }],
          },
        ],
      }),
      calls,
    };
  });
}

/** Every format the property runs over, with its generator and, where a format has two, a name for each. */
export const LOSS_GUARD_FORMATS: readonly [
  ImportFormat,
  () => fc.Arbitrary<GeneratedTranscript>,
  string?,
][] = [
  ['claude-code', claudeCodeTranscript],
  ['anthropic-messages', anthropicTranscript],
  ['openai-responses', responsesTranscript],
  ['openai-chat', chatTranscript],
  ['pi', piSessionTranscript],
  ['openclaw', openClawTranscript],
  ['kimi-cli', kimiCliTranscript],
  ['copilot-cli', copilotTranscript],
  ['codex', codexTranscript],
  ['gemini-cli', geminiLinesTranscript, 'gemini-cli (JSON Lines)'],
  ['gemini-cli', geminiDocumentTranscript, 'gemini-cli (JSON)'],
  ['opencode', openCodeTranscript],
  ['kimi-code', kimiCodeTranscript],
  ['amp', ampThreadTranscript, 'amp (thread export)'],
  ['amp', ampStreamTranscript, 'amp (--stream-json)'],
  ['lhar', lharTranscript],
  ['otel-genai', otelGenAiTranscript],
];

/** The generators of JSON Lines formats, for a file that holds two of them one after the other. */
const JSON_LINES_FORMATS: readonly [ImportFormat, () => fc.Arbitrary<GeneratedTranscript>][] = [
  ['claude-code', claudeCodeTranscript],
  ['codex', codexTranscript],
  ['gemini-cli', geminiLinesTranscript],
  ['copilot-cli', copilotTranscript],
  ['pi', piSessionTranscript],
  ['openclaw', openClawTranscript],
  ['kimi-cli', kimiCliTranscript],
  ['kimi-code', kimiCodeTranscript],
  ['amp', ampStreamTranscript],
  // Its wrapped `.lhar.json` form is one document, not lines.
  ['lhar', () => lharTranscript().filter((generated) => !generated.text.startsWith('{"lhar"'))],
];

/** The ids the generators give calls and entries: renamed in the second of two transcripts in one file. */
const SECOND_IDS = /"((?:call|branch|sub|rewound|start|orphan)_\d+|e\d+|ev\d+)"/g;

/** A file holding two transcripts one after the other, and their formats. */
export interface ConcatenatedTranscript extends GeneratedTranscript {
  formats: readonly [ImportFormat, ImportFormat];
}

/**
 * Two transcripts of different JSON Lines formats in one file, as `cat
 * a.jsonl b.jsonl` writes them (issue 43, item 10). The second's call and
 * entry ids are renamed, as two real sessions' differ, so that no call of
 * one is a call of the other: the file holds the calls of both.
 */
export function concatenatedTranscript(): fc.Arbitrary<ConcatenatedTranscript> {
  const index = fc.nat(JSON_LINES_FORMATS.length - 1);
  return fc
    .tuple(index, index)
    .filter(([a, b]) => a !== b)
    .chain(([a, b]) => {
      const [first, firstArbitrary] = JSON_LINES_FORMATS[a] as (typeof JSON_LINES_FORMATS)[number];
      const [second, secondArbitrary] = JSON_LINES_FORMATS[
        b
      ] as (typeof JSON_LINES_FORMATS)[number];
      return fc.tuple(firstArbitrary(), secondArbitrary()).map(([one, two]) => ({
        text: `${one.text}\n${two.text.replace(SECOND_IDS, '"2nd-$1"')}`,
        calls: one.calls + two.calls,
        formats: [first, second] as const,
      }));
    });
}

/**
 * The property for a file of two formats: refused as such, or read with an
 * account that holds every call of both (a Pi session followed by an
 * OpenClaw one is one tree of two branches: the first is left out and
 * counted). Never "all counted" when calls were lost.
 */
export function checkConcatenated(generated: ConcatenatedTranscript): string | undefined {
  const result = importTranscript(generated.text);
  if (result.elements === undefined) {
    const code = result.diagnostics[0]?.code;
    return code === 'import/two-formats' ? undefined : `refused with ${String(code)}`;
  }
  const account = accountImport(result);
  if (account.unexplained !== 0 || account.sourceCalls !== generated.calls) {
    return `${generated.formats.join(' + ')}, ${generated.calls} calls written: ${describeImportAccount(result, account)}`;
  }
  return undefined;
}

/** The property for one transcript: undefined when it holds, else what differs. */
export function checkLossGuard(
  format: ImportFormat,
  generated: GeneratedTranscript,
): string | undefined {
  const result = importTranscript(generated.text);
  if (result.format !== format) return `read as ${String(result.format)}`;
  const ids = (result.elements ?? [])
    .filter((e) => e.type === 'tool_call_request')
    .map((e) => String(e.id));
  if (new Set(ids).size !== ids.length) return `a call imported twice: ${ids.join(' ')}`;
  const noted = result.notes.reduce((sum, note) => sum + (note.calls ?? 0), 0);
  if (ids.length + noted !== generated.calls) {
    return `${generated.calls} calls written, ${ids.length} imported + ${noted} noted`;
  }
  const account = accountImport(result);
  if (account.unexplained !== 0 || account.sourceCalls !== generated.calls) {
    return describeImportAccount(result, account);
  }
  const branchCall = ids.find((id) => generated.offBranch?.includes(id));
  if (branchCall !== undefined) return `${branchCall}, a call on a branch the user left, imported`;
  return checkWrittenTwice(format, generated.text, result.elements ?? []);
}

/** The formats whose importer reads a line written twice once (issue 43, item 8). */
const READS_LINES_ONCE = new Set<ImportFormat>([
  'pi',
  'openclaw',
  'kimi-cli',
  'copilot-cli',
  'amp',
]);

/**
 * A file written again whole (`X` then `X`) imports as `X` alone does, where
 * its importer reads a line written twice once: every message, call and
 * recorded usage once. A file with no line that names itself (no call in a
 * Kimi context) cannot be told from two sessions, and is not checked.
 */
function checkWrittenTwice(
  format: ImportFormat,
  text: string,
  elements: readonly StreamElement[],
): string | undefined {
  if (!READS_LINES_ONCE.has(format) || text.length % 2 === 0) return undefined;
  const once = text.slice(0, (text.length - 1) / 2);
  if (text !== `${once}\n${once}`) return undefined;
  const single = importTranscript(once).elements ?? [];
  if (!single.some((element) => element.type === 'tool_call_request')) return undefined;
  return isDeepStrictEqual(elements, single)
    ? undefined
    : `written twice, ${elements.length} events imported; written once, ${single.length}`;
}
