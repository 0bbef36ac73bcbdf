import { describe, expect, it } from 'vitest';
import {
  mergeToolLayers,
  parseToolHint,
  parseToolsTable,
  resolveToolHintSources,
  resolveToolOverrides,
} from './tool-hints.ts';

describe('parseToolHint', () => {
  it('explains that there is no inherit literal', () => {
    const result = parseToolHint('inherit');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.message).toContain("to inherit the rule's tool_calls, leave the key out");
  });

  it('is case-sensitive and suggests the right case', () => {
    const result = parseToolHint('OMIT');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('did you mean "omit"?');
  });

  it('rejects values that are not strings', () => {
    for (const value of [true, 1, null, {}, ['keep']]) expect(parseToolHint(value).ok).toBe(false);
  });
});

describe('resolveToolOverrides', () => {
  it("resolves only tools in the map: a '*' hint does not reach absent names", () => {
    expect(resolveToolOverrides({ '*': { compaction: 'omit' } })).toEqual({});
    expect(resolveToolOverrides({ '*': { compaction: 'omit' }, a: {} })).toEqual({
      a: { policy: 'omit' },
    });
  });

  it('sorts names by code point, and treats unreadable hints as unset', () => {
    const tools = { b: { compaction: 'o' }, B: { compaction: 's' }, a: { compaction: 'bogus' } };
    expect(Object.keys(resolveToolOverrides(tools))).toEqual(['B', 'b']);
    expect(resolveToolHintSources({ ...tools, '*': { compaction: 'keep' } }).a).toEqual({
      hint: 'keep',
      from: '*',
    });
  });

  it('is safe with tool names that are Object.prototype keys', () => {
    const tools = JSON.parse(
      '{"__proto__": {"compaction": "omit"}, "constructor": {}, "*": {"compaction": "keep"}}',
    );
    const overrides = resolveToolOverrides(tools);
    expect(Object.keys(overrides)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(overrides)).toBe(Object.prototype);
  });
});

describe('parseToolsTable and mergeToolLayers', () => {
  it('rejects a non-table map, a non-table entry or a bad hint', () => {
    expect(parseToolsTable([]).ok).toBe(false);
    expect(parseToolsTable({ a: 'keep' }).ok).toBe(false);
    expect(parseToolsTable({ a: { compaction: 'keeps' } }).ok).toBe(false);
    expect(parseToolsTable({ a: { compaction: 'keep', run: 'ask' } }).ok).toBe(true);
  });

  it('merges per tool and per field without touching its inputs', () => {
    const first = { a: { run: 'ask', compaction: 'keep' } };
    const merged = mergeToolLayers([first, { a: { compaction: 'omit' }, b: {} }]);
    expect(merged).toEqual({ a: { run: 'ask', compaction: 'omit' }, b: {} });
    expect(first.a.compaction).toBe('keep');
    expect(mergeToolLayers([first, { a: { compaction: null } }])).toEqual(first);
  });
});
