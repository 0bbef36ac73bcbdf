/**
 * `npx tsx tools/bench/scaling.ts`: how the CLI's work grows with the input's
 * shape (issue 15). Rows: `report` and `recommend` over 1k, 10k and 100k
 * distinct tools (one call each), and config reading over a dotted key's
 * depth (parts) and a table's width (keys). Linear work keeps the time per
 * item flat across a row; the last column is the ratio of the largest
 * size's per-item time to the smallest's. One run each on a shared, noisy
 * machine: compare ratios, not absolute times. Prints a table, then one
 * JSON line. `SCALING_TOOLS=1000,10000` picks the tool counts.
 */
import { parseConfigToml } from '../../src/core/config/config.ts';
import { loadTokenCounter } from '../../src/core/counting/tokens.ts';
import { reportStream } from '../../src/core/playground/playground.ts';
import { recommendForStreams } from '../../src/core/playground/recommend.ts';
import type { StreamElement } from '../../src/core/types.ts';

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

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

interface Row {
  name: string;
  sizes: number[];
  ms: number[];
}

const rows: Row[] = [];
const counter = await loadTokenCounter('chars');
const config = parseConfigToml('[[conversation.compaction.rules]]\nkeep_last = 1\n');
const options = { now: null, view: 'sanitized' as const, counter };
const toolCounts = (process.env.SCALING_TOOLS ?? '1000,10000,100000').split(',').map(Number);

const report: Row = { name: 'report, per tool', sizes: toolCounts, ms: [] };
const recommend: Row = { name: 'recommend, per tool', sizes: toolCounts, ms: [] };
for (const count of toolCounts) {
  const stream = streamWithTools(count);
  report.ms.push(time(() => reportStream(stream, config, options)));
  recommend.ms.push(time(() => recommendForStreams([stream], config, options)));
}
rows.push(report, recommend);

// The reproducer grows one dotted key; width is many keys in one table (80k: under the 1 MiB limit).
const depths = [5000, 30000, 100000];
rows.push({
  name: 'config, per dotted-key part',
  sizes: depths,
  ms: depths.map((parts) =>
    time(() =>
      parseConfigToml(
        `[[conversation.compaction.rules]]\nkeep_last = 1\n[x]\n${Array(parts).fill('k').join('.')} = 1\n`,
      ),
    ),
  ),
});
const widths = [5000, 30000, 80000];
rows.push({
  name: 'config, per key in a table',
  sizes: widths,
  ms: widths.map((keys) =>
    time(() =>
      parseConfigToml(
        `[[conversation.compaction.rules]]\nkeep_last = 1\n[x]\n${Array.from({ length: keys }, (_, i) => `k${i} = 1`).join('\n')}\n`,
      ),
    ),
  ),
});

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });
console.log('row | sizes | total ms | µs per item | growth of per-item time');
for (const row of rows) {
  const per = row.ms.map((ms, i) => (ms * 1000) / (row.sizes[i] as number));
  const growth = (per.at(-1) as number) / (per[0] as number);
  console.log(
    `${row.name} | ${row.sizes.map(fmt).join(', ')} | ${row.ms.map((ms) => fmt(Math.round(ms))).join(', ')} | ${per.map((us) => fmt(Math.round(us))).join(', ')} | ×${growth.toFixed(1)}`,
  );
}
console.log(JSON.stringify({ scaling: rows }));
