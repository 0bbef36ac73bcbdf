/**
 * The run's figures as they cross from the worker to the page. A row of the
 * savings table is eight objects (the row, its two before/after pairs, their
 * four amounts, the saved amount) and a tool's hint one more; the structured
 * clone takes each apart in the worker and builds it again in one task on
 * the page's main thread. With 50,000 tools that was 13 MB and 300 ms of
 * main thread on every keystroke (a CPU profile of typing in
 * `many-tools-perf.spec.ts`). Packed, a table's numbers are one
 * `Float64Array` and its strings flat arrays; the page builds the rows again
 * in a loop, several times faster than the clone did. Everything else in
 * the figures crosses as it is.
 */
import type { ToolRow } from '../../core/counting/report.ts';
import type { PlaygroundFigures, ToolHintInfo } from '../../core/playground/types.ts';

/** A row's numbers, in this order (`ROW_NUMBERS` per row). */
const ROW_NUMBERS = 11;

/** The savings rows: names in order, and `ROW_NUMBERS` numbers per row. */
export interface PackedToolRows {
  names: (string | null)[];
  numbers: Float64Array;
}

/** The tools' hints, a flat array per field. */
export interface PackedToolHints {
  names: string[];
  hints: ToolHintInfo['hint'][];
  sources: ToolHintInfo['source'][];
  policies: ToolHintInfo['policy'][];
  calls: Float64Array;
  /** `null` where the hint is in force (the field is absent). */
  ignored: (string | null)[];
}

/** The figures with their two per-tool tables packed. */
export type PackedFigures = Omit<PlaygroundFigures, 'report' | 'tools'> & {
  report: Omit<PlaygroundFigures['report'], 'tools'> & { tools: PackedToolRows };
  tools: PackedToolHints;
};

// Every field of the two row types is packed: a field added to either type
// and not here fails to compile, rather than vanishing on the way.
const ROW_FIELDS = ['name', 'calls', 'request', 'response', 'saved'] as const;
const HINT_FIELDS = ['name', 'hint', 'source', 'policy', 'calls', 'ignored'] as const;
type Unpacked<T, Fields extends readonly PropertyKey[]> = Exclude<keyof T, Fields[number]>;
const everyRowField: [Unpacked<ToolRow, typeof ROW_FIELDS>] extends [never] ? true : never = true;
const everyHintField: [Unpacked<ToolHintInfo, typeof HINT_FIELDS>] extends [never] ? true : never =
  true;
void everyRowField;
void everyHintField;

function packRows(rows: readonly ToolRow[]): PackedToolRows {
  const numbers = new Float64Array(rows.length * ROW_NUMBERS);
  const names: (string | null)[] = new Array(rows.length);
  rows.forEach((row, i) => {
    names[i] = row.name;
    const at = i * ROW_NUMBERS;
    numbers[at] = row.calls;
    numbers[at + 1] = row.request.before.tokens;
    numbers[at + 2] = row.request.before.chars;
    numbers[at + 3] = row.request.after.tokens;
    numbers[at + 4] = row.request.after.chars;
    numbers[at + 5] = row.response.before.tokens;
    numbers[at + 6] = row.response.before.chars;
    numbers[at + 7] = row.response.after.tokens;
    numbers[at + 8] = row.response.after.chars;
    numbers[at + 9] = row.saved.tokens;
    numbers[at + 10] = row.saved.chars;
  });
  return { names, numbers };
}

function unpackRows({ names, numbers }: PackedToolRows): ToolRow[] {
  const rows: ToolRow[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const at = i * ROW_NUMBERS;
    const n = (offset: number) => numbers[at + offset] as number;
    rows[i] = {
      name: names[i] as string | null,
      calls: n(0),
      request: {
        before: { tokens: n(1), chars: n(2) },
        after: { tokens: n(3), chars: n(4) },
      },
      response: {
        before: { tokens: n(5), chars: n(6) },
        after: { tokens: n(7), chars: n(8) },
      },
      saved: { tokens: n(9), chars: n(10) },
    };
  }
  return rows;
}

function packHints(tools: readonly ToolHintInfo[]): PackedToolHints {
  return {
    names: tools.map((tool) => tool.name),
    hints: tools.map((tool) => tool.hint),
    sources: tools.map((tool) => tool.source),
    policies: tools.map((tool) => tool.policy),
    calls: Float64Array.from(tools, (tool) => tool.calls),
    ignored: tools.map((tool) => tool.ignored ?? null),
  };
}

function unpackHints(packed: PackedToolHints): ToolHintInfo[] {
  const tools: ToolHintInfo[] = new Array(packed.names.length);
  for (let i = 0; i < packed.names.length; i++) {
    const ignored = packed.ignored[i];
    tools[i] = {
      name: packed.names[i] as string,
      hint: packed.hints[i] as ToolHintInfo['hint'],
      source: packed.sources[i] as ToolHintInfo['source'],
      policy: packed.policies[i] as ToolHintInfo['policy'],
      calls: packed.calls[i] as number,
      ...(ignored === null || ignored === undefined ? {} : { ignored }),
    };
  }
  return tools;
}

/** The figures as the worker posts them. */
export function packFigures(figures: PlaygroundFigures): PackedFigures {
  return {
    ...figures,
    report: { ...figures.report, tools: packRows(figures.report.tools) },
    tools: packHints(figures.tools),
  };
}

/** The figures as the page reads them: equal to what was packed. */
export function unpackFigures(packed: PackedFigures): PlaygroundFigures {
  return {
    ...packed,
    report: { ...packed.report, tools: unpackRows(packed.report.tools) },
    tools: unpackHints(packed.tools),
  };
}
