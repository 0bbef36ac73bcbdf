import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { readCorpusStream } from '../../test/corpus.ts';
import { TWO_RULES, toolTurnsStream } from '../../test/interacting-hints.ts';
import { READINGS, type Readings, withReadings } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { reportStream } from '../playground/playground.ts';
import type { StreamElement } from '../types.ts';
import { createHintTable, HINT_CHOICES, type HintChoice } from './hint-table.ts';
import { getWhatIfGrid, getWhatIfGridOfStreams, whatIfToJson } from './what-if.ts';

const RULES = `[[conversation.compaction.rules]]
keep_last = 2
reasoning = "strip"
tool_calls = "strip-responses"
`;

/** The spec's rulings, then each alternative reading on its own ("JP today" among them). */
const EVERY_READING: readonly { label: string; readings: Partial<Readings> }[] = [
  { label: 'rulings', readings: {} },
  ...READINGS.map((info) => ({
    label: `${info.key}=${info.values[1].value}`,
    readings: { [info.name]: info.values[1].value },
  })),
];

/** The hints the user's config sets on top of the rule. */
const USER_HINTS: ReadonlyMap<string, string> = new Map([
  ['fs_read_file', 'strip'],
  ['fs_grep_files', 'omit'],
  ['cargo_check', 'keep'],
]);

/** The config as TOML text, with `tool`'s hint replaced by `choice` (none for inherit). */
function tomlWith(tool: string | null, choice: HintChoice | null, rules = RULES): string {
  const hints = new Map(USER_HINTS);
  if (tool !== null) {
    hints.delete(tool);
    if (choice !== null && choice !== 'inherit') hints.set(tool, choice);
  }
  let text = rules;
  for (const [name, hint] of hints) {
    text += `\n[conversation.tools.${name}]\ncompaction = "${hint}"\n`;
  }
  return text;
}

const CONVERSATIONS = [
  '17758406187-missing-date-in-version-string',
  '17671120783-investigating-segfault-in-iter-mut-change-tracking',
  '17800836875-jp-init-xdg-directory-issue-on-linux',
];

/** Five turns, each calling xtool then ytool with a long response. */
function corpus(id: string): StreamElement[] {
  const entry = listCorpus().find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`no corpus conversation ${id}`);
  return readCorpusStream(entry.eventsPath);
}

describe('what-if grid', () => {
  for (const [rules, name] of [
    [RULES, 'one rule'],
    [TWO_RULES, 'two rules'],
  ] as const) {
    for (const { label, readings: partial } of EVERY_READING) {
      it(`every cell equals report run with that hint set for that tool alone (${name}, ${label})`, async () => {
        const counter = await loadTokenCounter('o200k');
        const readings = withReadings(partial);
        const options = { now: null, view: 'sanitized' as const, counter, readings };
        const config = parseConfigToml(tomlWith(null, null, rules));
        let checked = 0;
        for (const id of CONVERSATIONS) {
          const elements = corpus(id);
          const grid = getWhatIfGridOfStreams([elements], config, options);
          const called = new Set(
            elements.flatMap((e) =>
              e.type === 'tool_call_request' && typeof e.name === 'string' ? [e.name] : [],
            ),
          );
          expect(
            grid.tools.map((row) => row.name),
            id,
          ).toEqual([...called].sort());
          for (const row of grid.tools) {
            expect(row.inForce, `${id} ${row.name}`).toBe(USER_HINTS.get(row.name) ?? null);
            for (const choice of HINT_CHOICES) {
              // Expected: the TOML edited by hand and counted as `report` counts it.
              const { report } = reportStream(
                elements,
                parseConfigToml(tomlWith(row.name, choice, rules)),
                options,
              );
              const reportRow = report.tools.find((r) => r.name === row.name);
              expect(reportRow, `${id} ${row.name}`).toBeDefined();
              if (!reportRow) continue;
              expect(row.choices[choice], `${id} ${row.name} ${choice}`).toEqual({
                after: {
                  tokens: reportRow.request.after.tokens + reportRow.response.after.tokens,
                  chars: reportRow.request.after.chars + reportRow.response.after.chars,
                },
                saved: reportRow.saved,
              });
              checked++;
            }
          }
        }
        // 5 + 5 + 9 tools, six choices each.
        expect(checked).toBe(19 * 6);
      });
    }
  }

  it('gives the figures report gives where one tool\'s hint moves another (13.1 "apply")', async () => {
    // Hand count: under "apply" the reasoning-only compaction carries xtool's override,
    // so it wins the turn and leaves ytool as it is; with xtool inheriting, no
    // compaction but the tool_calls one decides, and ytool's responses are stripped.
    const counter = await loadTokenCounter('chars');
    const readings = withReadings({ noToolCalls: 'apply' });
    const options = { now: null, view: 'sanitized' as const, counter, readings };
    const elements = toolTurnsStream();
    const hinted = parseConfigToml(
      `${TWO_RULES}\n[conversation.tools.xtool]\ncompaction = "omit"\n`,
    );
    const grid = getWhatIfGridOfStreams([elements], hinted, options);
    const ytool = grid.tools.find((row) => row.name === 'ytool');
    const asIs = reportStream(elements, hinted, options).report.tools.find(
      (r) => r.name === 'ytool',
    );
    expect(ytool?.choices.inherit.after.chars).toBe(
      (asIs?.request.after.chars ?? -1) + (asIs?.response.after.chars ?? -1),
    );
    // Nothing of ytool's is compacted while xtool's hint holds the turn.
    expect(ytool?.choices.inherit.saved.chars).toBe(0);
  });

  it('states what the rule alone saves and what the hints add, as report counts them', async () => {
    const counter = await loadTokenCounter('o200k');
    const options = { now: null, view: 'sanitized' as const, counter };
    const config = parseConfigToml(tomlWith(null, null));
    const elements = corpus(CONVERSATIONS[2] as string);
    const grid = getWhatIfGrid([createHintTable(elements, config, options)], config, {
      ...options,
      tokenizer: counter.id,
    });
    const ruleOnly = reportStream(elements, parseConfigToml(RULES), options).report;
    const withHints = reportStream(elements, config, options).report;
    expect(grid.ruleSaves).toEqual(ruleOnly.totals.saved);
    expect(grid.hintsSaveMore.tokens).toBe(
      withHints.totals.saved.tokens - ruleOnly.totals.saved.tokens,
    );
    for (const row of grid.tools) {
      const inForce = row.inForce ?? 'inherit';
      expect(row.beyondRule.tokens).toBe(
        row.choices.inherit.after.tokens - row.choices[inForce].after.tokens,
      );
    }
  });

  it('sums each choice over the conversations of a workspace', async () => {
    const counter = await loadTokenCounter('chars');
    const options = { now: null, view: 'sanitized' as const, counter };
    const settings = { now: null, view: 'sanitized' as const, tokenizer: counter.id };
    const config = parseConfigToml(tomlWith(null, null));
    const tables = CONVERSATIONS.map((id) => createHintTable(corpus(id), config, options));
    const whole = getWhatIfGrid(tables, config, settings);
    const single = tables.map((table) => getWhatIfGrid([table], config, settings));
    for (const row of whole.tools) {
      for (const choice of HINT_CHOICES) {
        const sum = single
          .flatMap((grid) => grid.tools.filter((r) => r.name === row.name))
          .reduce((total, r) => total + r.choices[choice].after.chars, 0);
        expect(row.choices[choice].after.chars, `${row.name} ${choice}`).toBe(sum);
      }
      expect(HINT_CHOICES).toContain(row.suggested ?? 'inherit');
    }
  });

  it('prints the JSON shape of report --what-if --json', async () => {
    const counter = await loadTokenCounter('chars');
    const config = parseConfigToml(tomlWith(null, null));
    const options = { now: null, view: 'sanitized' as const, counter };
    const table = createHintTable(corpus(CONVERSATIONS[0] as string), config, options);
    const json = whatIfToJson(getWhatIfGrid([table], config, { ...options, tokenizer: 'chars' }));
    expect(Object.keys(json)).toEqual(['tokenizer', 'tools']);
    for (const tool of json.tools) {
      expect(Object.keys(tool)).toEqual(['name', 'inForce', 'choices']);
      expect(Object.keys(tool.choices)).toEqual([
        'inherit',
        'keep',
        'strip',
        'strip-requests',
        'strip-responses',
        'omit',
      ]);
      for (const cell of Object.values(tool.choices)) {
        expect(Object.keys(cell)).toEqual(['after', 'saved']);
        expect(Object.keys(cell.after)).toEqual(['tokens', 'chars']);
      }
    }
  });
});
