import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameToolResponses } from '../compaction/projection.ts';
import type { StreamElement } from '../types.ts';
import { createReport, describeToolName, getToolRowLabel, reportToJson } from './report.ts';
import { loadTokenCounter } from './tokens.ts';

const AT = '2025-07-01 00:00:00.0';
const counter = await loadTokenCounter('chars');

const request = (id: string, name: string): StreamElement => ({
  timestamp: AT,
  type: 'tool_call_request',
  id,
  name,
  arguments: {},
});
const response = (id: string, content: string): StreamElement => ({
  timestamp: AT,
  type: 'tool_call_response',
  id,
  content,
  is_error: false,
});

function reportOf(elements: StreamElement[]) {
  return createReport(elements, elements, nameToolResponses(elements, '2026-09'), counter);
}

describe('row names that read the same', () => {
  // Written with escapes so the test cannot be normalized by an editor.
  const nfc = 'caf\u00e9';
  const nfd = 'cafe\u0301';

  it('tells apart a tool named (unknown) from the orphan row, and NFC from NFD', () => {
    const labels = [nfc, nfd, '(unknown)', null].map(getToolRowLabel);
    expect(labels).toEqual([nfc, `${nfd} [NFD]`, '(unknown)', '(unknown) [no call]']);
    expect(new Set(labels).size).toBe(4);
  });

  it('names the code points of an unnormalized name, and tags one neither NFC nor NFD', () => {
    expect(describeToolName(nfd).detail).toBe(
      'Decomposed (NFD): U+0063 U+0061 U+0066 U+0065 U+0301',
    );
    // U+212B ANGSTROM SIGN: NFC and NFD both replace it, so it is neither form.
    expect(describeToolName('\u212b\u0301').tag).toBe('not NFC');
    expect(describeToolName('\udc00(unknown)')).toMatchObject({ tag: 'no call' });
  });
});

describe('the orphan row', () => {
  it('keeps tools named "" and "(unknown)" apart from responses without a request', () => {
    const report = reportOf([
      { timestamp: AT, type: 'turn_start' },
      request('a', ''),
      response('a', 'xx'),
      request('b', '(unknown)'),
      response('b', 'yyyy'),
      response('nowhere', 'zzzzzzzz'),
    ]);
    // By hand: one row per name, the orphan row (null) last with its one response.
    expect(report.tools.map((row) => [row.name, row.calls, row.response.before.chars])).toEqual([
      ['', 1, 2],
      ['(unknown)', 1, 4],
      [null, 1, 8],
    ]);
    expect((reportToJson(report) as { tools: { name: unknown }[] }).tools.at(-1)?.name).toBe(null);
  });

  it('no recorded tool name ever shares a row with orphan responses (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('', '(unknown)', 'null', 'fs_read_file'), fc.string()), {
          maxLength: 8,
        }),
        fc.nat({ max: 3 }),
        (names, orphans) => {
          const elements: StreamElement[] = [{ timestamp: AT, type: 'turn_start' }];
          names.forEach((name, i) => {
            elements.push(request(`c${i}`, name), response(`c${i}`, 'r'));
          });
          for (let i = 0; i < orphans; i++) elements.push(response(`orphan${i}`, 'o'));
          const rows = reportOf(elements).tools;
          // Counted by hand: each distinct name has its calls, orphans have theirs.
          for (const name of new Set(names)) {
            const row = rows.find((r) => r.name === name);
            expect(row?.calls).toBe(names.filter((n) => n === name).length);
            expect(row?.response.before.chars).toBe(row?.calls);
          }
          const orphan = rows.filter((r) => r.name === null);
          expect(orphan.length).toBe(orphans > 0 ? 1 : 0);
          if (orphans > 0) expect(orphan[0]?.response.before.chars).toBe(orphans);
          expect(rows.length).toBe(new Set(names).size + (orphans > 0 ? 1 : 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});
