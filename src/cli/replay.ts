/**
 * `replay`: what the conversation cost, request by request, under a
 * schedule of compactions and a model's prices (issue 21; the model in
 * docs/replay.md). A readable table by default; `--json` prints the
 * documented shape. A FOLDER sums its conversations, with a row each.
 */

import { HINT_CHOICES } from '../core/analyses/hint-table.ts';
import { type ParsedConfig, parseConfigToml } from '../core/config/config.ts';
import type { JpBase } from '../core/config/jp-base.ts';
import { formatCount, formatDollars, formatPercent } from '../core/counting/format.ts';
import { getToolRowLabel } from '../core/counting/report.ts';
import { isTokenizerId, loadTokenCounter, TOKENIZER_LABELS } from '../core/counting/tokens.ts';
import { comparePolicies, type PolicyComparisonRow } from '../core/replay/compare-policies.ts';
import {
  describeFolderMoney,
  type FolderMoney,
  getConversationMoney,
  sumFolderMoney,
} from '../core/replay/folder-money.ts';
import {
  describePolicyFields,
  isPolicyName,
  POLICY_NAMES,
  type PolicyName,
} from '../core/replay/policies/policies.ts';
import {
  cheapestRemovesDrawnOn,
  describeBasis,
  describeBill,
  describeChosen,
  describeSessionMoney,
  getCheapestSchedule,
  getChosenName,
  SAVING_BASIS,
} from '../core/replay/presentation.ts';
import {
  type CalibrationChoice,
  hasInventedTimes,
  isScheduleId,
  type Replay,
  type ReplayChoice,
  type ReplayResult,
  type ReplaySettings,
  replayStream,
  resolveReplaySettings,
  SCHEDULES,
  sumReplays,
} from '../core/replay/replay.ts';
import { describeSweep, sweepAutoTrigger, type TriggerSweep } from '../core/replay/sweep.ts';
import { CliError, type CliIo } from './cli-io.ts';
import { getConversationName, listConversations, readConversations } from './conversations.ts';
import {
  getStreamOptions,
  missingFileError,
  parse,
  type ReadStream,
  readConfig,
  readingsOption,
  STREAM_FLAGS,
} from './inputs.ts';
import { escapeForTerminal } from './terminal.ts';

/** The calibrations `--calibration` takes. */
const CALIBRATIONS: readonly CalibrationChoice[] = ['auto', 'recorded', 'runtime', 'user', 'none'];

/** Runs `replay`; returns the exit code. Throws CliError for bad input. */
export async function runReplayCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parse(args, {
    ...STREAM_FLAGS,
    config: { type: 'string' },
    model: { type: 'string' },
    price: { type: 'string' },
    schedule: { type: 'string' },
    tokenizer: { type: 'string' },
    'no-sanitize': { type: 'boolean' },
    'scale-to-recorded': { type: 'boolean' },
    calibration: { type: 'string' },
    prefix: { type: 'string' },
    json: { type: 'boolean' },
    policy: { type: 'string' },
    set: { type: 'string', multiple: true },
    compare: { type: 'boolean' },
    sweep: { type: 'string' },
    'by-conversation': { type: 'boolean' },
  });
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw missingFileError('replay needs at least one FILE', parsed);
  if (values['scale-to-recorded']) {
    throw new CliError(
      '--scale-to-recorded is gone: the replay is calibrated on the recorded usage itself (an invisible prefix and a token factor fitted per conversation, docs/replay.md). Use --calibration recorded (the default where the file has usage), or --calibration none for the file alone.',
    );
  }
  const schedule = values.schedule ?? 'stored';
  if (!isScheduleId(schedule)) {
    throw new CliError(
      `--schedule must be one of ${SCHEDULES.join(', ')}, not "${escapeForTerminal(String(schedule))}"`,
    );
  }
  // JP's own schedules take no parameters: --set is for a runtime's policy, which must be named.
  if (values.set !== undefined && values.policy === undefined) {
    throw new CliError(
      `--set sets a runtime policy's parameters: choose the policy with --policy (${POLICY_NAMES.filter((name) => name !== 'jp').join(', ')}); JP's own schedules are chosen with --schedule and take no --set`,
    );
  }
  const policyName = values.policy ?? 'jp';
  if (!isPolicyName(policyName)) {
    throw new CliError(
      `--policy must be one of ${POLICY_NAMES.join(', ')}, not "${escapeForTerminal(String(policyName))}"`,
    );
  }
  const calibration = values.calibration ?? 'auto';
  if (!(CALIBRATIONS as readonly string[]).includes(calibration)) {
    throw new CliError(
      `--calibration must be one of ${CALIBRATIONS.join(', ')}, not "${escapeForTerminal(String(calibration))}"`,
    );
  }
  if (values.sweep !== undefined) {
    if (values.sweep !== 'trigger') {
      throw new CliError(
        `--sweep must be trigger (auto's trigger over the context window), not "${escapeForTerminal(String(values.sweep))}"`,
      );
    }
    if (policyName !== 'jp' || values.compare) {
      throw new CliError(
        "--sweep trigger sweeps JP's auto schedule: leave out --policy and --compare",
      );
    }
  }
  const byConversation = values['by-conversation'] === true;
  if (byConversation && (values.compare || values.sweep !== undefined)) {
    throw new CliError(
      '--by-conversation prints what each conversation cost: leave out --compare and --sweep',
    );
  }
  const prefixTokens = readPrefixOption(values.prefix);
  const tokenizer = values.tokenizer ?? 'o200k';
  if (!isTokenizerId(tokenizer)) {
    throw new CliError(
      `--tokenizer must be o200k, cl100k or chars, not "${escapeForTerminal(String(tokenizer))}"`,
    );
  }
  const readings = readingsOption(values.reading);
  // The config is read under the chosen base, as every command reads it (15.0).
  const { config, text } = readReplayConfig(io, values.config, readings.base);
  const choice: ReplayChoice = {
    model: values.model ?? null,
    price: values.price ?? null,
    schedule,
    calibration: calibration as CalibrationChoice,
    prefixTokens,
    policy: { name: policyName, set: values.set ?? [] },
  };
  const counter = await loadTokenCounter(tokenizer);
  const view = values['no-sanitize'] ? 'bare' : 'sanitized';
  // Every conversation is resolved by the one resolver the page uses too.
  const resolve = (stream?: ReadStream): ReplaySettings => {
    const resolved = resolveReplaySettings(
      {
        elements: stream?.elements ?? [],
        config,
        configText: text,
        view,
        readings,
        counter,
        untimed: hasInventedTimes(stream?.notes),
        format: stream?.imported?.format ?? null,
      },
      choice,
    );
    if (resolved.status === 'ok') return resolved.settings;
    throw new CliError(describeInvalidChoice(policyName, resolved));
  };
  const template = resolve();
  const streamOptions = getStreamOptions(values);
  const files = positionals.flatMap((path) => listConversations(path, io.stderr));
  const read: { file: (typeof files)[number]; stream: ReadStream; replay: Replay }[] = [];
  // The loss guard's line for each, as every counting command prints it; a bad file found in a folder is skipped.
  for (const conversation of readConversations(
    io,
    files,
    streamOptions,
    template.view === 'sanitized',
  )) {
    if ('error' in conversation) continue;
    const { file, stream } = conversation;
    // The money needs no per-tool what-if (six replays per tool): the workspace leaves it out too.
    const scope = byConversation ? { tools: false } : {};
    read.push({ file, stream, replay: replayStream(stream.elements, resolve(stream), scope) });
  }
  if (byConversation) {
    const money = sumFolderMoney(
      read.map((entry) =>
        getConversationMoney(
          getConversationName(io, entry.file, entry.stream, read),
          entry.replay,
          hasInventedTimes(entry.stream.notes),
        ),
      ),
    );
    io.stdout(values.json ? `${JSON.stringify(money, null, 2)}\n` : formatFolderMoney(money));
    return 0;
  }
  if (values.sweep !== undefined) {
    const single = read.length === 1 ? read[0] : undefined;
    if (!single) throw new CliError('--sweep takes one conversation');
    const sweep = sweepAutoTrigger(single.stream.elements, resolve(single.stream));
    io.stdout(values.json ? `${JSON.stringify(sweep, null, 2)}\n` : formatSweep(sweep));
    return 0;
  }
  if (values.compare) {
    const single = read.length === 1 ? read[0] : undefined;
    if (!single) throw new CliError('--compare takes one conversation');
    const rows = comparePolicies(single.stream.elements, resolve(single.stream));
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
        template,
      );
  io.stdout(values.json ? `${JSON.stringify(replay, null, 2)}\n` : formatReplay(replay));
  return 0;
}

/** The sweep readable: one line per trigger, the cheapest marked, then the answer. */
function formatSweep(sweep: TriggerSweep): string {
  return [
    `auto's trigger swept over ${escapeForTerminal(sweep.model)}'s ${formatCount(sweep.context_window_tokens)}-token window (min_turns ${formatCount(sweep.min_turns)}); stored (the session as it ran) ${formatDollars(sweep.stored_cost)}.`,
    '',
    ...table(
      ['trigger_ratio', 'trigger tokens', 'compactions', 'cost', ''],
      sweep.points.map((point) => [
        String(point.trigger_ratio),
        formatCount(point.trigger_tokens),
        formatCount(point.compactions),
        formatDollars(point.cost),
        point.trigger_ratio === sweep.cheapest?.trigger_ratio ? 'cheapest' : '',
      ]),
    ),
    '',
    escapeForTerminal(describeSweep(sweep)),
    '',
  ].join('\n');
}

/** `--by-conversation` readable: a row per conversation, a line per day, the total and its cheapest schedule. */
export function formatFolderMoney(money: FolderMoney): string {
  const { total, cheapest } = describeFolderMoney(money);
  return [
    `What each conversation cost: its recorded bill where the file recorded every request, else stored modelled; as ran: stored, the session as it ran, modelled; its cheapest alternative and the saving ${SAVING_BASIS.stored}.`,
    '',
    ...table(
      ['conversation', 'day', 'requests', 'cost', 'basis', 'as ran', 'cheapest', 'saving'],
      money.conversations.map((row) => [
        escapeForTerminal(row.name),
        row.day ?? '-',
        formatCount(row.requests),
        formatDollars(row.cost),
        row.basis,
        row.cheapest
          ? `${escapeForTerminal(row.cheapest.name)} ${formatDollars(row.cheapest.cost)}`
          : '-',
        row.cheapest
          ? `${formatDollars(row.cheapest.saved)} (${formatPercent(row.cheapest.percent)})`
          : '-',
      ]),
      2,
    ),
    '',
    ...table(
      ['day', 'conversations', 'cost'],
      money.days.map((day) => [
        day.day ?? 'unknown',
        formatCount(day.conversations),
        formatDollars(day.cost),
      ]),
    ),
    '',
    escapeForTerminal(total),
    escapeForTerminal(cheapest),
    '',
  ].join('\n');
}

/** What an empty config means to the replay (spec 5, 14.1), said when `--config` is left out. */
export const NO_CONFIG_NOTE =
  "note: no --config: an empty config, so no rules and no hints of its own (hints a stream's config_delta events carry still apply); every-turn and idle, the schedules that run the rules, use JP's built-in default rule (keep_first = 1, keep_last = 1, reasoning and tool calls stripped), and auto its own defaults (docs/replay.md)\n";

/**
 * `--config FILE.toml`, or an empty config when it is left out: under
 * `stored` no rule applies, and a policy's own defaults need none, so the
 * replay does not require one; what an empty config means is said on
 * standard error.
 */
function readReplayConfig(
  io: CliIo,
  path: string | undefined,
  base: JpBase,
): { config: ParsedConfig; text: string } {
  if (path !== undefined) return readConfig(io, path, base);
  io.stderr(NO_CONFIG_NOTE);
  return { config: parseConfigToml('', base), text: '' };
}

/** `--prefix TOKENS`: a whole number of tokens, or an error that says so. */
function readPrefixOption(value: string | undefined): number | null {
  if (value === undefined) return null;
  const tokens = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(tokens)) {
    throw new CliError(
      `--prefix must be a whole number of tokens (the runtime's invisible prefix: system prompt and tool definitions), not "${escapeForTerminal(value)}"`,
    );
  }
  return tokens;
}

/** A choice the resolver refused, as the flag that gave it says. */
function describeInvalidChoice(
  policyName: PolicyName,
  invalid: Extract<ReplayResult, { status: 'invalid' }>,
): string {
  if (invalid.message.startsWith('Policy ')) {
    const fields = describePolicyFields(policyName);
    return [
      ...invalid.message
        .slice(`Policy ${policyName}: `.length)
        .split('; ')
        .map((error) => `--set: ${escapeForTerminal(error)}`),
      ...(fields.length > 0 ? ['', `${policyName} takes:`, ...fields.map((f) => `  ${f}`)] : []),
    ].join('\n');
  }
  const column = invalid.diagnostics[0]?.column ?? 1;
  const message = invalid.diagnostics[0]?.message ?? invalid.message;
  if (invalid.message.startsWith('Price'))
    return `--price: column ${column}: ${escapeForTerminal(message)}`;
  if (invalid.message.startsWith('Model'))
    return `--model: column ${column}: ${escapeForTerminal(message)}`;
  return escapeForTerminal(invalid.message);
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

/** The readable replay: the bill and its basis, requests (or conversations), totals, schedules, tools, notes. */
export function formatReplay(replay: Replay): string {
  const { model } = replay;
  // Under a runtime policy the chosen figures are the policy's, not the schedule's.
  const chosen = describeChosen(replay);
  const chosenName = getChosenName(replay);
  const lines: string[] = [
    `Replay under ${escapeForTerminal(chosen)}, model ${escapeForTerminal(model.name)} (input $${model.input}, output $${model.output} per million tokens; cache write ×${model.write} (1-hour ×${model.write_1h}), read ×${model.read}, time to live ${formatCount(replay.calibration.ttl_seconds)} s, minimum prefix ${formatCount(model.min_prefix_tokens)}; prices as of ${model.as_of}). Tokens: ${TOKENIZER_LABELS[replay.tokenizer]}.`,
    `Basis: ${lowerFirst(describeBasis(replay.calibration))}`,
    ...[describeBill(replay)].filter((line) => line !== null).map(escapeForTerminal),
    ...Object.values(describeSessionMoney(replay)).map(escapeForTerminal),
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
          'prefix',
          'read',
          'write',
          'output',
          'cost',
          'baseline',
          'recorded',
          replay.policy.name === 'jp' ? 'created' : 'cleared',
          'note',
        ],
        replay.requests.map((request) => [
          String(request.index),
          request.time ?? '-',
          request.gap_seconds === null ? '-' : formatCount(Math.round(request.gap_seconds)),
          String(request.turn + 1),
          formatCount(request.prompt_tokens),
          formatCount(request.prefix_tokens),
          formatCount(request.cache_read),
          formatCount(request.cache_write),
          formatCount(request.output_tokens),
          formatDollars(request.cost),
          formatDollars(request.baseline.cost),
          request.recorded === null ? '-' : formatCount(request.recorded.prompt_tokens),
          (request.cleared_tool_uses ?? request.compactions_created) === 0
            ? ''
            : String(request.cleared_tool_uses ?? request.compactions_created),
          [
            request.cold ? 'cold' : '',
            request.prefix_broken ? 'prefix broken' : '',
            request.unexplained_miss ? 'unexplained miss' : '',
          ]
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
  const cheapest = getCheapestSchedule(replay);
  lines.push(
    ...table(
      ['schedule', 'cost', ''],
      computed.map((s) => [s, formatDollars(costOf(s)), s === cheapest ? 'cheapest' : '']),
    ),
    '',
  );
  if (replay.tools.length > 0) {
    lines.push(
      `Per tool, the cost under ${replay.schedule} with each hint (others as configured); * the hint in force, < the cheapest, ! a cheapest that removes results the model drew on later:`,
      ...table(
        ['tool', ...HINT_CHOICES, 'drawn on later'],
        replay.tools.map((tool) => [
          escapeForTerminal(getToolRowLabel(tool.name)),
          ...HINT_CHOICES.map(
            (choice) =>
              `${formatDollars(tool.what_if_cost[choice])}${choice === tool.hint ? '*' : ' '}${choice === tool.cheapest ? (cheapestRemovesDrawnOn(tool) ? '<!' : '< ') : '  '}`,
          ),
          `${formatCount(tool.drawn_on_later.drawn)} of ${formatCount(tool.drawn_on_later.results)}`,
        ]),
      ),
      'Drawn on later: results the model quoted or named afterwards (a path, an identifier, a line; a heuristic).',
      '',
    );
  }
  lines.push(...replay.notes.map(escapeForTerminal), '');
  return lines.join('\n');
}

function lowerFirst(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
