/**
 * The table of issue 14's targets that `npm run bench` ends with: one row
 * per target, with the figure before the work (the issue's "today"), the
 * target and what this run measured (a median, or a ratio of medians).
 *
 * The core rows come from bench.ts's own run. The what-if grid, the replay
 * and the tool-count scaling rows run tools/bench/what-if.ts, replay.ts,
 * replay-instructions.ts (under valgrind, three to four minutes) and
 * scaling.ts as they are (each prints one JSON line last). The page rows cannot be measured in
 * Node: they are the last figures the browser perf spec wrote to
 * test-reports/perf.json, printed with their date and load average, or
 * "not measured" when it has not run here. First-load bytes are gzip sizes
 * of the files of the production build (dist/) that the first figures need.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { perItemGrowth, type ScalingRow } from './growth.ts';

/** What bench.ts measured for the table. */
export interface CoreFigures {
  coldOverTokenizer: number;
  coldOverTokenizerCpu: number;
  warmOverCold: number;
  warmPlaygroundOverColdPlayground: number;
  cliBinOverReference: number;
  cliBinMs: number;
  cliReferenceMs: number;
  /** `SCALING_TOOLS` for scaling.ts (the quick bench stops at 10k tools). */
  scalingTools?: string | undefined;
}

interface Row {
  what: string;
  today: string;
  target: string;
  measured: string;
}

/** One figure the perf spec recorded. */
interface PageFigure {
  value: number;
  at: string;
  /** The 1-minute load average before the spec's browser started, and after the test. */
  loadAverageBefore?: number;
  loadAverageAfter?: number;
  /** Figures written before the spec recorded both. */
  loadAverage?: number;
}

/** Runs a bench script under tsx and returns its last line, parsed. */
function runScript(root: string, script: string, env: Record<string, string> = {}): unknown {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) return null;
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as unknown;
  } catch {
    return null;
  }
}

function readPageFigures(root: string): Record<string, PageFigure> {
  try {
    return JSON.parse(readFileSync(join(root, 'test-reports/perf.json'), 'utf8')) as Record<
      string,
      PageFigure
    >;
  } catch {
    return {};
  }
}

function page(figures: Record<string, PageFigure>, key: string): string {
  const figure = figures[key];
  if (!figure) return 'not measured (run the perf spec)';
  const load =
    figure.loadAverageBefore === undefined
      ? `load ${figure.loadAverage}`
      : `load ${figure.loadAverageBefore} before, ${figure.loadAverageAfter} after`;
  return `${Math.round(figure.value)} ms (${figure.at.slice(0, 16).replace('T', ' ')} UTC, ${load})`;
}

/**
 * The gzip bytes of what the first figures need: the page, its entry
 * script and styles, the playground worker and the default tokenizer's
 * chunk; and, apart, everything else the build holds (Monaco, loaded after).
 */
export function measureFirstLoad(
  root: string,
): { critical: number; rest: number; files: string[] } | null {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.html'))) return null;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const linked = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  const assets = readdirSync(join(dist, 'assets'));
  const worker = assets.filter((name) =>
    /^(playground-worker|o200k_base|GptEncoding)-.*\.js$/.test(name),
  );
  const critical = new Set(['index.html', ...linked, ...worker.map((name) => `assets/${name}`)]);
  const gzip = (path: string) => gzipSync(readFileSync(join(dist, path))).length;
  let criticalBytes = 0;
  for (const path of critical) criticalBytes += gzip(path);
  let rest = 0;
  for (const name of assets) {
    if (!critical.has(`assets/${name}`) && /\.(js|css|ttf)$/.test(name))
      rest += gzip(`assets/${name}`);
  }
  return { critical: criticalBytes, rest, files: [...critical] };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

/** Prints the targets table; runs the what-if and scaling scripts for their rows. */
export function printTargetsTable(root: string, core: CoreFigures): void {
  const pageFigures = readPageFigures(root);
  const whatIf = runScript(root, 'tools/bench/what-if.ts') as {
    hintChangeMs?: number;
    ruleChangeMs?: number;
    warmBudgetMs?: number;
  } | null;
  const scaling = runScript(
    root,
    'tools/bench/scaling.ts',
    core.scalingTools
      ? { SCALING_TOOLS: core.scalingTools, SCALING_WHAT_IF_TOOLS: core.scalingTools }
      : {},
  ) as { scaling?: ScalingRow[] } | null;
  const replay = runScript(root, 'tools/bench/replay.ts') as {
    replayOverReport?: number;
    replayMs?: number;
    reportMs?: number;
    growth?: ScalingRow;
    perRequestGrowth?: number[];
    perRequestGrowthAfterEdit?: number[];
    floorGrowth?: number[];
    perRequestGrowthOverFloor?: number[];
    perRequestGrowthEqualMemory?: number[];
    pane?: { figuresMs: number; policiesMs: number; toolsMs: number };
  } | null;
  const replayWork = runScript(root, 'tools/bench/replay-instructions.ts') as {
    sizes: number[];
    instructionsPerRequest: number[] | null;
    growth: number[] | null;
  } | null;
  const bytes = measureFirstLoad(root);
  const rows: Row[] = [
    {
      what: 'hint edit → updated figure (largest conversation)',
      today: '~180 ms',
      target: '≤ 50 ms',
      measured: page(pageFigures, 'keystrokeToFigureMs'),
    },
    {
      what: 'navigation → first figures (default example)',
      today: '0.9–1.0 s',
      target: '≤ 500 ms',
      measured: page(pageFigures, 'navigationToFiguresMs'),
    },
    {
      what: 'open the largest file → figures',
      today: '0.43–0.46 s',
      target: '≤ 250 ms',
      measured: `${page(pageFigures, 'openToFiguresMs')} (estimated as characters ÷ 4); counted in tokens ${page(pageFigures, 'openToTokensMs').split(' (')[0]}`,
    },
    {
      what: 'longest main-thread task, opening until settled',
      today: '125–145 ms',
      target: '≤ 50 ms',
      measured: `${page(pageFigures, 'openLongestTaskMs')}; CPU ${page(pageFigures, 'openLongestTaskCpuMs').split(' (')[0]}`,
    },
    {
      what: 'cold pipeline / tokenizer alone (caches cleared)',
      today: '1.4–1.8×',
      target: '≤ 1.15×',
      measured: `${core.coldOverTokenizer}× (CPU ${core.coldOverTokenizerCpu}×)`,
    },
    {
      what: 'warm / cold (pipeline)',
      today: '1/29 to 1/52',
      target: '≤ 1/30',
      measured: `1/${Math.round(1 / core.warmOverCold)}`,
    },
    {
      // Not a target of its own: the whole run also rebuilds both transcripts (docs/speed.md).
      what: 'warm / cold (whole playground run: report, transcripts, grid)',
      today: '–',
      target: 'none (≤ 1/30 is the pipeline row)',
      measured: `1/${Math.round(1 / core.warmPlaygroundOverColdPlayground)}`,
    },
    {
      what: 'what-if grid after a hint edit (what-if.ts)',
      today: '–',
      target: `≤ ${whatIf?.warmBudgetMs ?? 5} ms`,
      measured: whatIf
        ? `${whatIf.hintChangeMs} ms (rule change ${whatIf.ruleChangeMs} ms)`
        : 'failed',
    },
    {
      what: 'CLI report, whole process / 25-line reference',
      today: '1.8×',
      target: '≤ 1.25×',
      measured: `${core.cliBinOverReference}× (${core.cliBinMs} / ${core.cliReferenceMs} ms)`,
    },
    {
      what: 'first-load bytes, gzip (critical path; the rest)',
      today: '2.5 MB',
      target: 'only what the figures need',
      measured: bytes
        ? `${mb(bytes.critical)}; ${mb(bytes.rest)} after the figures`
        : 'no dist/ (npx vite build)',
    },
  ];
  rows.push(
    {
      what: 'replay figures / report, largest conversation (replay.ts)',
      today: '–',
      target: '≤ 3×',
      measured: replay
        ? `${replay.replayOverReport}× (${replay.replayMs} / ${replay.reportMs} ms CPU)`
        : 'failed',
    },
    {
      // The pane asks the last two only when their sections are open (pane-replay.ts).
      what: 'cost pane, whole, largest conversation: figures + policies + per-tool (replay.ts)',
      today: '–',
      target: 'figures first; the rest on request',
      measured: replay?.pane
        ? `${Math.round(replay.pane.figuresMs + replay.pane.policiesMs + replay.pane.toolsMs)} ms CPU (${replay.pane.figuresMs} + ${replay.pane.policiesMs} + ${replay.pane.toolsMs})`
        : 'failed',
    },
    {
      what: `replay per request at ${replay?.growth?.sizes.join(' / ') ?? '1× / 10×'} requests (replay.ts)`,
      today: '–',
      target: 'per-request CPU flat (×1.0)',
      measured: replay?.growth
        ? `just opened ${replay.growth.cpuMs.map((ms) => Math.round(ms)).join(' / ')} ms CPU, per request ${(replay.perRequestGrowth ?? []).map((g) => `×${g.toFixed(2)}`).join(', ')}; after an edit ${(replay.perRequestGrowthAfterEdit ?? []).map((g) => `×${g.toFixed(2)}`).join(', ')}; one pass reading each element's type ${(replay.floorGrowth ?? []).map((g) => `×${g.toFixed(2)}`).join(', ')}; the replay over it ${(replay.perRequestGrowthOverFloor ?? []).map((g) => `×${g.toFixed(2)}`).join(', ')}; each size as many objects ${(replay.perRequestGrowthEqualMemory ?? []).map((g) => `×${g.toFixed(2)}`).join(', ')}`
        : 'failed',
    },
    {
      // Time per request also grows with the caches the larger stream outgrows; instructions
      // count the work alone (replay-instructions.ts says why).
      what: `replay work per request, ${replayWork?.sizes.join(' / ') ?? '1× / 10×'} events (replay-instructions.ts)`,
      today: '–',
      target: 'instructions per request flat (×1.0): linear',
      measured: replayWork?.growth
        ? `${(replayWork.instructionsPerRequest ?? []).join(' / ')} instructions, ${replayWork.growth.map((g) => `×${g.toFixed(2)}`).join(', ')}`
        : replayWork
          ? 'not measured (no valgrind)'
          : 'failed',
    },
  );
  for (const row of scaling?.scaling ?? []) {
    const sizes = row.sizes.map((n) => n.toLocaleString('en-US')).join(' / ');
    rows.push({
      what: `${row.name} at ${sizes} (scaling.ts)`,
      today: '–',
      target: 'per-item CPU flat (×1.0)',
      measured: `${row.cpuMs.map((ms) => Math.round(ms)).join(' / ')} ms CPU; per item ${perItemGrowth(
        row,
      )
        .map((g) => `×${g.toFixed(1)}`)
        .join(', ')}`,
    });
  }
  const width = (key: keyof Row) => Math.max(key.length, ...rows.map((row) => row[key].length));
  const line = (row: Row) =>
    `| ${row.what.padEnd(width('what'))} | ${row.today.padEnd(width('today'))} | ${row.target.padEnd(width('target'))} | ${row.measured} |`;
  console.log('');
  console.log(
    'Targets of issue 14 (medians and ratios of this run; page rows: the last perf spec run)',
  );
  console.log(line({ what: 'what', today: 'today', target: 'target', measured: 'measured' }));
  for (const row of rows) console.log(line(row));
}
