/**
 * `npm run bench`: the pipeline's speed, in one process. Prints tables and,
 * as its last line, one JSON object with the figures. Figures are medians of
 * several runs where a run is short; this machine is shared and noisy, so
 * compare ratios measured in the same run.
 *
 * On the largest corpus conversation (the fields `file`, `tokenizerOnlyMs`,
 * `coldMs`, `warmMs`):
 * - tokenizer only: counting every provider-visible payload, nothing cached;
 * - cold: read, decode, count, create, project, report with empty caches;
 * - warm: the same after changing one hint, with the session's caches.
 *
 * On workspaces (`workspaces`): the whole corpus (20 files), and synthetic
 * workspaces of 1x, 10x and 100x its size written to a temporary folder by
 * the generator (`BENCH_SCALES=1,10` to leave some out). Each is processed
 * one file at a time, as a pool worker would: read, decode, count, and a
 * hint table per file (`src/core/analyses/hint-table.ts`); the file's stream and token
 * cache are dropped before the next, so memory is bounded by the largest
 * file plus the tables (about 20 kB a file in memory), not by the workspace. Warm is a
 * hint change answered from the tables. Then the corpus again on a
 * `worker_threads` pool sized to the cores against one worker (`pool`).
 */

import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  analyzeConversation,
  getReportFromHintTable,
  type HintTable,
  partitionBySize,
} from '../../src/core/analyses/hint-table.ts';
import { providerView } from '../../src/core/compaction/projection.ts';
import { parseConfigToml } from '../../src/core/config/config.ts';
import { formatCount } from '../../src/core/counting/format.ts';
import { addReports, getPayload, type Report } from '../../src/core/counting/report.ts';
import { createTokenCounter, loadTokenCounter } from '../../src/core/counting/tokens.ts';
import { createPlaygroundSession, reportStream } from '../../src/core/playground/playground.ts';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { sanitize } from '../../src/core/stream/sanitize.ts';
import { generateEventsText, generateWorkspace } from '../synthetic/synthetic.ts';
import type { PoolJob, PoolResult } from './pool-worker.ts';
import { printTargetsTable } from './targets.ts';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/jp-conversations');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const loadAtStart = loadavg()[0] ?? 0;

const files = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(CORPUS, entry.name, 'events.json'))
  .sort((a, b) => statSync(b).size - statSync(a).size);
const file = files[0] as string;
const text = readFileSync(file, 'utf8');

const CONFIG = (hint: string) => `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 2
reasoning = "strip"
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "${hint}"

[conversation.tools.fs_modify_file]
compaction = "strip-requests"
`;
const AS_TEXT = { disallowedSpecial: new Set<string>() };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Wall and CPU (user + system) milliseconds of one call; CPU time is less stretched by other processes. */
async function time(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

// Every distinct payload the model would see before compaction, each counted
// once: the tokenizer's whole job (the pipeline caches by string too).
const elements = parseEventsText(text, 'auto').elements ?? [];
const payloads = [
  ...new Set(providerView(sanitize(elements)).flatMap((e) => getPayload(e)?.text ?? [])),
];
countTokens('warm up the module', AS_TEXT);

/**
 * A user's first open, with every cache empty: gpt-tokenizer keeps an LRU
 * cache of BPE merges (100,000 entries) across calls in its module instance,
 * which would make every round after the first a warm one. `clearMergeCache()`
 * empties it (its only cache: the rank tables are fixed data); our own caches
 * live in the counter and the session, made new for each cold round.
 */
const COLD_HOW =
  "caches cleared before each cold round: gpt-tokenizer's merge cache by clearMergeCache(), a new counter and session";

const samples = {
  tokenizer: [] as { wall: number; cpu: number }[],
  pipeline: [] as { wall: number; cpu: number }[],
  playground: [] as { wall: number; cpu: number }[],
  // The cold pipeline's two steps, timed inside the same rounds.
  read: [] as { wall: number; cpu: number }[],
  report: [] as { wall: number; cpu: number }[],
};
// Round 0 is a warm-up and is not kept: it pays for the JIT compiling each
// path once, which a user pays once per page load, not per open (it made the
// first tokenizer-only round 4× the others and the ratio below meaningless).
// Interleaved, so that load from other processes falls on all three alike.
for (let run = 0; run <= RUNS; run++) {
  const keep = run > 0;
  clearMergeCache();
  const tokenizer = await time(() => {
    for (const payload of payloads) countTokens(payload, AS_TEXT);
  });
  clearMergeCache();
  let read = { wall: 0, cpu: 0 };
  let report = { wall: 0, cpu: 0 };
  const pipeline = await time(async () => {
    const counter = await loadTokenCounter('o200k');
    let parsed: ReturnType<typeof parseEventsText> | undefined;
    read = await time(() => {
      parsed = parseEventsText(text, 'auto');
    });
    report = await time(() =>
      reportStream(parsed?.elements ?? [], parseConfigToml(CONFIG('strip-responses')), {
        now: null,
        view: 'sanitized',
        counter,
      }),
    );
  });
  clearMergeCache();
  const playground = await time(() => createPlaygroundSession().run(input('strip-responses')));
  if (!keep) continue;
  samples.tokenizer.push(tokenizer);
  samples.pipeline.push(pipeline);
  samples.read.push(read);
  samples.report.push(report);
  samples.playground.push(playground);
}

// Warm: one session, as in the worker; each run changes one hint.
const counter = await loadTokenCounter('o200k');
const parsed = parseEventsText(text, 'auto');
const hints = ['keep', 'omit', 'strip', 'strip-requests', 'strip-responses'];
reportStream(parsed.elements ?? [], parseConfigToml(CONFIG('strip-responses')), {
  now: null,
  view: 'sanitized',
  counter,
});
const session = createPlaygroundSession();
function input(hint: string) {
  return {
    configText: CONFIG(hint),
    streamText: text,
    encoding: 'auto' as const,
    tokenizer: 'o200k' as const,
    now: null,
    view: 'sanitized' as const,
  };
}
await session.run(input('strip-responses'));
const warm: number[] = [];
const warmFull: number[] = [];
for (let run = 0; run < RUNS * 2; run++) {
  const hint = hints[run % hints.length] as string;
  warm.push(
    (
      await time(() =>
        reportStream(parsed.elements ?? [], parseConfigToml(CONFIG(hint)), {
          now: null,
          view: 'sanitized',
          counter,
        }),
      )
    ).wall,
  );
  warmFull.push((await time(() => session.run(input(hint)))).wall);
}

const wallOf = (list: { wall: number }[]) => median(list.map((s) => s.wall));
const cpuOf = (list: { cpu: number }[]) => median(list.map((s) => s.cpu));
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
const result = {
  file: `${basename(dirname(file))}/events.json`,
  cold: COLD_HOW,
  tokenizerOnlyMs: Number(wallOf(samples.tokenizer).toFixed(1)),
  coldMs: Number(wallOf(samples.pipeline).toFixed(1)),
  coldPlaygroundMs: Number(wallOf(samples.playground).toFixed(1)),
  warmMs: Number(median(warm).toFixed(2)),
  warmPlaygroundMs: Number(median(warmFull).toFixed(2)),
  coldOverTokenizer: ratio(wallOf(samples.pipeline), wallOf(samples.tokenizer)),
  coldOverTokenizerCpu: ratio(cpuOf(samples.pipeline), cpuOf(samples.tokenizer)),
  coldReadCpuMs: Number(cpuOf(samples.read).toFixed(1)),
  coldReportCpuMs: Number(cpuOf(samples.report).toFixed(1)),
  warmOverCold: Number((median(warm) / wallOf(samples.pipeline)).toFixed(4)),
};
const rows = [
  ['measure', 'median ms', 'cpu ms', 'runs'],
  [
    'tokenizer only (distinct payloads), cold',
    result.tokenizerOnlyMs.toFixed(1),
    cpuOf(samples.tokenizer).toFixed(1),
    String(RUNS),
  ],
  [
    'cold pipeline (decode → report)',
    result.coldMs.toFixed(1),
    cpuOf(samples.pipeline).toFixed(1),
    String(RUNS),
  ],
  [
    'cold playground run (+ transcripts)',
    result.coldPlaygroundMs.toFixed(1),
    cpuOf(samples.playground).toFixed(1),
    String(RUNS),
  ],
  [
    '  of it: read (UTF-8, JSON, validate, decode)',
    wallOf(samples.read).toFixed(1),
    cpuOf(samples.read).toFixed(1),
    String(RUNS),
  ],
  [
    '  of it: report (count, compact, project)',
    wallOf(samples.report).toFixed(1),
    cpuOf(samples.report).toFixed(1),
    String(RUNS),
  ],
  ['warm pipeline (one hint changed)', result.warmMs.toFixed(2), '', String(RUNS * 2)],
  ['warm playground run (+ transcripts)', result.warmPlaygroundMs.toFixed(2), '', String(RUNS * 2)],
];
console.log(`${file} (${(text.length / 1e6).toFixed(2)} MB, ${elements.length} elements)`);
console.log(COLD_HOW);
for (const row of rows)
  console.log(
    `${row[0]?.padEnd(42)} ${row[1]?.padStart(10)} ${row[2]?.padStart(8)} ${row[3]?.padStart(5)}`,
  );
console.log('');
console.log('target                                    measured             target');
console.log(
  `cold pipeline / tokenizer alone (cold)    ${`${result.coldOverTokenizer}× (cpu ${result.coldOverTokenizerCpu}×)`.padEnd(20)} ≤ 1.15×`,
);
console.log(
  `warm / cold                               ${`1/${Math.round(1 / result.warmOverCold)}`.padEnd(20)} ≤ 1/30`,
);

// --- The CLI, whole process --------------------------------------------------

const ROOT = resolve(import.meta.dirname, '../..');
const cliTemp = mkdtempSync(join(tmpdir(), 'bench-cli-'));
const hintsFile = join(cliTemp, 'hints.toml');
writeFileSync(hintsFile, CONFIG('strip-responses'));
const commands = {
  bin: ['bin/compaction-playground.mjs', 'report', '--config', hintsFile, file],
  reference: ['tools/bench/cli-reference.mjs', file],
  tsx: ['--import', 'tsx', 'src/cli/main.ts', 'report', '--config', hintsFile, file],
};
function runProcess(args: string[]): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr}`);
  return performance.now() - start;
}
// Once each first: the bin builds dist-cli/ if it is stale, and the files get into the page cache.
for (const args of Object.values(commands)) runProcess(args);
const cliTimes = { bin: [] as number[], reference: [] as number[], tsx: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  for (const [name, args] of Object.entries(commands)) {
    cliTimes[name as keyof typeof cliTimes].push(runProcess(args));
  }
}
rmSync(cliTemp, { recursive: true, force: true });
const cli = {
  binMs: Math.round(median(cliTimes.bin)),
  referenceMs: Math.round(median(cliTimes.reference)),
  tsxMs: Math.round(median(cliTimes.tsx)),
  binOverReference: ratio(median(cliTimes.bin), median(cliTimes.reference)),
  tsxOverReference: ratio(median(cliTimes.tsx), median(cliTimes.reference)),
};
console.log(
  `CLI report, whole process / reference   ${`${cli.binOverReference}× (${cli.binMs} / ${cli.referenceMs} ms)`.padEnd(20)} ≤ 1.25×  (through tsx: ${cli.tsxOverReference}×, ${cli.tsxMs} ms)`,
);
console.log(
  '(the browser targets, keystroke → figure and the rest, are printed by test/e2e/perf.spec.ts)',
);
printTargetsTable(ROOT, {
  coldOverTokenizer: result.coldOverTokenizer,
  coldOverTokenizerCpu: result.coldOverTokenizerCpu,
  warmOverCold: result.warmOverCold,
  warmPlaygroundOverColdPlayground: result.warmPlaygroundMs / result.coldPlaygroundMs,
  cliBinOverReference: cli.binOverReference,
  cliBinMs: cli.binMs,
  cliReferenceMs: cli.referenceMs,
  // Quick: the scaling rows stop at 10k tools (100k recommend alone takes minutes here).
  scalingTools: process.env.BENCH_QUICK === '1' ? '1000,10000' : undefined,
});

if (process.env.BENCH_QUICK === '1') {
  console.log(
    JSON.stringify({ ...result, loadAverage: { start: loadAtStart, end: loadavg()[0] } }),
  );
  process.exit(0);
}

// --- Workspaces --------------------------------------------------------------

// A full collection between workspaces, so one's garbage does not count against the next.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Peak memory, sampled after every file and every 25 ms while the event loop is free. */
const memory = {
  rss: 0,
  heap: 0,
  reset() {
    collectGarbage();
    this.rss = 0;
    this.heap = 0;
    this.sample();
  },
  sample() {
    const usage = process.memoryUsage();
    this.rss = Math.max(this.rss, usage.rss);
    this.heap = Math.max(this.heap, usage.heapUsed);
  },
};
const sampler = setInterval(() => memory.sample(), 25);
sampler.unref();

const SETTINGS = { now: null, view: 'sanitized' as const, tokenizer: 'o200k' as const };
const COLD_CONFIG = CONFIG('strip-responses');
const newCounter = () => createTokenCounter('o200k', (t) => countTokens(t, AS_TEXT));

/** Cold: every file read, decoded, counted and tabled, one at a time; then the merged report. */
function runCold(paths: readonly string[]): {
  ms: number;
  cpuMs: number;
  report: Report;
  tables: HintTable[];
} {
  clearMergeCache();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const config = parseConfigToml(COLD_CONFIG);
  const tables: HintTable[] = [];
  const reports: Report[] = [];
  for (const path of paths) {
    // A counter per file: its cache goes with the file, so memory stays bounded.
    const analysis = analyzeConversation(readFileSync(path, 'utf8'), config, {
      now: null,
      view: 'sanitized',
      counter: newCounter(),
    });
    if (!analysis.ok) throw new Error(`${path}: ${analysis.diagnostics[0]?.message}`);
    tables.push(analysis.table);
    reports.push(analysis.report);
    memory.sample();
  }
  const report = addReports(reports, 'o200k');
  const used = process.cpuUsage(cpu);
  return {
    ms: performance.now() - start,
    cpuMs: (used.user + used.system) / 1000,
    report,
    tables,
  };
}

/** Warm: one hint changed, the workspace's report from its tables. */
function runWarm(tables: readonly HintTable[], hint: string): { ms: number; report: Report } {
  const start = performance.now();
  const config = parseConfigToml(CONFIG(hint));
  const reports = tables.map((table) => {
    const report = getReportFromHintTable(table, config, SETTINGS);
    if (!report) throw new Error('a hint table went stale on a hint change');
    return report;
  });
  const report = addReports(reports, 'o200k');
  return { ms: performance.now() - start, report };
}

interface WorkspaceFigures {
  name: string;
  files: number;
  mb: number;
  tokens: number;
  coldMs: number;
  /** CPU time of the cold run (user + system): less disturbed by other processes than wall time. */
  coldCpuMs: number;
  warmMs: number;
  peakRssMb: number;
  peakHeapMb: number;
  coldMsPerMToken: number;
  coldCpuMsPerMToken: number;
}

const mb = (bytes: number) => Number((bytes / 1e6).toFixed(1));

function measureWorkspace(
  name: string,
  paths: readonly string[],
  coldRuns: number,
): WorkspaceFigures {
  memory.reset();
  const colds: number[] = [];
  const cpus: number[] = [];
  let last: ReturnType<typeof runCold> | undefined;
  for (let run = 0; run < coldRuns; run++) {
    last = undefined;
    collectGarbage();
    last = runCold(paths);
    colds.push(last.ms);
    cpus.push(last.cpuMs);
  }
  const { report, tables } = last as ReturnType<typeof runCold>;
  const warms: number[] = [];
  for (let run = 0; run < 10; run++) {
    const warm = runWarm(tables, hints[run % hints.length] as string);
    warms.push(warm.ms);
    if (run === 4 && name === 'corpus') {
      // Once, a check that the tables answer like a full run (hint 'strip-responses').
      const full = addReports(
        paths.map(
          (path) =>
            reportStream(
              parseEventsText(readFileSync(path, 'utf8'), 'auto').elements ?? [],
              parseConfigToml(CONFIG(hints[run % hints.length] as string)),
              { now: null, view: 'sanitized', counter },
            ).report,
        ),
        'o200k',
      );
      if (JSON.stringify(full) !== JSON.stringify(warm.report)) {
        throw new Error('the hint tables disagree with a full run');
      }
    }
  }
  memory.sample();
  const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  const tokens = report.totals.before.tokens;
  const coldMs = median(colds);
  const coldCpuMs = median(cpus);
  return {
    name,
    files: paths.length,
    mb: mb(bytes),
    tokens,
    coldMs: Number(coldMs.toFixed(1)),
    coldCpuMs: Number(coldCpuMs.toFixed(1)),
    warmMs: Number(median(warms).toFixed(2)),
    peakRssMb: Math.round(memory.rss / 1e6),
    peakHeapMb: Math.round(memory.heap / 1e6),
    coldMsPerMToken: Number((coldMs / (tokens / 1e6)).toFixed(1)),
    coldCpuMsPerMToken: Number((coldCpuMs / (tokens / 1e6)).toFixed(1)),
  };
}

/** Writes a synthetic workspace of about `targetBytes` (whole conversations) and lists its files. */
function writeSyntheticWorkspace(dir: string, seed: string, targetBytes: number): string[] {
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  let bytes = 0;
  for (const conversation of generateWorkspace({ seed, conversations: Number.MAX_SAFE_INTEGER })) {
    if (bytes >= targetBytes) break;
    const folder = join(dir, conversation.folder);
    mkdirSync(folder);
    writeFileSync(join(folder, 'metadata.json'), conversation.metadataText);
    const text = [...generateEventsText(conversation.events)].join('');
    writeFileSync(join(folder, 'events.json'), text);
    bytes += text.length;
    paths.push(join(folder, 'events.json'));
  }
  return paths.sort();
}

const corpusFiles = [...files].sort();
const corpusBytes = corpusFiles.reduce((sum, path) => sum + statSync(path).size, 0);
const scales = (process.env.BENCH_SCALES ?? '1,10,100')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const workspaces: WorkspaceFigures[] = [measureWorkspace('corpus', corpusFiles, 5)];
const temp = mkdtempSync(join(tmpdir(), 'bench-workspace-'));
try {
  for (const scale of scales) {
    const start = performance.now();
    const paths = writeSyntheticWorkspace(
      join(temp, `x${scale}`),
      `bench-${scale}`,
      scale * corpusBytes,
    );
    const generated = performance.now() - start;
    const figures = measureWorkspace(
      `synthetic-${scale}x`,
      paths,
      scale >= 100 ? 1 : scale >= 10 ? 2 : 5,
    );
    workspaces.push(figures);
    console.log(
      `generated ${figures.name}: ${figures.files} files, ${figures.mb} MB in ${(generated / 1000).toFixed(1)} s`,
    );
    // Only one synthetic workspace is on disk at a time.
    rmSync(join(temp, `x${scale}`), { recursive: true, force: true });
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

console.log('');
const workspaceRows = [
  [
    'workspace',
    'files',
    'MB',
    'tokens',
    'cold ms',
    'warm ms',
    'warm/cold',
    'ms/Mtok',
    'cpu ms/Mtok',
    'peak RSS MB',
    'peak heap MB',
  ],
  ...workspaces.map((w) => [
    w.name,
    String(w.files),
    w.mb.toFixed(1),
    formatCount(w.tokens),
    w.coldMs.toFixed(0),
    w.warmMs.toFixed(2),
    `1/${Math.round(w.coldMs / w.warmMs)}`,
    w.coldMsPerMToken.toFixed(0),
    w.coldCpuMsPerMToken.toFixed(0),
    String(w.peakRssMb),
    String(w.peakHeapMb),
  ]),
];
const widths = (workspaceRows[0] ?? []).map((_, i) =>
  Math.max(...workspaceRows.map((r) => (r[i] ?? '').length)),
);
for (const row of workspaceRows) {
  console.log(
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  '),
  );
}

/** Ratios of cold time per token between sizes: 1.00 means cold time grows linearly with tokens. */
function perTokenRatios(of: (w: WorkspaceFigures) => number) {
  const value = (name: string) => {
    const workspace = workspaces.find((w) => w.name === name);
    return workspace && of(workspace);
  };
  const ratio = (a: string, b: string) => {
    const top = value(a);
    const bottom = value(b);
    return top === undefined || bottom === undefined ? null : Number((top / bottom).toFixed(2));
  };
  return {
    '1x/corpus': ratio('synthetic-1x', 'corpus'),
    '10x/1x': ratio('synthetic-10x', 'synthetic-1x'),
    '100x/10x': ratio('synthetic-100x', 'synthetic-10x'),
  };
}
const coldMsPerMTokenRatio = perTokenRatios((w) => w.coldMsPerMToken);
const coldCpuMsPerMTokenRatio = perTokenRatios((w) => w.coldCpuMsPerMToken);
const worstWarm = Math.max(...workspaces.map((w) => w.warmMs / w.coldMs));
const showRatios = (r: typeof coldMsPerMTokenRatio) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${v ?? '-'}`)
    .join(', ');
console.log(
  `cold time per token, ratios between sizes (1.00 = linear in tokens): wall ${showRatios(coldMsPerMTokenRatio)}; cpu ${showRatios(coldCpuMsPerMTokenRatio)}`,
);
console.log(`worst warm / cold = 1/${Math.round(1 / worstWarm)} (target ≤ 1/20)`);

// --- Pool ---------------------------------------------------------------------

const WORKER_URL = new URL('./pool-worker.mjs', import.meta.url);

async function startWorkers(count: number): Promise<Worker[]> {
  const workers = Array.from({ length: count }, () => new Worker(WORKER_URL));
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((done, fail) => {
          worker.once('message', () => done());
          worker.once('error', fail);
        }),
    ),
  );
  return workers;
}

/** The corpus on a pool: files split by size, each part to a worker, reports merged. */
async function runPool(
  workers: Worker[],
  paths: readonly string[],
): Promise<{ ms: number; report: Report }> {
  const start = performance.now();
  const parts = partitionBySize(
    paths.map((path) => statSync(path).size),
    workers.length,
  );
  const results = await Promise.all(
    parts.map(
      (part, i) =>
        new Promise<PoolResult>((done, fail) => {
          const worker = workers[i] as Worker;
          worker.once('message', done);
          worker.once('error', fail);
          const job: PoolJob = {
            files: part.map((index) => ({ index, path: paths[index] as string })),
            configText: COLD_CONFIG,
          };
          worker.postMessage(job);
        }),
    ),
  );
  const ordered = results.flat().sort((a, b) => a.index - b.index);
  const report = addReports(
    ordered.map((result) => result.report),
    'o200k',
  );
  return { ms: performance.now() - start, report };
}

const poolSize = Math.max(2, Math.min(availableParallelism(), 8));
const POOL_RUNS = 7;
memory.reset();
// Both set up front and their runs interleaved, so that load from other
// processes on this shared machine falls on both alike.
const single = await startWorkers(1);
const several = await startWorkers(poolSize);
const oneTimes: number[] = [];
const poolTimes: number[] = [];
for (let run = 0; run < POOL_RUNS; run++) {
  const one = await runPool(single, corpusFiles);
  const pooled = await runPool(several, corpusFiles);
  if (JSON.stringify(one.report) !== JSON.stringify(pooled.report)) {
    throw new Error('the pool and one worker disagree');
  }
  oneTimes.push(one.ms);
  poolTimes.push(pooled.ms);
}
await Promise.all([...single, ...several].map((worker) => worker.terminate()));
const pool = {
  workers: poolSize,
  oneWorkerMs: Number(median(oneTimes).toFixed(1)),
  poolMs: Number(median(poolTimes).toFixed(1)),
  speedup: Number((median(oneTimes) / median(poolTimes)).toFixed(2)),
  peakRssMb: Math.round(memory.rss / 1e6),
};
const loadAverage = {
  start: Number(loadAtStart.toFixed(2)),
  end: Number(loadavg()[0]?.toFixed(2)),
};
console.log(
  `\ncorpus on worker_threads (cold, medians of ${POOL_RUNS}, interleaved): one worker ${pool.oneWorkerMs} ms, pool of ${pool.workers} ${pool.poolMs} ms: ${pool.speedup}× faster (${availableParallelism()} cores)`,
);
console.log(
  `load average (1 min) at start ${loadAverage.start}, at end ${loadAverage.end}: above ${availableParallelism()}, other processes compete for the cores and wall times stretch`,
);

console.log(
  JSON.stringify({
    ...result,
    cli,
    workspaces,
    coldMsPerMTokenRatio,
    coldCpuMsPerMTokenRatio,
    worstWarmOverCold: Number(worstWarm.toFixed(4)),
    pool,
    loadAverage,
  }),
);
