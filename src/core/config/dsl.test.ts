import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactionRule, JsonObject, RuleBound, ToolCallsMode } from '../types.ts';
import {
  type DslSpec,
  dslToPartialRule,
  dslToRule,
  parseDslSpec as parseDslSpecFor,
  resolveEffectiveRules as resolveEffectiveRulesFor,
  ruleToDsl as ruleToDslFor,
  ruleToEquivalentDsl as ruleToEquivalentDslFor,
} from './dsl.ts';
import type { JpBase } from './jp-base.ts';
import { type RangeContext, resolveRuleRange } from './range.ts';

/**
 * Most of this file is spec 8 as written, which is JP 4c1c39f1: `-N` is a
 * count there. JP main (15.6, the default) has its own block at the end.
 */
let base: JpBase = '2026-08';
const parseDslSpec = (spec: string) => parseDslSpecFor(spec, base);
const ruleToDsl = (rule: CompactionRule) => ruleToDslFor(rule, base);
const ruleToEquivalentDsl = (rule: CompactionRule) => ruleToEquivalentDslFor(rule, base);
const resolveEffectiveRules = (rules: readonly CompactionRule[], bare: boolean, specs: string[]) =>
  resolveEffectiveRulesFor(rules, bare, specs, base);

function parsed(spec: string): DslSpec {
  const result = parseDslSpec(spec);
  if (!result.ok) throw new Error(`expected "${spec}" to parse: ${result.message}`);
  return result.value;
}

function errorOf(spec: string): string {
  const result = parseDslSpec(spec);
  if (result.ok) throw new Error(`expected "${spec}" to be rejected`);
  return result.message;
}

const roundTrip = (spec: string): CompactionRule | undefined => {
  const result = parseDslSpec(spec);
  return result.ok ? dslToRule(result.value) : undefined;
};

describe('parseDslSpec (spec 8)', () => {
  it('splits at the first colon and the first "..", without trimming the range', () => {
    expect(parsed('r+t=sres:-10..+4').range).toEqual({
      from: { from_end: 10 },
      to: { absolute: 4 },
    });
    expect(errorOf('s:1..2..3')).toContain('"2..3"');
    expect(errorOf('s: 5..')).toContain('" 5"');
    expect(errorOf('s:5..:6')).toContain('":6"');
  });

  it('reads the shorthand by sign', () => {
    expect(parsed('s:7').range).toEqual({ from: { absolute: 7 }, to: null });
    expect(parsed('s:-7').range).toEqual({ from: null, to: { from_end: 7 } });
    expect(parsed('s:-+7').range).toEqual({ from: null, to: { from_end: 7 } });
    expect(parsed('s:-0').range).toEqual({ from: null, to: { from_end: 0 } });
  });

  it('rejects position 0, signs twice, empty ranges and overflowing numbers', () => {
    expect(errorOf('s:+0..')).toContain('1-based');
    expect(errorOf('s:--3')).toContain('"--3"');
    expect(errorOf('s:+-3')).toContain('"+-3"');
    expect(errorOf('s:')).toContain('range ""');
    expect(errorOf('s:18446744073709551616')).toContain('too large');
    // Rust reads bounds as u64; past 2^53 the number is as exact as JSON.parse makes it.
    expect(parsed('s:18446744073709551615').range?.from).toEqual({
      absolute: Number(2n ** 64n - 1n),
    });
  });

  it('trims policies and both sides of "=", keeps the last tools mode', () => {
    expect(parsed(' reasoning +  tools = omit + t= strip_responses ')).toEqual({
      reasoning: true,
      tools: 'strip-responses',
      summarize: false,
      range: null,
    });
  });

  it("trims Rust's whitespace, not JavaScript's", () => {
    // U+0085 is White_Space for Rust's `trim`; U+FEFF is stripped only by JavaScript's.
    expect(parsed('\u0085r\u0085+t\u0085=\u0085o').tools).toBe('omit');
    expect(errorOf('\ufeffr')).toContain('unknown policy');
    expect(errorOf('t=\ufeffo')).toContain('unknown tools mode');
  });

  it('reads `t = s`, rejects a value on r and s, and ranges open at either or both ends', () => {
    expect(parsed('t = s').tools).toBe('strip');
    expect(errorOf('r=x')).toContain('takes no value');
    expect(errorOf('r=')).toContain('takes no value');
    expect(errorOf('t=')).toContain('unknown tools mode');
    expect(parsed('s:..').range).toEqual({ from: null, to: null });
    expect(parsed('s:5..').range).toEqual({ from: { absolute: 5 }, to: null });
    expect(parsed('s:..5').range).toEqual({ from: null, to: { absolute: 5 } });
    expect(parsed('s:+5').range).toEqual({ from: { absolute: 5 }, to: null });
    expect(errorOf('s:0')).toContain('1-based');
    expect(errorOf('s:...')).toContain('"."');
    expect(errorOf('r:1:5')).toContain('"1:5"');
  });

  it('explains what is wrong with a policy', () => {
    expect(errorOf('')).toContain('no policy');
    expect(errorOf(':..')).toContain('no policy');
    expect(errorOf('r+')).toContain('empty policy');
    expect(errorOf('s=1')).toContain('takes no value');
    expect(errorOf('t=')).toContain('unknown tools mode ""');
    expect(errorOf('t=Strip')).toContain('unknown tools mode "Strip"');
    expect(errorOf('summary')).toContain('unknown policy "summary"');
    expect(errorOf('t=toString')).toContain('unknown tools mode');
  });

  it('accepts every tool_calls spelling of spec 5', () => {
    const spellings: Record<string, ToolCallsMode> = {
      strip: 'strip',
      s: 'strip',
      'strip-requests': 'strip-requests',
      strip_requests: 'strip-requests',
      sreq: 'strip-requests',
      'strip-responses': 'strip-responses',
      strip_responses: 'strip-responses',
      sres: 'strip-responses',
      omit: 'omit',
      o: 'omit',
    };
    for (const [spelling, mode] of Object.entries(spellings)) {
      expect(parsed(`t=${spelling}`).tools).toBe(mode);
    }
  });

  it('never throws, whatever the text (property)', () => {
    const alphabet = fc.constantFrom(...'rst=+:.-0123456789 ab'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), (spec) => {
        const result = parseDslSpec(spec);
        if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('DSL rules', () => {
  it('maps open ends to turns(0) and from_end(0) and leaves keeps unset without a range', () => {
    expect(dslToPartialRule(parsed('t:..'))).toEqual({
      keep_first: { turns: 0 },
      keep_last: { from_end: 0 },
      reasoning: null,
      tool_calls: 'strip',
      summary: null,
    });
    expect(dslToRule(parsed('s'))).toEqual({
      keep_first: { turns: 1 },
      keep_last: { turns: 1 },
      reasoning: null,
      tool_calls: null,
      summary: {},
    });
  });

  const configRule: CompactionRule = {
    keep_first: { turns: 2 },
    keep_last: { turns: 3 },
    reasoning: 'strip',
    tool_calls: 'omit',
    summary: null,
  };

  it('combines config and DSL rules as the --compact flag does', () => {
    expect(resolveEffectiveRules([configRule], false, [])).toEqual({
      ok: true,
      value: [configRule],
    });
    expect(resolveEffectiveRules([configRule], false, ['r:..'])).toEqual({
      ok: true,
      value: [dslToRule(parsed('r:..'))],
    });
    expect(resolveEffectiveRules([configRule], true, ['r:..'])).toEqual({
      ok: true,
      value: [configRule, dslToRule(parsed('r:..'))],
    });
  });

  it('treats an empty spec as the bare flag and reports which spec is wrong', () => {
    expect(resolveEffectiveRules([configRule], false, ['', 'r'])).toEqual({
      ok: true,
      value: [configRule, dslToRule(parsed('r'))],
    });
    const result = resolveEffectiveRules([configRule], true, ['r', 'x']);
    expect(result).toMatchObject({ ok: false, specIndex: 1 });
  });
});

describe('ruleToDsl', () => {
  const unset = { reasoning: null, tool_calls: null, summary: null } as const;

  /** A rule from its keeps and the policies it sets; the others stay unset. */
  type RuleParts = Partial<CompactionRule> & Pick<CompactionRule, 'keep_first' | 'keep_last'>;
  const rule = (parts: RuleParts): CompactionRule => ({ ...unset, ...parts });

  it('writes the spec of rules the DSL can produce', () => {
    const written: [RuleParts, string][] = [
      [{ reasoning: 'strip', keep_first: { turns: 1 }, keep_last: { turns: 1 } }, 'r'],
      [{ summary: {}, keep_first: { turns: 0 }, keep_last: { from_end: 3 } }, 's:..-3'],
      [
        { tool_calls: 'strip-requests', keep_first: { absolute: 5 }, keep_last: { from_end: 0 } },
        't=strip-requests:5..',
      ],
      [
        { tool_calls: 'strip', keep_first: { from_end: 10 }, keep_last: { absolute: 12 } },
        't:-10..12',
      ],
    ];
    for (const [parts, spec] of written) expect(ruleToDsl(rule(parts)), spec).toBe(spec);
  });

  it('gives undefined where no spec says it', () => {
    const keeps = { keep_first: { turns: 0 }, keep_last: { from_end: 0 } } as const;
    const unsayable: RuleParts[] = [
      keeps,
      { ...keeps, summary: { instructions: 'be brief' } },
      { reasoning: 'strip', keep_first: { duration_secs: 60 }, keep_last: { from_end: 0 } },
      {
        reasoning: 'strip',
        keep_first: { after_last_compaction: true },
        keep_last: { from_end: 0 },
      },
      { reasoning: 'strip', keep_first: { turns: 3 }, keep_last: { turns: 2 } },
      { reasoning: 'strip', keep_first: { absolute: 0 }, keep_last: { from_end: 0 } },
    ];
    for (const parts of unsayable) {
      expect(ruleToDsl(rule(parts)), JSON.stringify(parts)).toBeUndefined();
    }
  });

  it('writes an equivalent spec for count-based config rules', () => {
    const countRule: CompactionRule = {
      ...unset,
      reasoning: 'strip',
      keep_first: { turns: 3 },
      keep_last: { turns: 2 },
    };
    expect(ruleToEquivalentDsl(countRule)).toBe('r:4..-2');
    expect(
      ruleToEquivalentDsl({ ...countRule, keep_first: { turns: 0 }, keep_last: { turns: 0 } }),
    ).toBe('r:..');
    expect(ruleToEquivalentDsl({ ...countRule, keep_last: { duration_secs: 60 } })).toBeUndefined();
  });

  const modes = fc.constantFrom<ToolCallsMode | null>(
    null,
    'strip',
    'strip-requests',
    'strip-responses',
    'omit',
  );
  const bound: fc.Arbitrary<RuleBound> = fc.oneof(
    fc.nat(12).map((turns) => ({ turns })),
    fc.integer({ min: 0, max: 12 }).map((absolute) => ({ absolute })),
    fc.nat(12).map((from_end) => ({ from_end })),
    fc.constant({ duration_secs: 3600 }),
    fc.constant({ after_last_compaction: true as const }),
  );
  const anyRule: fc.Arbitrary<CompactionRule> = fc.record({
    keep_first: bound,
    keep_last: bound,
    reasoning: fc.constantFrom<'strip' | null>(null, 'strip'),
    tool_calls: modes,
    summary: fc.constantFrom<JsonObject | null>(null, {}, { context: 'x' }),
  });

  it('round-trips exactly: parse(ruleToDsl(r)) gives back r (property)', () => {
    fc.assert(
      fc.property(anyRule, (rule) => {
        const spec = ruleToDsl(rule);
        if (spec !== undefined) expect(roundTrip(spec)).toEqual(rule);
      }),
    );
  });

  it.each([
    ['2026-08', 0, ['r', 't=sreq', 's', 't']],
    // JP main (15.6): -0 is refused, and thresholds and the summary spelling join in.
    ['2026-09', 1, ['r', 't=sreq,over=1kb', 'summary', 't', 'r,over=100']],
  ] as const)(
    'gives back every rule a spec produces, base=%s (property)',
    (specBase, least, terms) => {
      base = specBase;
      const dslBound = fc.oneof(
        fc.constant(''),
        fc.integer({ min: 1, max: 20 }).map(String),
        fc.integer({ min: least, max: 20 }).map((n) => `-${n}`),
      );
      const spec = fc
        .tuple(fc.subarray([...terms], { minLength: 1 }), fc.option(fc.tuple(dslBound, dslBound)))
        .map(
          ([policies, range]) =>
            `${policies.join('+')}${range === null ? '' : `:${range[0]}..${range[1]}`}`,
        );
      fc.assert(
        fc.property(spec, (text) => {
          const rule = roundTrip(text) as CompactionRule;
          const written = ruleToDsl(rule);
          expect(written).toBeDefined();
          expect(roundTrip(written as string)).toEqual(rule);
        }),
      );
      base = '2026-08';
    },
  );

  it('writes equivalent specs that cover the same turns on every stream (property)', () => {
    const context = fc
      .tuple(fc.nat(15), fc.array(fc.tuple(fc.nat(15), fc.nat(15)), { maxLength: 3 }))
      .map(
        ([turnCount, compactions]): RangeContext => ({
          turnCount,
          turnStarts: Array.from(
            { length: turnCount },
            (_, turn) => BigInt(turn) * 60_000_000_000n,
          ),
          now: BigInt(turnCount) * 60_000_000_000n,
          existingCompactions: compactions.map(([a, b]) => ({
            from_turn: Math.min(a, b),
            to_turn: Math.max(a, b),
            summary: false,
          })),
        }),
      );
    fc.assert(
      fc.property(anyRule, context, (rule, ctx) => {
        const spec = ruleToEquivalentDsl(rule);
        if (spec === undefined) return;
        const rebuilt = roundTrip(spec) as CompactionRule;
        expect(resolveRuleRange(ctx, rebuilt).range).toEqual(resolveRuleRange(ctx, rule).range);
      }),
    );
  });
});

describe('the DSL under base=2026-09 (JP main, spec 15.6)', () => {
  const withMain = (run: () => void) => () => {
    base = '2026-09';
    try {
      run();
    } finally {
      base = '2026-08';
    }
  };

  it(
    'reads -N as the Nth turn from the end, and refuses -0',
    withMain(() => {
      expect(parsed('s:..-3').range).toEqual({ from: null, to: { from_end: 2 } });
      expect(parsed('s:-3').range).toEqual({ from: null, to: { from_end: 2 } });
      expect(parsed('s:..-1').range).toEqual({ from: null, to: { from_end: 0 } });
      expect(parsed('s:-10..-3').range).toEqual({ from: { from_end: 9 }, to: { from_end: 2 } });
      expect(errorOf('s:-0')).toContain('1-based');
      expect(errorOf('s:..-0')).toContain('1-based');
    }),
  );

  it(
    'reads ,over=SIZE on r and t, the last one winning, and refuses it elsewhere',
    withMain(() => {
      expect(parsed('t,over=1kb,over=2mb').toolsOver).toBe('2MB');
      expect(parsed('r,over=16384+t=sres').reasoningOver).toBe('16KB');
      expect(parsed('r,over=1kb+r').reasoningOver).toBeUndefined();
      expect(errorOf('t,over')).toContain('KEY=VALUE');
      expect(errorOf('r,')).toContain('KEY=VALUE');
      expect(errorOf('t,under=1mb')).toContain('the only option is over');
      expect(errorOf('s,over=1mb')).toContain('takes no options');
      expect(errorOf('over=1mb')).toContain('unknown policy "over"');
      expect(errorOf('t,over=1.5MB')).toContain('unknown unit');
    }),
  );

  it(
    'spells the summary s, summary or summarize',
    withMain(() => {
      for (const spelling of ['s', 'summary', 'summarize']) {
        expect(parsed(`${spelling}:..-3`).summarize).toBe(true);
      }
    }),
  );

  it(
    'writes rules back with positions and thresholds',
    withMain(() => {
      const rule: CompactionRule = {
        keep_first: { turns: 0 },
        keep_last: { from_end: 2 },
        reasoning: null,
        tool_calls: 'strip-responses',
        tool_calls_over: '1MB',
        summary: null,
      };
      expect(ruleToDsl(rule)).toBe('t=strip-responses,over=1MB:..-3');
      expect(roundTrip('t=sres,over=1mb:..-3')).toEqual(rule);
      // keep_last = 3 keeps three turns: the end is the fourth turn from the end.
      expect(
        ruleToEquivalentDsl({ ...rule, tool_calls_over: undefined, keep_last: { turns: 3 } }),
      ).toBe('t=strip-responses:..-4');
    }),
  );
});
