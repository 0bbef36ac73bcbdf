/**
 * The tables docs/replay.md prints from the replay's data: the models and
 * prices (price-table.ts) and each runtime's defaults (runtime-profiles.ts).
 * `replay-tables.test.ts` checks the page holds them as rendered here, so
 * the page cannot drift from the data. `npx tsx tools/docs/replay-tables.ts`
 * prints both, to paste when a row changes.
 */
import { formatCount } from '../../src/core/counting/format.ts';
import { MODELS } from '../../src/core/replay/prices.ts';
import { listRuntimeProfiles } from '../../src/core/replay/runtime-profiles.ts';

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The models table, default first. */
export function renderPriceTable(): string {
  const header = [
    'model',
    'input $/M',
    'output $/M',
    'write',
    'write 1 h',
    'read',
    'ttl',
    'min prefix',
    'window',
    'tier',
    'as of',
    'source',
  ];
  return [
    row(header),
    row(header.map(() => '---')),
    ...MODELS.map((model, index) =>
      row([
        `\`${model.name}\`${index === 0 ? ' (default)' : ''}`,
        String(model.input),
        String(model.output),
        String(model.write),
        String(model.write_1h),
        String(model.read),
        `${formatCount(model.ttl_seconds)} s`,
        formatCount(model.min_prefix_tokens),
        formatCount(model.context_window_tokens),
        model.tiers.length === 0
          ? '-'
          : model.tiers
              .map(
                (t) =>
                  `above ${formatCount(t.above_tokens)}: input ×${t.input}, output ×${t.output}`,
              )
              .join('; '),
        model.as_of,
        model.source,
      ]),
    ),
  ].join('\n');
}

/** Each runtime's defaults. */
export function renderRuntimeTable(): string {
  const header = [
    'runtime',
    'prefix',
    'by version',
    'subagent',
    'factor',
    'hidden output per response',
    'breakpoints',
    'source',
  ];
  return [
    row(header),
    row(header.map(() => '---')),
    ...listRuntimeProfiles().map((profile) =>
      row([
        `\`${profile.runtime}\``,
        formatCount(profile.prefixTokens),
        profile.prefixByVersion
          ?.map((step) => `${step.from}: ${formatCount(step.tokens)}`)
          .join(', ') ?? '-',
        profile.subagentPrefixTokens === undefined
          ? '-'
          : formatCount(profile.subagentPrefixTokens),
        String(profile.tokenFactor),
        formatCount(profile.hiddenOutputPerResponse),
        profile.breakpoints,
        profile.source,
      ]),
    ),
  ].join('\n');
}

if (process.argv[1]?.endsWith('replay-tables.ts')) {
  console.log(`${renderPriceTable()}\n\n${renderRuntimeTable()}`);
}
