import {
  isRecommendation,
  recommendForStreams,
  renderHintsToml,
} from '../core/analyses/recommend.ts';
import { getWhatIfGridOfStreams, whatIfToJson } from '../core/analyses/what-if.ts';
import { resetCompactions } from '../core/compaction/creation.ts';
import { getJpMainDryRun } from '../core/compaction/jp-timeline.ts';
import { project, providerView } from '../core/compaction/projection.ts';
import type { ParsedConfig } from '../core/config/config.ts';
import { resolveEffectiveRules } from '../core/config/dsl.ts';
import type { JpBase } from '../core/config/jp-base.ts';
import { resolveCompactionRules } from '../core/config/rule-config.ts';
import { addReports, type Report, reportToJson } from '../core/counting/report.ts';
import { isTokenizerId, loadTokenCounter } from '../core/counting/tokens.ts';
import {
  exportPeerConfig,
  isPeerTargetId,
  PEER_TARGETS,
  readTargetParameters,
} from '../core/export/peer-export.ts';
import { planCompactions, reportStream } from '../core/playground/playground.ts';
import { describeIgnoredHint } from '../core/playground/tool-info.ts';
import { sanitize } from '../core/stream/sanitize.ts';
import { CliError, type CliIo } from './cli-io.ts';
import {
  type ConversationFile,
  getConversationName,
  labelConversation,
  listConversations,
  readConversations,
} from './conversations.ts';
import { formatPeerNotes } from './format-export.ts';
import {
  type ConversationLine,
  formatConversations,
  formatRecommendations,
  formatReport,
} from './format-report.ts';
import { formatWhatIf } from './format-what-if.ts';
import {
  checkNow,
  formatImportAccount,
  formatNotes,
  getFrom,
  getStreamOptions,
  missingFileError,
  nowOption,
  type ParsedPositionals,
  parse,
  type ReadStream,
  readConfig,
  readingsOption,
  readStream,
  STREAM_FLAGS,
  singleFile,
  write,
} from './inputs.ts';
import { runReplayCommand } from './replay.ts';
import { escapeForTerminal } from './terminal.ts';
import { USAGE } from './usage.ts';

/** Runs one command; returns the exit code. Throws CliError for bad input. */
export async function runCommand(command: string, args: string[], io: CliIo): Promise<number> {
  switch (command) {
    case 'project': {
      const parsed = parse(args, {
        ...STREAM_FLAGS,
        view: { type: 'string' },
        sanitize: { type: 'boolean' },
      });
      const { values } = parsed;
      const view = values.view ?? 'provider';
      if (view !== 'provider' && view !== 'stream') {
        throw new CliError(`--view must be provider or stream, not "${String(view)}"`);
      }
      const path = singleFile(parsed, 'project');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const projected = project(
        values.sanitize ? sanitize(elements) : elements,
        readingsOption(values.reading),
      ).elements;
      write(io, view === 'provider' ? providerView(projected) : projected, encoding);
      return 0;
    }
    case 'sanitize': {
      const parsed = parse(args, STREAM_FLAGS);
      const { values } = parsed;
      const path = singleFile(parsed, 'sanitize');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      write(io, sanitize(elements), encoding);
      return 0;
    }
    case 'compact': {
      const parsed = parse(args, {
        ...STREAM_FLAGS,
        config: { type: 'string' },
        now: { type: 'string' },
        'dry-run': { type: 'boolean' },
        compact: { type: 'string', multiple: true },
      });
      const { values } = parsed;
      const readings = readingsOption(values.reading);
      const { config: toml } = readConfig(io, values.config, readings.base);
      // Every spec is read before the stream: one that does not parse writes nothing.
      const config = withCompactSpecs(toml, values.compact, readings.base);
      const path = singleFile(parsed, 'compact');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const plan = planCompactions(elements, config, nowOption(values.now), readings);
      checkNow(nowOption(values.now), plan.nowError);
      // JP main refuses the whole invocation (15.5): exit 2, nothing written.
      if (plan.created.refusal !== undefined) {
        const { ruleIndex, message } = plan.created.refusal;
        throw new CliError(
          `compact: rule ${ruleIndex + 1} is refused: ${escapeForTerminal(message)}`,
        );
      }
      if (values['dry-run']) {
        io.stdout(`${getJpMainDryRun(elements, plan.created.events, readings.base).join('\n')}\n`);
        return 0;
      }
      for (const rulePlan of plan.created.plans) {
        if (rulePlan.range === null) {
          io.stderr(`rule ${rulePlan.ruleIndex + 1}: ${escapeForTerminal(rulePlan.explanation)}\n`);
        }
      }
      write(io, [...elements, ...plan.created.events], encoding);
      return 0;
    }
    case 'reset': {
      const parsed = parse(args, {
        ...STREAM_FLAGS,
        index: { type: 'string' },
      });
      const { values } = parsed;
      const path = singleFile(parsed, 'reset');
      let position: bigint | undefined;
      if (values.index !== undefined) {
        if (!/^\d+$/.test(String(values.index))) {
          throw new CliError(`--index takes a 1-based whole number, not "${String(values.index)}"`);
        }
        // Exact: a message quotes the number as written, never as its nearest double.
        position = BigInt(values.index);
      }
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const result = resetCompactions(elements, position);
      // The whole stream is at fault (no such compaction), so the position is its start, as for other whole-file errors.
      if (!result.ok) throw new CliError(`${path}:1:1: error: ${result.message}`);
      write(io, result.value, encoding);
      return 0;
    }
    case 'report': {
      const parsed = parse(args, {
        ...COUNTING_OPTIONS,
        'by-conversation': { type: 'boolean' },
        'what-if': { type: 'boolean' },
      });
      const { values } = parsed;
      if (values.json && values['by-conversation']) {
        throw new CliError(
          '--by-conversation is for the readable output; --json keeps its documented shape',
        );
      }
      if (values['what-if'] && values['by-conversation']) {
        throw new CliError('--what-if sums every conversation; it has no --by-conversation form');
      }
      const { config, conversations, options } = await prepareCounting(
        io,
        'report',
        values,
        parsed,
      );
      if (values['what-if']) {
        const empty = planCompactions([], config, options.now);
        checkNow(options.now, empty.nowError);
        const streams = [...conversations()].flatMap((read) =>
          'stream' in read ? [read.stream.elements] : [],
        );
        const grid = getWhatIfGridOfStreams(streams, config, options);
        // Under jp=today a written hint is not in force: say so, as the page's tool list does.
        const ignored =
          options.readings.jp === 'today' ? describeIgnoredHint(empty.configInForce) : undefined;
        io.stdout(
          values.json
            ? `${JSON.stringify(whatIfToJson(grid), null, 2)}\n`
            : formatWhatIf(grid, streams.length, ignored),
        );
        return 0;
      }
      const counted: { file: ConversationFile; stream: ReadStream; report: Report }[] = [];
      // Every file in order, a counted one by its index in `counted`, a skipped one by its error.
      const lines: ({ counted: number } | { file: ConversationFile; error: string })[] = [];
      for (const read of conversations()) {
        if ('error' in read) {
          lines.push(read);
          continue;
        }
        const { file, stream } = read;
        const { report, plan } = reportStream(stream.elements, config, options);
        checkNow(options.now, plan.nowError);
        lines.push({ counted: counted.length });
        counted.push({ file, stream, report });
      }
      const reports = counted.map((entry) => entry.report);
      const total = addReports(reports, options.counter.id);
      if (values.json) {
        io.stdout(`${JSON.stringify(reportToJson(total), null, 2)}\n`);
        return 0;
      }
      const byConversation = values['by-conversation']
        ? `${formatConversations(
            lines.map((line): ConversationLine => {
              if ('error' in line) return { name: labelConversation(line.file), error: line.error };
              const { file, stream, report } = counted[line.counted] as (typeof counted)[number];
              return { name: getConversationName(io, file, stream, counted), report };
            }),
          )}\n\n`
        : '';
      io.stdout(`${byConversation}${formatReport(total, counted.length)}`);
      return 0;
    }
    case 'recommend': {
      const parsed = parse(args, COUNTING_OPTIONS);
      const { values } = parsed;
      const { config, configText, conversations, options } = await prepareCounting(
        io,
        'recommend',
        values,
        parsed,
      );
      const streams = [...conversations()].flatMap((read) =>
        'stream' in read ? [read.stream.elements] : [],
      );
      checkNow(options.now, planCompactions([], config, options.now).nowError);
      const result = recommendForStreams(streams, config, options);
      io.stdout(
        values.json
          ? `${JSON.stringify(result, null, 2)}\n`
          : formatRecommendations(result, {
              configPath: values.config as string,
              configText: renderHintsToml(
                result.recommendations.filter(isRecommendation),
                configText,
              ),
              fileCount: streams.length,
            }),
      );
      return 0;
    }
    case 'export': {
      const { values, positionals } = parse(args, {
        ...COUNTING_OPTIONS,
        target: { type: 'string' },
        set: { type: 'string', multiple: true },
      });
      if (!isPeerTargetId(values.target)) {
        const names = PEER_TARGETS.map((target) => target.id).join(', ');
        throw new CliError(
          `--target must be one of ${names}, not "${escapeForTerminal(String(values.target))}"`,
        );
      }
      // A runtime target (codex, claude-code) writes its policy's parameters: `replay --set`'s words.
      const parameters = readTargetParameters(values.target, values.set ?? []);
      if (!parameters.ok) throw new CliError(escapeForTerminal(parameters.message));
      if (positionals.length > 1) {
        throw new CliError(`export takes at most one FILE (or - for standard input)\n\n${USAGE}`);
      }
      const options = await getCountingOptions(values);
      const { config } = readConfig(io, values.config, options.readings.base);
      const path = positionals[0];
      const elements =
        path === undefined ? null : readStream(io, path, getStreamOptions(values)).elements;
      checkNow(options.now, planCompactions([], config, options.now).nowError);
      const result = exportPeerConfig(elements, config, values.target, {
        ...options,
        ...(parameters.value ? { parameters: parameters.value } : {}),
      });
      if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        io.stdout(result.snippet);
        io.stderr(formatPeerNotes(result));
      }
      return 0;
    }
    case 'import': {
      const parsed = parse(args, {
        ...STREAM_FLAGS,
        agent: { type: 'string' },
      });
      const { values } = parsed;
      const encoding = values.encoding ?? 'storage';
      if (encoding !== 'storage' && encoding !== 'plain') {
        throw new CliError(`--encoding must be storage or plain, not "${String(encoding)}"`);
      }
      const path = singleFile(parsed, 'import');
      const stream = readStream(io, path, {
        encoding: 'auto',
        from: getFrom(values.from),
        base: readingsOption(values.reading).base,
        ...(values.agent !== undefined ? { agent: values.agent } : {}),
      });
      write(io, stream.elements, encoding);
      // `import` writes the stream as imported: nothing is sanitized away.
      io.stderr(formatImportAccount(path, stream, false));
      io.stderr(formatNotes(path, stream.notes));
      return 0;
    }
    case 'replay':
      return runReplayCommand(args, io);
    default:
      throw new CliError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/** Options shared by the commands that count: `report` and `recommend`. */
const COUNTING_OPTIONS = {
  ...STREAM_FLAGS,
  config: { type: 'string' },
  now: { type: 'string' },
  tokenizer: { type: 'string' },
  'no-sanitize': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** Reads what `report` and `recommend` count: the config, every stream, and the options. */
async function prepareCounting(
  io: CliIo,
  command: string,
  values: Record<string, string | boolean | (string | boolean)[] | undefined>,
  parsed: ParsedPositionals,
) {
  const { positionals } = parsed;
  if (positionals.length === 0)
    throw missingFileError(`${command} needs at least one FILE`, parsed);
  const options = await getCountingOptions(values);
  const { config, text } = readConfig(io, values.config, options.readings.base);
  const streamOptions = getStreamOptions(values);
  const files = positionals.flatMap((path) => listConversations(path, io.stderr));
  return {
    config,
    configText: text,
    /** Every conversation in order, read one at a time (readConversations). */
    conversations: () => readConversations(io, files, streamOptions, options.view === 'sanitized'),
    options,
  };
}

/** The counting options of `report`, `recommend` and `export`: now, view and tokenizer. */
async function getCountingOptions(
  values: Record<string, string | boolean | (string | boolean)[] | undefined>,
) {
  const tokenizer = values.tokenizer ?? 'o200k';
  if (!isTokenizerId(tokenizer)) {
    throw new CliError(`--tokenizer must be o200k, cl100k or chars, not "${String(tokenizer)}"`);
  }
  return {
    now: nowOption(values.now),
    view: values['no-sanitize'] ? ('bare' as const) : ('sanitized' as const),
    counter: await loadTokenCounter(tokenizer),
    readings: readingsOption(values.reading),
  };
}

/**
 * The config with `compact --compact SPEC` applied (spec 8, 15.9): specs
 * alone replace the TOML's rules; an empty `--compact ''` (JP's bare flag)
 * runs the TOML's rules first, then the specs. A spec that does not parse
 * is an error (exit 2) before anything is read or written.
 */
function withCompactSpecs(config: ParsedConfig, specs: unknown, base: JpBase): ParsedConfig {
  if (!Array.isArray(specs) || specs.length === 0) return config;
  const layer = config.config.rules;
  const configRules = resolveCompactionRules(layer ? [layer] : []);
  const effective = resolveEffectiveRules(configRules, false, specs.map(String), base);
  if (!effective.ok) {
    throw new CliError(
      `--compact ${escapeForTerminal(JSON.stringify(specs[effective.specIndex]))}: ${escapeForTerminal(effective.message)}`,
    );
  }
  return {
    ...config,
    config: {
      ...config.config,
      rules: { rules: effective.value, strategy: 'replace', dedup: false },
    },
  };
}
