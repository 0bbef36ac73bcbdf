import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { parseConfigToml } from '../config/config.ts';
import { TOOL_HINTS } from '../config/tool-hints.ts';
import type { Report } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { reportStream } from '../playground/playground.ts';
import {
  analyzeConversation,
  createHintTable,
  getReportFromHintTable,
  type HintTable,
  mergeRepeats,
  partitionBySize,
  readConversationTitle,
} from './hint-table.ts';

const config = parseConfigToml(README_CONFIG_TOML);
const counter = await loadTokenCounter('chars');
const options = { now: null, view: 'sanitized' as const, counter };
const settings = { now: null, view: 'sanitized' as const, tokenizer: 'chars' as const };
const corpus = listCorpus();

// Counting is the slow part: every file is reported once for all tests.
const reports = new Map<string, Report>();
const streamOf = readCorpusStream;
function reportOf(path: string): Report {
  let report = reports.get(path);
  if (!report) {
    report = reportStream(streamOf(path), config, options).report;
    reports.set(path, report);
  }
  return report;
}

describe('hint tables', () => {
  const names = ['fs_read_file', 'fs_grep_files', 'fs_modify_file', 'cargo_check', 'not_called'];
  const hintArbitrary = fc.option(fc.constantFrom(...TOOL_HINTS), { nil: undefined });

  it('give, for any hints, exactly the report the pipeline gives', () => {
    const files = corpus.slice(-6).map((c) => c.eventsPath);
    const tables = new Map(
      files.map((path) => [path, createHintTable(streamOf(path), config, options)]),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.array(hintArbitrary, { minLength: names.length, maxLength: names.length }),
        hintArbitrary,
        fc.constantFrom('strip', 'strip-responses', 'omit'),
        (path, hints, star, ruleMode) => {
          let text = `[[conversation.compaction.rules]]\nkeep_last = 2\ntool_calls = "${ruleMode}"\n`;
          if (star) text += `[conversation.tools."*"]\ncompaction = "${star}"\n`;
          hints.forEach((hint, i) => {
            if (hint) text += `[conversation.tools.${names[i]}]\ncompaction = "${hint}"\n`;
          });
          const edited = parseConfigToml(text);
          // Rules differ from the table's: the table says it is stale.
          expect(
            getReportFromHintTable(tables.get(path) as HintTable, edited, settings),
          ).toBeUndefined();
          // A table for these rules answers every hint edit like a full run.
          const table = createHintTable(streamOf(path), edited, options);
          const direct = reportStream(streamOf(path), edited, options).report;
          expect(getReportFromHintTable(table, edited, settings)).toEqual(direct);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('answer a hint edit on the same rules without the stream', () => {
    const path = corpus[corpus.length - 1]?.eventsPath as string;
    const table = createHintTable(streamOf(path), config, options);
    const edited = parseConfigToml(README_CONFIG_TOML.replace('"strip-requests"', '"keep"'));
    const report = getReportFromHintTable(table, edited, settings);
    expect(report).toEqual(reportStream(streamOf(path), edited, options).report);
    expect(getReportFromHintTable(table, config, { ...settings, view: 'bare' })).toBeUndefined();
    expect(
      getReportFromHintTable(table, config, { ...settings, tokenizer: 'o200k' }),
    ).toBeUndefined();
  });

  it('survive structured cloning (they cross postMessage)', () => {
    const path = corpus[3]?.eventsPath as string;
    const table = createHintTable(streamOf(path), config, options);
    expect(structuredClone(table)).toEqual(table);
  });

  it('analyse a conversation text, or give its diagnostics', () => {
    const path = corpus[0]?.eventsPath as string;
    const analysis = analyzeConversation(readFileSync(path, 'utf8'), config, options);
    expect(analysis.ok && analysis.report).toEqual(reportOf(path));
    const broken = analyzeConversation('[{"type": "turn_start"}', config, options);
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.diagnostics[0]?.severity).toBe('error');
  });

  it('names a JP stream by its first user message, for files picked without a folder', () => {
    const text = JSON.stringify([
      { timestamp: '2025-01-01T00:00:00Z', type: 'turn_start' },
      {
        timestamp: '2025-01-01T00:00:00Z',
        type: 'chat_request',
        content: '\n  Fix the build\nthen run it',
      },
    ]);
    const analysis = analyzeConversation(text, config, options);
    expect(analysis.ok && analysis.title).toBe('Fix the build');
  });

  it('skips a message that is only an agent wrapper (/clear) for the next one (issue 24, item 14)', () => {
    const at = '2025-01-01T00:00:00Z';
    const text = JSON.stringify([
      { timestamp: at, type: 'turn_start' },
      { timestamp: at, type: 'chat_request', content: '<command-name>/clear</command-name>' },
      { timestamp: at, type: 'turn_start' },
      { timestamp: at, type: 'chat_request', content: 'Ship the fake release' },
    ]);
    const analysis = analyzeConversation(text, config, options);
    expect(analysis.ok && analysis.title).toBe('Ship the fake release');
  });
});

describe('partitionBySize', () => {
  it('puts every item in exactly one group, deterministically, largest first into the lightest', () => {
    // 9 → A; 5 → B; 3 → B (8); 3 → B (11); 1 → A (10).
    expect(partitionBySize([5, 1, 9, 3, 3], 2)).toEqual([
      [1, 2],
      [0, 3, 4],
    ]);
    expect(partitionBySize([5, 1, 9, 3, 3], 2)).toEqual(partitionBySize([5, 1, 9, 3, 3], 2));
    expect(partitionBySize([], 3)).toEqual([[], [], []]);
    expect(partitionBySize([4, 4], 0)).toEqual([[0, 1]]);
  });

  it('balances the corpus between two workers within the largest file', () => {
    const sizes = corpus.map((c) => c.size);
    const [a = 0, b = 0] = partitionBySize(sizes, 2).map((group) =>
      group.reduce((sum, index) => sum + (sizes[index] as number), 0),
    );
    expect(a + b).toBe(sizes.reduce((x, y) => x + y, 0));
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(...sizes));
  });
});

describe('small helpers', () => {
  it('reads a conversation title from metadata.json', () => {
    expect(readConversationTitle('{"title": "A", "last_activated_at": "x"}')).toBe('A');
    expect(readConversationTitle('{"last_activated_at": "x"}')).toBeUndefined();
    expect(readConversationTitle('{"title": "  "}')).toBeUndefined();
    expect(readConversationTitle('not json')).toBeUndefined();
    expect(readConversationTitle('[1]')).toBeUndefined();
  });

  it('merges repeated responses by text', () => {
    expect(
      mergeRepeats([
        { repeats: { a: { text: 'ok', count: 3 }, b: { text: 'x', count: 1 } } },
        { repeats: { a: { text: 'ok', count: 2 } } },
        { repeats: { a: { text: 'done', count: 4 } } },
      ]),
    ).toEqual({ a: { text: 'ok', count: 5 }, b: { text: 'x', count: 1 } });
  });
});
