/**
 * A conversation's provider view before and after compaction, in counted
 * tokens, against a context window: two thin bars, the window's full width
 * when a budget is set (over-budget bars are full, coloured and labelled),
 * else a scale shared by every conversation.
 */
import { formatChange, formatCount, formatPercent } from '../../core/counting/format.ts';

/** Props of {@link BudgetBar}. */
export interface BudgetBarProps {
  before: number;
  after: number;
  /** The context window in tokens, or null for none. */
  budget: number | null;
  /** Without a budget: the token count that fills a bar (the largest conversation's). */
  scale: number;
}

function describeSide(side: string, tokens: number, budget: number | null): string {
  if (budget === null) return `${side}: ${formatCount(tokens)} tokens`;
  if (tokens > budget) {
    return `${side}: ${formatCount(tokens)} tokens, over the window by ${formatCount(tokens - budget)}`;
  }
  return `${side}: ${formatCount(tokens)} tokens, ${formatPercent((tokens / budget) * 100)} of the window`;
}

/** The two bars and the figures beneath. */
export function BudgetBar({ before, after, budget, scale }: BudgetBarProps) {
  const full = budget ?? scale;
  const width = (tokens: number) => `${full <= 0 ? 0 : Math.min(1, tokens / full) * 100}%`;
  const overBefore = budget !== null && before > budget;
  const overAfter = budget !== null && after > budget;
  const label = `${describeSide('Before', before, budget)}. ${describeSide('After', after, budget)}.`;
  return (
    <div className="ws-budget" data-over={overAfter ? 'after' : overBefore ? 'before' : 'none'}>
      <div className="ws-budget-bars" role="img" aria-label={label} title={label}>
        {(
          [
            ['before', before, overBefore],
            ['after', after, overAfter],
          ] as const
        ).map(([side, tokens, over]) => (
          <div key={side} className={`ws-budget-track ws-budget-${side}`}>
            <span
              className={over ? 'ws-budget-fill ws-budget-over' : 'ws-budget-fill'}
              style={{ width: width(tokens) }}
            />
          </div>
        ))}
      </div>
      <span className="ws-budget-figures">
        <span className="ws-budget-numbers">
          {formatChange(before, after)}
          {budget !== null ? ` of ${formatCount(budget)}` : ''}
        </span>{' '}
        {overAfter ? (
          <strong className="ws-over-mark">over budget</strong>
        ) : overBefore ? (
          <span className="ws-fits-mark">fits after compaction</span>
        ) : null}
      </span>
    </div>
  );
}
