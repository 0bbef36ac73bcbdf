import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReport } from '../core/counting/report.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import type { StreamElement } from '../core/types.ts';
import { TERMINAL_UNSAFE } from '../test/bad-input-cases.ts';
import { formatConversations, formatReport } from './format-report.ts';
import { escapeForTerminal } from './terminal.ts';

const AT = '2025-07-01 00:00:00.0';
const counter = await loadTokenCounter('chars');

/** Strings rich in what a terminal obeys: C0, DEL, C1, bidi controls, LS/PS. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
    fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u2028'),
    fc.constantFrom('a', 'é', '漢', '\\'),
  ),
  maxLength: 12,
});

describe('human-readable CLI output', () => {
  it('escapes each control and bidi character as a visible escape', () => {
    expect(escapeForTerminal('a\u001b[31mb\rc\nd\u202ee\u0085')).toBe(
      'a\\x1b[31mb\\rc\\nd\\u202ee\\x85',
    );
  });

  it('never contains a C0/C1 control or bidi character from the data (property)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 4 }), hostile, (names, title) => {
        const render = (toolNames: readonly string[], name: string) => {
          const elements: StreamElement[] = [{ timestamp: AT, type: 'turn_start' }];
          toolNames.forEach((tool, i) => {
            elements.push({
              timestamp: AT,
              type: 'tool_call_request',
              id: `c${i}`,
              name: tool,
              arguments: {},
            });
          });
          const report = createReport(elements, elements, new Map(), counter);
          return `${formatReport(report, 1)}\n${formatConversations([{ name, report }])}`;
        };
        const text = render(names, title);
        // Nothing a terminal obeys gets through, and no line is broken by the data:
        // the same tables with plain names have as many lines.
        expect(text).not.toMatch(TERMINAL_UNSAFE);
        const distinct = [...new Set(names)];
        const plain = render(
          names.map((name) => `t${distinct.indexOf(name)}`),
          't',
        );
        expect(text.split('\n').length).toBe(plain.split('\n').length);
      }),
      { numRuns: 300 },
    );
  });
});
