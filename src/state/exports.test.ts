import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfigToml } from '../core/config/config.ts';
import { dslToPartialRule, dslToRule, parseDslSpec } from '../core/config/dsl.ts';
import type { JpBase } from '../core/config/jp-base.ts';
import { applyRuleDefaults, mergeRuleLayers } from '../core/config/rule-config.ts';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { EXAMPLES } from '../examples/index.ts';
import { disposeActions, initActions } from './actions.ts';
import {
  addQuickRule,
  checkQuickRule,
  disposeExports,
  exportCompactedEvents,
  initExports,
  quickRuleToToml,
} from './exports.ts';
import { selectInput } from './selectors.ts';
import { resetStore, store } from './store.ts';

const session = createPlaygroundSession();

beforeEach(() => {
  resetStore();
  // The real core, in this thread: exports must agree with what the worker computes.
  initActions({ engine: session });
  initExports({ engine: session });
});

afterEach(() => {
  disposeExports();
  disposeActions();
});

function rulesOf(configText: string, base?: JpBase) {
  const parsed = parseConfigToml(configText, base);
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return mergeRuleLayers(parsed.config.rules ? [parsed.config.rules] : []).map(applyRuleDefaults);
}

describe('checkQuickRule', () => {
  it('reads a spec, with or without the flag in front', () => {
    for (const typed of ['r+t=sres:..-3', '  --compact=r+t=sres:..-3 ', '-k r+t=sres:..-3']) {
      expect(checkQuickRule(typed)).toMatchObject({ ok: true, spec: 'r+t=sres:..-3' });
    }
  });

  it("says what is wrong, in the core's words", () => {
    expect(checkQuickRule('')).toEqual({
      ok: false,
      message: 'Type a spec, for example r+t=sres:..-3.',
    });
    expect(checkQuickRule('r+x')).toMatchObject({ ok: false, message: /unknown policy "x"/ });
    expect(checkQuickRule('t:0..')).toMatchObject({ ok: false, message: /1-based/ });
    expect(checkQuickRule('t=keep')).toMatchObject({ ok: false, message: /unknown tools mode/ });
  });
});

describe('quickRuleToToml', () => {
  it.each(['r+t=sres:..-3', 't', 's:2..', 'r:-10..-3', 'tools=omit:+4..7', 'r+t+s'])(
    'writes %s as a rule that reads back as the same rule under base=2026-08',
    (spec) => {
      const parsed = parseDslSpec(spec, '2026-08');
      if (!parsed.ok) throw new Error(parsed.message);
      const written = quickRuleToToml(spec, dslToPartialRule(parsed.value), '2026-08');
      if (!written.ok) throw new Error(written.message);
      const toml = written.value;
      expect(toml).toMatch(
        /^# Added from the quick rule .*\n\[\[conversation\.compaction\.rules\]\]\n/,
      );
      expect(rulesOf(toml, '2026-08')).toEqual([dslToRule(parsed.value)]);
    },
  );

  // 15.6: -N is written "-N" (a position), an absolute start as the count of the same start.
  it.each([
    [
      'r+t=sres:..-3',
      'keep_first = 0\nkeep_last = "-3"\nreasoning = "strip"\ntool_calls = "strip-responses"',
    ],
    ['s:2..', 'keep_first = 1\nkeep_last = "-1"\nsummary = {}'],
    ['r:-10..-3', 'keep_first = "-10"\nkeep_last = "-3"\nreasoning = "strip"'],
    [
      't=sres,over=1mb:..-1',
      'keep_first = 0\nkeep_last = "-1"\ntool_calls = { policy = "strip-responses", over = "1MB" }',
    ],
  ])('writes %s for JP main (base=2026-09)', (spec, body) => {
    const check = checkQuickRule(spec);
    if (!check.ok) throw new Error(check.message);
    const written = quickRuleToToml(check.spec, check.rule, '2026-09');
    expect(written).toEqual({
      ok: true,
      value: `# Added from the quick rule "${spec}" (--compact=${spec})\n[[conversation.compaction.rules]]\n${body}\n`,
    });
    // And the rule reads back as the one the spec describes (same positions).
    const parsed = parseDslSpec(spec, '2026-09');
    if (!parsed.ok || !written.ok) throw new Error('unreadable');
    const [rule] = rulesOf(written.value, '2026-09');
    expect(rule?.keep_last).toEqual(dslToRule(parsed.value).keep_last);
  });

  it('refuses an absolute end under JP main, which has no config spelling', () => {
    const check = checkQuickRule('tools=omit:+4..7');
    if (!check.ok) throw new Error(check.message);
    expect(quickRuleToToml(check.spec, check.rule, '2026-09')).toMatchObject({
      ok: false,
      message: expect.stringContaining('absolute turn `@7` cannot be stored in a config rule'),
    });
  });
});

describe('addQuickRule', () => {
  it('appends the rule as a [[conversation.compaction.rules]] block', () => {
    store.setState({ configText: '[[conversation.compaction.rules]]\ntool_calls = "strip"\n' });
    expect(addQuickRule('r+t=sres:..-3')).toEqual({
      ok: true,
      ruleNumber: 2,
      replacedBuiltin: false,
      line: 5,
    });
    const text = store.getState().configText;
    expect(text.split('\n')[4]).toBe('[[conversation.compaction.rules]]');
    // Under JP main (the default) ..-3 ends at the third turn from the end: from_end(2) (15.6).
    expect(rulesOf(text)[1]).toEqual({
      keep_first: { turns: 0 },
      keep_last: { from_end: 2 },
      reasoning: 'strip',
      tool_calls: 'strip-responses',
      summary: null,
    });
  });

  it('says when the new rule replaces the built-in one', () => {
    store.setState({ configText: '[conversation.tools.x]\ncompaction = "keep"\n' });
    expect(addQuickRule('t')).toMatchObject({ ok: true, ruleNumber: 1, replacedBuiltin: true });
  });

  it('changes nothing for a wrong spec or a config it cannot extend', () => {
    store.setState({ configText: 'a = 1\n' });
    expect(addQuickRule('q')).toMatchObject({ ok: false, message: /unknown policy/ });
    const inline = '[conversation.compaction]\nrules = [{ tool_calls = "strip" }]\n';
    store.setState({ configText: inline });
    expect(addQuickRule('t')).toMatchObject({ ok: false, message: /cannot be appended/ });
    expect(store.getState().configText).toBe(inline);
    store.setState({ configText: '[[broken' });
    expect(addQuickRule('t')).toMatchObject({ ok: false, message: /config has errors/ });
  });
});

describe('exportCompactedEvents', () => {
  const example = EXAMPLES.find((candidate) => candidate.id === 'coding-session');
  if (!example) throw new Error('no coding-session example');

  it('writes the compacted stream in storage form, whatever the input encoding', async () => {
    store.setState({
      configText: example.configText,
      streamText: example.streamText,
      encoding: 'plain',
    });
    const compacted = await session.compact(selectInput(store.getState()));
    if (!compacted.ok) throw new Error(compacted.message);

    const result = await exportCompactedEvents('storage');
    if (!result.ok) throw new Error(result.message);
    const exported = parseEventsText(result.text, 'auto');
    expect(exported.encoding).toBe('storage');
    // Decoded, it is exactly what Compact puts in the editor.
    expect(exported.elements).toEqual(parseEventsText(compacted.streamText, 'plain').elements);
    const compactions = exported.elements?.filter((element) => element.type === 'compaction');
    expect(compactions?.at(-1)?.tool_overrides).toMatchObject({
      fs_read_file: { policy: 'strip', request: false, response: true },
    });

    const plain = await exportCompactedEvents('plain');
    expect(plain).toMatchObject({ ok: true, text: compacted.streamText });
  });

  it('refuses, saying why, while the config has errors', async () => {
    store.setState({ configText: '[[x', streamText: example.streamText });
    expect(await exportCompactedEvents('storage')).toMatchObject({
      ok: false,
      message: /^Fix the config first/,
    });
  });
});
