/**
 * `npx tsx tools/bench/scaling.ts`: how the CLI's work grows with the input's
 * shape (issue 15). Rows: `report` and `recommend` over 1k, 10k and 100k
 * distinct tools (one call each), and config reading over a dotted key's
 * depth (parts) and a table's width (keys). Linear work keeps the time per
 * item flat across a row; the last column is how the per-item CPU time
 * grows from each size to the next (×1.0 is linear). CPU time, because a
 * shared machine stretches wall time: one row measured 3 s at 10k tools and
 * 158 s at 100k in wall time while its CPU per tool stayed flat. One run
 * each: compare ratios, not absolute times. Prints a table, then one
 * JSON line. `SCALING_TOOLS=1000,10000` picks the tool counts;
 * `SCALING_WHAT_IF_TOOLS` those of the `report --what-if` row (10k, 40k and
 * 130k by default: the sizes of issue 24, where it was quadratic).
 */

import { recommendForStreams } from '../../src/core/analyses/recommend.ts';
import { getWhatIfGridOfStreams } from '../../src/core/analyses/what-if.ts';
import { parseConfigToml } from '../../src/core/config/config.ts';
import { loadTokenCounter } from '../../src/core/counting/tokens.ts';
import { reportStream } from '../../src/core/playground/playground.ts';
import type { StreamElement } from '../../src/core/types.ts';
import { perItemGrowth, type ScalingRow as Row } from './growth.ts';

const AT = '2025-07-01 00:00:00.0';

function streamWithTools(count: number): StreamElement[] {
  const elements: StreamElement[] = [
    { timestamp: AT, type: 'turn_start' },
    { timestamp: AT, type: 'chat_request', content: 'fake' },
  ];
  for (let i = 0; i < count; i++) {
    elements.push(
      {
        timestamp: AT,
        type: 'tool_call_request',
        id: `c${i}`,
        name: `fake_tool_${i}`,
        arguments: {},
      },
      { timestamp: AT, type: 'tool_call_response', id: `c${i}`, content: 'ok', is_error: false },
    );
  }
  elements.push({ timestamp: AT, type: 'turn_start' });
  return elements;
}

/** Wall and CPU (user + system) milliseconds of one call: CPU time is what other processes stretch least. */
function time(run: () => unknown): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function measureRow(name: string, sizes: number[], run: (size: number) => unknown): Row {
  const row: Row = { name, sizes, ms: [], cpuMs: [] };
  for (const size of sizes) {
    const { wall, cpu } = time(() => run(size));
    row.ms.push(wall);
    row.cpuMs.push(cpu);
  }
  return row;
}

const rows: Row[] = [];
const counter = await loadTokenCounter('chars');
const config = parseConfigToml('[[conversation.compaction.rules]]\nkeep_last = 1\n');
const options = { now: null, view: 'sanitized' as const, counter };
const toolCounts = (process.env.SCALING_TOOLS ?? '1000,10000,100000').split(',').map(Number);

const streams = new Map(toolCounts.map((count) => [count, streamWithTools(count)]));
rows.push(
  measureRow('report, per tool', toolCounts, (count) =>
    reportStream(streams.get(count) ?? [], config, options),
  ),
  measureRow('recommend, per tool', toolCounts, (count) =>
    recommendForStreams([streams.get(count) ?? []], config, options),
  ),
);

const whatIfCounts = (process.env.SCALING_WHAT_IF_TOOLS ?? '10000,40000,130000')
  .split(',')
  .map(Number);
rows.push(
  measureRow('report --what-if, per tool', whatIfCounts, (count) =>
    getWhatIfGridOfStreams([streams.get(count) ?? streamWithTools(count)], config, options),
  ),
);

// The issue's reproducer grows one dotted key; width is many keys in one table (80k: under the 1 MiB limit).
rows.push(
  measureRow('config, per dotted-key part', [5000, 30000, 100000], (parts) =>
    parseConfigToml(
      `[[conversation.compaction.rules]]\nkeep_last = 1\n[x]\n${Array(parts).fill('k').join('.')} = 1\n`,
    ),
  ),
  measureRow('config, per key in a table', [5000, 30000, 80000], (keys) =>
    parseConfigToml(
      `[[conversation.compaction.rules]]\nkeep_last = 1\n[x]\n${Array.from({ length: keys }, (_, i) => `k${i} = 1`).join('\n')}\n`,
    ),
  ),
);

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });
console.log(
  'row | sizes | wall ms | CPU µs per item | growth of per-item CPU time, size to next size',
);
for (const row of rows) {
  const per = row.cpuMs.map((ms, i) => (ms * 1000) / (row.sizes[i] as number));
  console.log(
    `${row.name} | ${row.sizes.map(fmt).join(', ')} | ${row.ms.map((ms) => fmt(Math.round(ms))).join(', ')} | ${per.map((us) => fmt(Math.round(us))).join(', ')} | ${perItemGrowth(
      row,
    )
      .map((g) => `×${g.toFixed(1)}`)
      .join(', ')}`,
  );
}
console.log(JSON.stringify({ scaling: rows }));
