/**
 * `replay`: what the conversation cost, request by request, under a
 * schedule of compactions and a model's prices (issue 21; the model in
 * docs/replay.md). A readable table by default; `--json` prints the
 * documented shape. A FOLDER sums its conversations, with a row each.
 */

import { HINT_CHOICES } from '../core/analyses/hint-table.ts';
import { formatCount, formatDollars, formatPercent } from '../core/counting/format.ts';
import { isTokenizerId, loadTokenCounter, TOKENIZER_LABELS } from '../core/counting/tokens.ts';
import { readAutoCompaction } from '../core/replay/auto-config.ts';
import { comparePolicies, type PolicyComparisonRow } from '../core/replay/compare-policies.ts';
import {
  describePolicyFields,
  formatAssignments,
  isPolicyName,
  POLICY_NAMES,
  parsePolicyChoice,
} from '../core/replay/policies/policies.ts';
import {
  hasInventedTimes,
  isScheduleId,
  type Replay,
  type ReplaySettings,
  replayStream,
  resolveModel,
  SCHEDULES,
  sumReplays,
} from '../core/replay/replay.ts';
import { CliError, type CliIo, formatDiagnostic } from './cli-io.ts';
import { getConversationName, listConversations, readConversations } from './conversations.ts';
import {
  getStreamOptions,
  parse,
  type ReadStream,
  readConfig,
  readingsOption,
  STREAM_FLAGS,
} from './inputs.ts';
import { escapeForTerminal } from './terminal.ts';
import { USAGE } from './usage.ts';

/** Runs `replay`; returns the exit code. Throws CliError for bad input. */
export async function runReplayCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STREAM_FLAGS,
    config: { type: 'string' },
    model: { type: 'string' },
    price: { type: 'string' },
    schedule: { type: 'string' },
    tokenizer: { type: 'string' },
    'no-sanitize': { type: 'boolean' },
    'scale-to-recorded': { type: 'boolean' },
    json: { type: 'boolean' },
    policy: { type: 'string' },
    set: { type: 'string', multiple: true },
    compare: { type: 'boolean' },
  });
  if (positionals.length === 0) throw new CliError(`replay needs at least one FILE\n\n${USAGE}`);
  if (values.model !== undefined && values.price !== undefined) {
    throw new CliError('--model and --price exclude each other: --price sets custom prices');
  }
  const model = resolveModel(values.model ?? null, values.price ?? null);
  if (!model.ok) {
    const flag = values.price !== undefined ? '--price' : '--model';
    throw new CliError(`${flag}: column ${model.column}: ${escapeForTerminal(model.message)}`);
  }
  const schedule = values.schedule ?? 'stored';
  if (!isScheduleId(schedule)) {
    throw new CliError(
      `--schedule must be one of ${SCHEDULES.join(', ')}, not "${escapeForTerminal(String(schedule))}"`,
    );
  }
  const policyName = values.policy ?? 'jp';
  if (!isPolicyName(policyName)) {
    throw new CliError(
      `--policy must be one of ${POLICY_NAMES.join(', ')}, not "${escapeForTerminal(String(policyName))}"`,
    );
  }
  const policy = parsePolicyChoice(policyName, values.set ?? []);
  if (!policy.ok) {
    const fields = describePolicyFields(policyName);
    throw new CliError(
      [
        ...policy.errors.map((error) => `--set: ${escapeForTerminal(error)}`),
        ...(fields.length > 0 ? ['', `${policyName} takes:`, ...fields.map((f) => `  ${f}`)] : []),
      ].join('\n'),
    );
  }
  const tokenizer = values.tokenizer ?? 'o200k';
  if (!isTokenizerId(tokenizer)) {
    throw new CliError(
      `--tokenizer must be o200k, cl100k or chars, not "${escapeForTerminal(String(tokenizer))}"`,
    );
  }
  const readings = readingsOption(values.reading);
  // The config is read under the chosen base, as every command reads it (15.0).
  const { config, text } = readConfig(io, values.config, readings.base);
  const auto = readAutoCompaction(text);
  const autoError = auto.diagnostics[0];
  if (autoError) throw new CliError(formatDiagnostic(values.config as string, autoError));
  const settings: ReplaySettings = {
    config,
    auto: auto.auto,
    model: model.value,
    schedule,
    view: values['no-sanitize'] ? 'bare' : 'sanitized',
    readings,
    counter: await loadTokenCounter(tokenizer),
    scaleToRecorded: values['scale-to-recorded'] ?? false,
    policy: policy.value,
  };
  const streamOptions = getStreamOptions(values);
  const files = positionals.flatMap((path) => listConversations(path, io.stderr));
  const read: { file: (typeof files)[number]; stream: ReadStream; replay: Replay }[] = [];
  // The loss guard's line for each, as every counting command prints it; a bad file found in a folder is skipped.
  for (const conversation of readConversations(
    io,
    files,
    streamOptions,
    settings.view === 'sanitized',
  )) {
    if ('error' in conversation) continue;
    const { file, stream } = conversation;
    const untimed = hasInventedTimes(stream.notes);
    read.push({ file, stream, replay: replayStream(stream.elements, { ...settings, untimed }) });
  }
  if (values.compare) {
    const single = read.length === 1 ? read[0] : undefined;
    if (!single) throw new CliError('--compare takes one conversation');
    const rows = comparePolicies(single.stream.elements, {
      ...settings,
      untimed: hasInventedTimes(single.stream.notes),
    });
    io.stdout(values.json ? `${JSON.stringify(rows, null, 2)}\n` : formatComparison(rows));
    return 0;
  }
  const single = files.length === 1 && read.length === 1;
  const replay = single
    ? (read[0] as (typeof read)[number]).replay
    : sumReplays(
        read.map((entry) => ({
          name: getConversationName(io, entry.file, entry.stream, read),
          replay: entry.replay,
        })),
        settings,
      );
  io.stdout(values.json ? `${JSON.stringify(replay, null, 2)}\n` : formatReplay(replay));
  return 0;
}

/** One table: every policy at its defaults and with the hints mapped, tokens and dollars. */
export function formatComparison(rows: readonly PolicyComparisonRow[]): string {
  const lines = table(
    ['policy', 'parameters', 'prompt tokens', 'cost', 'saved', 'saved %', 'cleared'],
    rows.map((row) => [
      row.policy.name,
      row.with,
      formatCount(row.totals.schedule.prompt_tokens),
      formatDollars(row.totals.schedule.cost),
      formatDollars(row.totals.saved.cost),
      formatPercent(row.totals.saved.percent),
      formatCount(row.cleared),
    ]),
    2,
  );
  const notes = rows.flatMap((row) =>
    row.notes.map((note) => `${row.policy.name} (${row.with}): ${note}`),
  );
  return [...lines, '', ...[...new Set(notes)].map(escapeForTerminal), ''].join('\n');
}

function table(header: string[], rows: string[][], leftColumns = 1): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((r) => (r[column] ?? '').length)));
  return all.map((row) =>
    row
      .map((cell, column) =>
        column < leftColumns
          ? cell.padEnd(widths[column] ?? 0)
          : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}

/** The readable replay: requests (or conversations), totals, schedules, tools, recorded, notes. */
export function formatReplay(replay: Replay): string {
  const { model } = replay;
  // Under a runtime policy the chosen figures are the policy's, not the schedule's.
  const chosen =
    replay.policy.name === 'jp'
      ? replay.schedule
      : `${replay.policy.name} (${formatAssignments(replay.policy.parameters).join(' ')})`;
  const chosenName = replay.policy.name === 'jp' ? replay.schedule : replay.policy.name;
  const lines: string[] = [
    `Replay under ${escapeForTerminal(chosen)}, model ${model.name} (input $${model.input}, output $${model.output} per million tokens; cache write ×${model.write}, read ×${model.read}, time to live ${formatCount(model.ttl_seconds)} s, minimum prefix ${formatCount(model.min_prefix_tokens)}; prices as of ${model.as_of}). Tokens: ${TOKENIZER_LABELS[replay.tokenizer]}.`,
    '',
  ];
  if (replay.conversations) {
    lines.push(
      ...table(
        ['conversation', 'requests', 'baseline', chosenName, 'saved', 'saved %'],
        replay.conversations.map((row) => [
          escapeForTerminal(row.name),
          formatCount(row.requests),
          formatDollars(row.totals.baseline.cost),
          formatDollars(row.totals.schedule.cost),
          formatDollars(row.totals.saved.cost),
          formatPercent(row.totals.saved.percent),
        ]),
      ),
      '',
    );
  } else {
    lines.push(
      ...table(
        [
          '#',
          'time',
          'gap s',
          'turn',
          'prompt',
          'read',
          'write',
          'output',
          'cost',
          'baseline',
          replay.policy.name === 'jp' ? 'created' : 'cleared',
          'note',
        ],
        replay.requests.map((request) => [
          String(request.index),
          request.time ?? '-',
          request.gap_seconds === null ? '-' : formatCount(Math.round(request.gap_seconds)),
          String(request.turn + 1),
          formatCount(request.prompt_tokens),
          formatCount(request.cache_read),
          formatCount(request.cache_write),
          formatCount(request.output_tokens),
          formatDollars(request.cost),
          formatDollars(request.baseline.cost),
          (request.cleared_tool_uses ?? request.compactions_created) === 0
            ? ''
            : String(request.cleared_tool_uses ?? request.compactions_created),
          [request.cold ? 'cold' : '', request.prefix_broken ? 'prefix broken' : '']
            .filter(Boolean)
            .join(', '),
        ]),
        2,
      ),
      '',
    );
  }
  const { totals } = replay;
  lines.push(
    ...table(
      ['total', 'prompt tokens', 'cost'],
      [
        [
          'baseline (none)',
          formatCount(totals.baseline.prompt_tokens),
          formatDollars(totals.baseline.cost),
        ],
        [
          chosenName,
          formatCount(totals.schedule.prompt_tokens),
          formatDollars(totals.schedule.cost),
        ],
        [
          'saved',
          formatCount(totals.saved.prompt_tokens),
          `${formatDollars(totals.saved.cost)} (${formatPercent(totals.saved.percent)})`,
        ],
      ],
    ),
    '',
  );
  const computed = SCHEDULES.filter((s) => replay.schedules[s] !== undefined);
  const costOf = (s: (typeof SCHEDULES)[number]) => replay.schedules[s] ?? 0;
  const cheapest = computed.reduce((best, s) => (costOf(s) < costOf(best) ? s : best));
  lines.push(
    ...table(
      ['schedule', 'cost', ''],
      computed.map((s) => [s, formatDollars(costOf(s)), s === cheapest ? 'cheapest' : '']),
    ),
    '',
  );
  if (replay.tools.length > 0) {
    lines.push(
      `Per tool, the cost under ${replay.schedule} with each hint (others as configured); * the hint in force, < the cheapest:`,
      ...table(
        ['tool', ...HINT_CHOICES],
        replay.tools.map((tool) => [
          escapeForTerminal(tool.name),
          ...HINT_CHOICES.map(
            (choice) =>
              `${formatDollars(tool.what_if_cost[choice])}${choice === tool.hint ? '*' : ' '}${choice === tool.cheapest ? '<' : ' '}`,
          ),
        ]),
      ),
      '',
    );
  }
  if (replay.recorded) {
    const r = replay.recorded;
    lines.push(
      `Recorded usage on ${formatCount(r.requests)} requests: input ${formatCount(r.prompt_tokens)} (cache read ${formatCount(r.cache_read_tokens)}, write ${formatCount(r.cache_write_tokens)}), output ${formatCount(r.output_tokens)}; stored models ${formatCount(r.modelled_prompt_tokens)} input tokens on them${r.ratio === null ? '' : `, recorded/modelled ${r.ratio.toFixed(2)}`}.`,
      '',
    );
  }
  lines.push(...replay.notes.map(escapeForTerminal), '');
  return lines.join('\n');
}
