/**
 * Runs the shared conformance cases through the CLI (the conformance
 * README's "Running them through the CLI"): each case becomes files and an
 * invocation (`project`, `sanitize`, `compact --config`, `compact --compact
 * SPEC`), under `--reading base=…` for each base the case names (both when
 * none). An expected error is exit 2 with nothing on standard output.
 *
 * The commands run in-process through `runCommand` with files in memory, as
 * `main` runs them (a CliError is exit 2); spawning a process per case would
 * not test more. A few case forms name core values with no CLI spelling (the
 * core resolver's bounds, serializers, several config layers): they are
 * listed with the reason and counted, and run through the core runners only.
 */
import { describe, expect, it } from 'vitest';
import { formatRuleBound } from '../core/config/rule-config.ts';
import type { JsonObject, JsonValue, RuleBound, StreamElement, TurnRange } from '../core/types.ts';
import {
  buildRulesStream,
  CONFORMANCE_KINDS,
  type ConformanceCase,
  getCaseBases,
  loadAllCases,
  type RulesLevelStreamInput,
} from '../test/conformance.ts';
import { CliError } from './cli-io.ts';
import { runCliInMemory } from './run-in-memory.ts';

type Base = '2026-09' | '2026-08';

/** One CLI run over files in memory: exit code and output, as `main` gives them. */
function cli(args: string[], files: Record<string, string>) {
  return runCliInMemory(args, (path) => {
    const text = files[path];
    if (text === undefined) throw new CliError(`${path}:1:1: error: no such file`);
    return text;
  });
}

// ------------------------------------------------------------------ helpers

/** A TOML value for a JSON value (strings, integers, floats, booleans, inline tables). */
function toml(value: JsonValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    return Number.isInteger(value)
      ? String(value)
      : String(value).includes('.')
        ? String(value)
        : `${value}.0`;
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(toml).join(', ')}]`;
  if (value === null) return '""';
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)} = ${toml(v)}`)
    .join(', ')} }`;
}

/** A rule table: `keep_first`, `keep_last` and the other fields as TOML lines. */
function ruleToml(fields: Record<string, string>, summaryText?: string | null): string {
  const lines = ['[[conversation.compaction.rules]]'];
  for (const [key, value] of Object.entries(fields)) lines.push(`${key} = ${value}`);
  if (summaryText !== undefined) {
    lines.push('[conversation.compaction.rules.summary]');
    if (summaryText !== null) lines.push(`text = ${JSON.stringify(summaryText)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A bound object spelled in TOML under the base (README: "-n" or "-{n+1}"; "@n" only under 2026-08). */
function boundToml(bound: RuleBound, base: Base): string | undefined {
  if ('turns' in bound) return String(bound.turns);
  if ('from_end' in bound)
    return JSON.stringify(`-${base === '2026-09' ? bound.from_end + 1 : bound.from_end}`);
  if ('absolute' in bound)
    return base === '2026-08' ? JSON.stringify(`@${bound.absolute}`) : undefined;
  return JSON.stringify(formatRuleBound(bound));
}

/** A stream of `count` turns, a turn_start and a request each, an hour apart. */
function turnsStream(count: number, extra: StreamElement[] = []): StreamElement[] {
  const elements: StreamElement[] = [];
  for (let turn = 0; turn < count; turn++) {
    const timestamp = `2026-01-01 ${String(turn).padStart(2, '0')}:00:00.0`;
    elements.push({ type: 'turn_start', timestamp });
    elements.push({ type: 'chat_request', timestamp, content: `turn ${turn + 1}` });
  }
  return [...elements, ...extra];
}

const NOW = '2026-01-02 00:00:00.0';

/** The compactions `compact` appended to the stream it was given. */
function newEvents(stdout: string, given: number): JsonObject[] {
  return (JSON.parse(stdout) as JsonObject[]).slice(given);
}

/**
 * The stored 0-based range of a rule on a stream of `turnCount` turns with
 * no compactions and no durations, straight from spec 6.1/6.2, so that the
 * expected event does not come from the code under test.
 */
function expectedRange(first: RuleBound, last: RuleBound, turnCount: number): TurnRange | null {
  const lastTurn = turnCount - 1;
  let start: number;
  if ('turns' in first) start = first.turns;
  else if ('absolute' in first) start = Math.max(first.absolute - 1, 0);
  else if ('from_end' in first) start = Math.max(lastTurn - first.from_end, 0);
  else if ('after_last_compaction' in first) start = 0;
  else return null;
  if (start > lastTurn) return null;
  let end: number;
  if ('turns' in last) {
    if (last.turns > lastTurn) return null;
    end = lastTurn - last.turns;
  } else if ('from_end' in last) {
    if (last.from_end > lastTurn) return null;
    end = lastTurn - last.from_end;
  } else if ('absolute' in last) end = Math.min(Math.max(last.absolute - 1, 0), lastTurn);
  else if ('after_last_compaction' in last) end = lastTurn;
  else return null;
  return start > end ? null : { from_turn: start, to_turn: end };
}

/** The stored policy of a mode (spec 5's table, written out here). */
const MODE_POLICY: Record<string, JsonObject> = {
  strip: { policy: 'strip', request: true, response: true },
  'strip-requests': { policy: 'strip', request: true, response: false },
  'strip-responses': { policy: 'strip', request: false, response: true },
  omit: { policy: 'omit' },
};

// ------------------------------------------------------------- per kind

type Check = (base: Base) => Promise<void>;

function projectionCheck(testCase: ConformanceCase): Check {
  return async (base) => {
    const encoding = testCase.encoding === 'storage' ? 'storage' : 'plain';
    const files = { 'events.json': JSON.stringify(testCase.input) };
    const args = ['project', '--reading', `base=${base}`, '--encoding', encoding];
    const provider = await cli([...args, 'events.json'], files);
    if (testCase.expected?.error === true) {
      expect(provider.code).toBe(2);
      expect(provider.stdout).toBe('');
      return;
    }
    expect(provider.code, provider.stderr).toBe(0);
    expect(JSON.parse(provider.stdout)).toEqual(testCase.expected);
    if (testCase.expected_stream !== undefined) {
      const stream = await cli([...args, '--view', 'stream', 'events.json'], files);
      expect(JSON.parse(stream.stdout)).toEqual(testCase.expected_stream);
    }
  };
}

function sanitizeCheck(testCase: ConformanceCase): Check {
  return async (base) => {
    const encoding = testCase.encoding === 'storage' ? 'storage' : 'plain';
    const result = await cli(
      ['sanitize', '--reading', `base=${base}`, '--encoding', encoding, 'events.json'],
      { 'events.json': JSON.stringify(testCase.input) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(testCase.expected);
  };
}

/** `compact` on a stream's text with a config (`--now` left out when `now` is null), as `main` gives it. */
function runCompact(
  base: Base,
  streamText: string,
  config: string,
  now: string | null,
  extra: string[] = [],
) {
  return cli(
    [
      'compact',
      '--reading',
      `base=${base}`,
      '--config',
      'c.toml',
      ...(now === null ? [] : ['--now', now]),
      '--encoding',
      'plain',
      ...extra,
      'events.json',
    ],
    { 'c.toml': config, 'events.json': streamText },
  );
}

/** Runs `compact` on a stream with a config and returns the new events, or the exit code. */
async function compact(
  base: Base,
  stream: StreamElement[],
  config: string,
  extra: string[] = [],
): Promise<{ code: number; events: JsonObject[]; stderr: string }> {
  const result = await runCompact(base, JSON.stringify(stream), config, NOW, extra);
  if (result.code !== 0) {
    expect(result.stdout).toBe('');
    return { code: result.code, events: [], stderr: result.stderr };
  }
  return { code: 0, events: newEvents(result.stdout, stream.length), stderr: result.stderr };
}

const TEN = 10;

/** The `compact --compact SPEC` check of a parsed spec (spec 8, 15.6). */
function dslCheck(testCase: ConformanceCase): Check | string {
  if (testCase.input.level === 'effective_rules') return effectiveRulesCheck(testCase);
  if (testCase.input.spec === '') {
    return "the parser's answer to an empty spec: the CLI reads --compact '' as the bare flag (README)";
  }
  return async (base) => {
    const { code, events } = await compact(base, turnsStream(TEN), '', [
      '--compact',
      testCase.input.spec as string,
    ]);
    if (testCase.expected.error === true) {
      expect(code).toBe(2);
      return;
    }
    expect(code).toBe(0);
    const spec = testCase.expected;
    // Spec 8's conversion: with a range, an open start keeps none and an open end keeps none.
    const first: RuleBound = spec.range === null ? { turns: 1 } : (spec.range.from ?? { turns: 0 });
    const last: RuleBound = spec.range === null ? { turns: 1 } : (spec.range.to ?? { from_end: 0 });
    const range = expectedRange(first, last, TEN);
    if (range === null) {
      expect(events).toEqual([]);
      return;
    }
    expect(events).toHaveLength(1);
    const event = events[0] as JsonObject;
    expect({ from_turn: event.from_turn, to_turn: event.to_turn }).toEqual(range);
    const over = (bytes: number | null | undefined) => (bytes == null ? undefined : bytes);
    const reasoningOver = over(spec.reasoning_over);
    expect(event.reasoning).toEqual(
      spec.reasoning
        ? reasoningOver === undefined
          ? 'strip'
          : { policy: 'strip', over: writtenSize(reasoningOver) }
        : undefined,
    );
    const toolsOver = over(spec.tools_over);
    expect(event.tool_calls).toEqual(
      spec.tools === null
        ? undefined
        : toolsOver === undefined
          ? MODE_POLICY[spec.tools]
          : { ...MODE_POLICY[spec.tools], over: writtenSize(toolsOver) },
    );
    // A summary spec gets the placeholder of 14.5.
    expect(event.summary).toEqual(
      spec.summarize
        ? { summary: `[summary of turns ${range.from_turn + 1}..${range.to_turn + 1}]` }
        : undefined,
    );
  };
}

/** 15.2's written form, computed here from the bytes: the largest of GB, MB, KB that divides them. */
function writtenSize(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

function effectiveRulesCheck(testCase: ConformanceCase): Check | string {
  return async (base) => {
    const input = testCase.input;
    const rules: string[] = [];
    for (const rule of (input.config_rules ?? []) as Record<string, JsonValue>[]) {
      const fields: Record<string, string> = {};
      for (const side of ['keep_first', 'keep_last'] as const) {
        const written = boundToml(rule[side] as RuleBound, base);
        if (written === undefined) return;
        fields[side] = written;
      }
      if (rule.reasoning) fields.reasoning = toml(rule.reasoning);
      if (rule.tool_calls) fields.tool_calls = toml(rule.tool_calls);
      rules.push(ruleToml(fields, rule.summary ? null : undefined));
    }
    const specs = (input.specs ?? []) as string[];
    const flags = [
      ...(input.use_config_rules === true ? ['--compact', ''] : []),
      ...specs.flatMap((spec) => ['--compact', spec]),
    ];
    const { code, events } = await compact(base, turnsStream(TEN), rules.join('\n'), flags);
    if (!Array.isArray(testCase.expected)) {
      expect(code).toBe(2);
      return;
    }
    expect(code).toBe(0);
    const expected = (testCase.expected as Record<string, JsonValue>[]).flatMap((rule) => {
      const range = expectedRange(rule.keep_first as RuleBound, rule.keep_last as RuleBound, TEN);
      return range === null ? [] : [{ ...range, summary: rule.summary !== null }];
    });
    expect(
      events.map((e) => ({ from_turn: e.from_turn, to_turn: e.to_turn, summary: 'summary' in e })),
    ).toEqual(expected);
  };
}

function rangeCheck(testCase: ConformanceCase): Check | string {
  const input = testCase.input;
  if (input.level === 'resolve_range') {
    return "the core resolver's 0-based bounds have no CLI spelling (JP's --from/--to are not reproduced, 15.8)";
  }
  const isDefault = (o: JsonValue | undefined) =>
    o === undefined || (typeof o === 'object' && o !== null && 'default' in o);
  if (!isDefault(input.from_override) || !isDefault(input.to_override)) {
    return 'a resolved --from/--to override has no CLI flag in the playground (15.8)';
  }
  return async (base) => {
    const rules: string[] = [];
    for (const rule of input.rules as Record<string, JsonValue>[]) {
      const fields: Record<string, string> = { reasoning: '"strip"' };
      if (rule.summary) delete fields.reasoning;
      for (const side of ['keep_first', 'keep_last'] as const) {
        const bound = rule[side];
        if (bound === undefined) continue;
        if (typeof bound === 'object' && bound !== null && 'written' in bound) {
          fields[side] = toml((bound as JsonObject).written as JsonValue);
        } else {
          const written = boundToml(bound as RuleBound, base);
          // An absolute bound has no config spelling under 2026-09 (README): such cases are tagged 2026-08.
          expect(written).toBeDefined();
          fields[side] = written as string;
        }
      }
      rules.push(
        ruleToml(
          fields,
          rule.summary ? ((rule.summary_text as string | undefined) ?? null) : undefined,
        ),
      );
    }
    const stream = buildRulesStream(input as unknown as RulesLevelStreamInput, NOW);
    const now = (input.now as string | undefined) ?? null;
    const result = await runCompact(base, JSON.stringify(stream), rules.join('\n'), now);
    if (!Array.isArray(testCase.expected)) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      if (testCase.expected.config !== undefined)
        expect(result.stderr).toContain(testCase.expected.config);
      if (testCase.expected.overlap !== undefined) {
        const { requested, required } = testCase.expected.overlap as Record<string, TurnRange>;
        const span = (r: TurnRange) => `${r.from_turn + 1}..${r.to_turn + 1}`;
        expect(result.stderr).toContain(`turns ${span(requested as TurnRange)}`);
        expect(result.stderr).toContain(`turns ${span(required as TurnRange)}`);
      }
      return;
    }
    expect(result.code, result.stderr).toBe(0);
    const events = newEvents(result.stdout, stream.length);
    expect(events.map((e) => ({ from_turn: e.from_turn, to_turn: e.to_turn }))).toEqual(
      testCase.expected,
    );
  };
}

function summaryExtensionCheck(testCase: ConformanceCase): Check {
  return async (base) => {
    const input = testCase.input;
    const range = input.range as TurnRange;
    const existing = input.existing_compactions as JsonObject[];
    const turnCount = Math.max(range.to_turn, ...existing.map((c) => c.to_turn as number)) + 1;
    const stream = turnsStream(turnCount);
    for (const compaction of existing) {
      stream.push({
        type: 'compaction',
        timestamp: '2026-01-01 23:00:00.0',
        from_turn: compaction.from_turn as number,
        to_turn: compaction.to_turn as number,
        ...(compaction.summary
          ? {
              summary:
                compaction.source === 'authored'
                  ? { summary: 'existing', source: 'authored' }
                  : { summary: 'existing' },
            }
          : { reasoning: 'strip' }),
      });
    }
    // The range as count bounds (README): keep_first = from, keep_last = turns after `to`.
    const config = ruleToml(
      { keep_first: String(range.from_turn), keep_last: String(turnCount - 1 - range.to_turn) },
      input.source === 'authored' ? 'authored text' : null,
    );
    const { code, events } = await compact(base, stream, config);
    if (testCase.expected.error === true) {
      expect(code).toBe(2);
      return;
    }
    expect(code).toBe(0);
    expect(events.map((e) => ({ from_turn: e.from_turn, to_turn: e.to_turn }))).toEqual([
      testCase.expected,
    ]);
  };
}

/** A rule over every turn of the ten-turn stream, with one field set as written. */
async function ruleField(base: Base, field: string, value: JsonValue) {
  const config =
    field === 'summary'
      ? `[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\nsummary = ${toml(value)}\n`
      : ruleToml({ keep_first: '0', keep_last: '0', [field]: toml(value) });
  return compact(base, turnsStream(TEN), config);
}

function configCheck(testCase: ConformanceCase): Check | string {
  const input = testCase.input;
  const expectOk = (code: number) => {
    expect(code).toBe('error' in testCase.expected ? 2 : 0);
    return !('error' in testCase.expected);
  };
  if (input.parse === 'rule_policy') {
    return async (base) => {
      const { code, events } = await ruleField(base, input.field, input.value);
      if (!expectOk(code)) return;
      expect((events[0] as JsonObject)[input.field]).toEqual(testCase.expected.ok);
    };
  }
  if (input.parse === 'byte_size') {
    return async (base) => {
      const { code, events } = await ruleField(base, 'tool_calls', {
        policy: 'omit',
        over: input.value,
      });
      if (!expectOk(code)) return;
      expect((events[0] as JsonObject).tool_calls).toEqual({
        policy: 'omit',
        over: testCase.expected.ok.written,
      });
    };
  }
  if (input.parse === 'tool_calls_mode' || input.parse === 'reasoning_mode') {
    const field = input.parse === 'tool_calls_mode' ? 'tool_calls' : 'reasoning';
    return async (base) => {
      const { code, events } = await ruleField(base, field, input.value);
      if (!expectOk(code)) return;
      const stored = (events[0] as JsonObject)[field];
      expect(stored).toEqual(
        field === 'reasoning' ? testCase.expected.ok : MODE_POLICY[testCase.expected.ok],
      );
    };
  }
  if (input.map === 'tool_calls_mode_to_policy') {
    return async (base) => {
      const stored: JsonValue[] = [];
      for (const value of input.values as JsonValue[]) {
        const { code, events } = await ruleField(base, 'tool_calls', value);
        if (code !== 0) {
          expect(testCase.expected).toEqual({ error: true });
          return;
        }
        stored.push((events[0] as JsonObject).tool_calls as JsonValue);
      }
      expect({ ok: stored }).toEqual(testCase.expected);
    };
  }
  if (input.parse === 'rule_bound') {
    return async (base) => {
      if (typeof input.value !== 'string' && typeof input.value !== 'number') {
        // A table or a boolean: written as TOML, it is refused as well.
        const { code } = await ruleField(base, 'keep_first', input.value);
        expectOk(code);
        return;
      }
      const { code, events } = await ruleField(base, 'keep_first', input.value);
      if (!expectOk(code)) return;
      const bound = testCase.expected.ok as RuleBound;
      if ('duration_secs' in bound || 'after_last_compaction' in bound) {
        // A duration or the marker resolves against times and compactions: read, and compacts.
        expect(code).toBe(0);
        return;
      }
      const range = expectedRange(bound, { turns: 0 }, TEN);
      expect(events.map((e) => e.from_turn)).toEqual(range === null ? [] : [range.from_turn]);
    };
  }
  if (input.parse === 'tool_compaction_hint') {
    return async (base) => {
      const stream = turnsStream(TEN);
      stream.push(
        {
          type: 'tool_call_request',
          timestamp: '2026-01-01 09:00:00.0',
          id: 'c1',
          name: 'x',
          arguments: {},
        },
        {
          type: 'tool_call_response',
          timestamp: '2026-01-01 09:00:00.0',
          id: 'c1',
          content: 'ok',
          is_error: false,
        },
      );
      const config = `${ruleToml({ keep_first: '0', keep_last: '0', tool_calls: '"strip"' })}\n[conversation.tools.x]\ncompaction = ${toml(input.value)}\n`;
      const { code, events } = await compact(base, stream, config);
      if (!expectOk(code)) return;
      expect(((events[0] as JsonObject).tool_overrides as JsonObject | undefined)?.x).toEqual(
        testCase.expected.ok,
      );
    };
  }
  if (input.roundtrip === 'events') {
    return async (base) => {
      // A rule whose range is empty on any stream: nothing is added, the file is written back.
      const config = ruleToml({ keep_first: '100000', keep_last: '0', reasoning: '"strip"' });
      const text = JSON.stringify(input.value);
      const result = await runCompact(base, text, config, null);
      if (!expectOk(result.code)) return;
      const written = JSON.parse(result.stdout) as JsonValue[];
      // Element by element with key order (15.1: written back as read).
      expect(written.map((e) => JSON.stringify(e))).toEqual(
        (testCase.expected.ok as JsonValue[]).map((e) => JSON.stringify(e)),
      );
    };
  }
  return 'a serializer, a resolver over several layers or an event parser: no CLI input spells it';
}

function checkFor(testCase: ConformanceCase): Check | string {
  switch (testCase.kind) {
    case 'projection':
      return projectionCheck(testCase);
    case 'sanitize':
      return sanitizeCheck(testCase);
    case 'dsl':
      return dslCheck(testCase);
    case 'range':
      return rangeCheck(testCase);
    case 'summary-extension':
      return summaryExtensionCheck(testCase);
    case 'config':
      return configCheck(testCase);
    default:
      return `unknown kind ${testCase.kind}`;
  }
}

const cases = loadAllCases();
const checks = cases.map((testCase) => ({ testCase, check: checkFor(testCase) }));

describe('conformance through the CLI', () => {
  it('loads all 306 cases (209 top-level, 97 in jp-main/) of the six kinds', () => {
    expect(CONFORMANCE_KINDS).toHaveLength(6);
    expect(cases).toHaveLength(306);
    expect(cases.filter((c) => c.file.startsWith('jp-main/'))).toHaveLength(97);
  });

  it('runs most cases through the CLI, and says which run through the core only and why', () => {
    const coreOnly = checks.filter((entry) => typeof entry.check === 'string');
    // Counted so that a change in coverage shows: every other case has a CLI run below.
    expect({
      cli: checks.length - coreOnly.length,
      coreOnly: coreOnly.length,
    }).toEqual({ cli: 276, coreOnly: 30 });
  });

  for (const { testCase, check } of checks) {
    if (typeof check === 'string') continue;
    for (const base of getCaseBases(testCase)) {
      it(`${testCase.file} [base=${base}]`, () => check(base));
    }
  }
});
