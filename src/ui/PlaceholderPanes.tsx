/**
 * Stand-in result panes that show the key figures from the store until the
 * real panes (src/ui/panes/) are mounted in `panes-registry.ts`.
 */

import { savedPercent } from '../core/report.ts';
import { reset } from '../state/actions.ts';
import { formatCount, formatPercent, selectSaved } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';

function Empty() {
  return <p className="empty">Nothing computed yet.</p>;
}

/** Totals and one row per tool. */
export function SavingsPlaceholder() {
  const report = useAppStore((s) => s.result?.report);
  const saved = useAppStore(selectSaved);
  if (!report || !saved) return <Empty />;
  return (
    <>
      <p>
        {formatCount(saved.before)} → {formatCount(saved.after)} tokens, saved{' '}
        {formatCount(saved.tokens)} ({formatPercent(saved.percent)}).
      </p>
      {report.tools.length === 0 ? (
        <p className="empty">The stream calls no tools.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Calls</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Saved</th>
            </tr>
          </thead>
          <tbody>
            {report.tools.map((row) => {
              const before = row.request.before.tokens + row.response.before.tokens;
              const after = row.request.after.tokens + row.response.after.tokens;
              return (
                <tr key={row.name}>
                  <th scope="row">{row.name}</th>
                  <td>{formatCount(row.calls)}</td>
                  <td>{formatCount(before)}</td>
                  <td>{formatCount(after)}</td>
                  <td>
                    {formatCount(row.saved.tokens)} (
                    {formatPercent(savedPercent(row.saved.tokens, before))})
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}

/** How many events the model sees before and after. */
export function DiffPlaceholder() {
  const before = useAppStore((s) => s.result?.before.length);
  const after = useAppStore((s) => s.result?.after.length);
  const removed = useAppStore((s) => s.result?.removedBySanitize.length ?? 0);
  if (before === undefined || after === undefined) return <Empty />;
  return (
    <p>
      {formatCount(before)} events before, {formatCount(after)} after.
      {removed > 0 ? ` Sanitize removed ${formatCount(removed)}.` : ''}
    </p>
  );
}

/** Why each rule covers the turns it does. */
export function ExplainPlaceholder() {
  const plans = useAppStore((s) => s.result?.plans);
  const builtin = useAppStore((s) => s.result?.usesBuiltinRule ?? false);
  if (!plans) return <Empty />;
  return (
    <>
      {builtin ? <p>No rule configured: the built-in default rule applies.</p> : null}
      {plans.length === 0 ? (
        <p className="empty">No rules.</p>
      ) : (
        <ol>
          {plans.map((plan) => (
            <li key={plan.ruleIndex}>{plan.explanation}</li>
          ))}
        </ol>
      )}
    </>
  );
}

/** The stream's compactions and the previewed ones. */
export function TimelinePlaceholder() {
  const timeline = useAppStore((s) => s.result?.timeline);
  if (!timeline) return <Empty />;
  if (timeline.length === 0) return <p className="empty">No compactions, stored or previewed.</p>;
  return (
    <ol>
      {timeline.map((entry, index) => (
        <li key={entry.position ?? `new-${index}`}>
          {entry.isNew ? 'Preview' : `#${entry.position}`}: turns {entry.event.from_turn + 1}..
          {entry.event.to_turn + 1}
          {entry.position !== null ? (
            <>
              {' '}
              <button type="button" className="small" onClick={() => void reset(entry.position)}>
                Reset #{entry.position}
              </button>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
