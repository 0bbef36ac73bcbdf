/**
 * Hint recommendations: for each tool, the suggested hint with its reason
 * and the saving measured with it applied, shown before anything changes;
 * "Apply" writes the chosen hints into the config as TOML. Presentational:
 * the adapters (`RecommendPane`, the workspace panel) pass what to show and
 * what to call.
 */
import { useId, useState } from 'react';
import {
  type ApplyEffect,
  getApplyEffect,
  type HintRecommendations,
  isPreTicked,
  isRecommendation,
  type Recommendation,
} from '../../core/analyses/recommend.ts';
import type { ThresholdSuggestion } from '../../core/analyses/threshold-suggestion.ts';
import { formatChange, formatCount, formatPercent } from '../../core/counting/format.ts';
import { savedPercent } from '../../core/counting/report.ts';
import type { RecommendationState } from '../../state/app-state.ts';

/** Props of {@link RecommendationsPanel}. */
export interface RecommendationsPanelProps {
  /** What the recommendations are measured on, for the sentences: "this conversation", "these 20 conversations". */
  subject: string;
  state: RecommendationState;
  /** Asks for recommendations; when given, an idle panel shows a button for it. */
  onRecommend?: () => void;
  /** False until there is a result to measure on: the button waits, disabled. */
  canRecommend?: boolean;
  /** Writes the chosen recommendations into the config. */
  onApply: (recommendations: Recommendation[]) => void;
}

function hintName(hint: string | null): string {
  return hint ?? "rule's tool_calls";
}

/** Rule thresholds (JP main) for tools whose responses split into a few large and many small. */
function Thresholds({ thresholds }: { thresholds: readonly ThresholdSuggestion[] }) {
  if (thresholds.length === 0) return null;
  return (
    <section className="ws-rec-thresholds" aria-label="Size thresholds">
      <h4>Size thresholds (JP main)</h4>
      <ul>
        {thresholds.map((t) => (
          <li key={t.tool} data-tool={t.tool}>
            <strong>{t.tool}</strong>: <code>{t.toolCalls}</code> on the rule saves{' '}
            <span data-testid="threshold-saved">{formatCount(t.expectedSaved.tokens)}</span> tokens.{' '}
            <span className="cp-secondary">{t.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Total({ result }: { result: HintRecommendations }) {
  const { before, after, saved } = result.total;
  return (
    <p className="ws-rec-total">
      With every suggestion applied: {formatChange(before.tokens, after.tokens)} tokens, saving{' '}
      <strong>{formatCount(saved.tokens)}</strong> (
      {formatPercent(savedPercent(saved.tokens, before.tokens))}).
    </p>
  );
}

/** What the Apply button would do to the saving, said before the click. */
function Effect({ effect, count }: { effect: ApplyEffect; count: number }) {
  if (count === 0) {
    return (
      <p className="ws-rec-effect" data-testid="apply-effect">
        Nothing ticked: the saving stays {formatCount(effect.now)} tokens.
      </p>
    );
  }
  const difference = effect.after - effect.now;
  return (
    <p
      className={difference < 0 ? 'ws-rec-effect ws-rec-lower' : 'ws-rec-effect'}
      data-testid="apply-effect"
    >
      Applying the ticked {count === 1 ? 'hint' : 'hints'}: saving {formatCount(effect.now)} →{' '}
      <strong>{formatCount(effect.after)}</strong> tokens ({difference >= 0 ? '+' : '−'}
      {formatCount(Math.abs(difference))})
      {difference < 0 ? ': lower than now' : difference === 0 ? ': the same as now' : ''}.
    </p>
  );
}

/** Said on a suggestion that is not ticked because it saves less than the hint in force. */
function lessThanNow(rec: Recommendation): string {
  const fewer = rec.currentSaved.tokens - rec.expectedSaved.tokens;
  return `Not ticked: it saves ${formatCount(fewer)} ${fewer === 1 ? 'token' : 'tokens'} fewer than ${hintName(rec.currentHint)}, the hint in force. It is suggested for what it keeps (see below); tick it if that matters more than the tokens.`;
}

/** The panel. */
export function RecommendationsPanel({
  subject,
  state,
  onRecommend,
  canRecommend = true,
  onApply,
}: RecommendationsPanelProps) {
  // The user's own ticks, so that a choice survives the figures being computed again;
  // a tool the user has not touched follows isPreTicked.
  const [ticks, setTicks] = useState<ReadonlyMap<string, boolean>>(new Map());
  const noteId = useId();
  const { status, result, message } = state;

  const intro = (
    <p className="cp-note">
      A hint per tool, chosen from the sizes measured in {subject} (tokens per call, never the
      tool's name). Each saving is measured by running the pipeline with the hint on top of your
      config. Nothing changes until you apply.
    </p>
  );

  if (!result) {
    return (
      <div className="cp-pane ws-recommendations" data-status={status}>
        {intro}
        {status === 'running' ? (
          <p className="cp-status">Measuring every hint on {subject}…</p>
        ) : status === 'invalid' || status === 'error' ? (
          <p className="ws-problem">No recommendations: {message}</p>
        ) : onRecommend ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={!canRecommend}
              aria-describedby={canRecommend ? undefined : noteId}
              onClick={onRecommend}
            >
              Recommend hints
            </button>
            {canRecommend ? null : (
              <p id={noteId} className="cp-secondary">
                Available once the first result is in.
              </p>
            )}
          </>
        ) : (
          <p className="cp-empty">No recommendations yet.</p>
        )}
      </div>
    );
  }

  const changes = result.recommendations.filter(isRecommendation);
  const isTicked = (rec: Recommendation) => ticks.get(rec.tool) ?? isPreTicked(rec);
  const chosen = changes.filter(isTicked);
  const effect = getApplyEffect(result, new Set(chosen.map((rec) => rec.tool)));
  const toggle = (rec: Recommendation) => {
    const next = new Map(ticks);
    next.set(rec.tool, !isTicked(rec));
    setTicks(next);
  };

  return (
    <div className="cp-pane ws-recommendations" data-status={status}>
      {intro}
      <p id={noteId} className="ws-rec-note" role="note">
        <strong>Check before applying.</strong> {result.note}
      </p>
      {status === 'running' ? (
        <p className="cp-status">Measuring again for the changed input…</p>
      ) : status === 'invalid' || status === 'error' ? (
        <p className="ws-problem">Not current: {message}</p>
      ) : null}
      {result.recommendations.length === 0 ? (
        <p className="cp-empty">No tool calls in {subject}: nothing to recommend.</p>
      ) : (
        <div className="cp-scroll">
          <table className="cp-table ws-rec-table" aria-describedby={noteId}>
            <caption>Suggested hints</caption>
            <thead>
              <tr>
                <th scope="col">Apply</th>
                <th scope="col">Tool</th>
                <th scope="col">Suggested hint</th>
                <th scope="col" className="cp-num">
                  Saves (tokens)
                </th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {result.recommendations.map((rec) => {
                const same = rec.hint === rec.currentHint;
                return (
                  <tr key={rec.tool} data-tool={rec.tool}>
                    <td>
                      {same ? (
                        <span className="cp-secondary-inline">set</span>
                      ) : !isRecommendation(rec) ? (
                        <span className="cp-secondary-inline">saves nothing more</span>
                      ) : (
                        <input
                          type="checkbox"
                          checked={isTicked(rec)}
                          onChange={() => toggle(rec)}
                          aria-label={`Apply ${rec.hint} to ${rec.tool}`}
                        />
                      )}
                    </td>
                    <th scope="row" className="cp-tool-name">
                      {rec.tool}
                    </th>
                    <td>
                      <code>{rec.hint}</code>
                      <span className="cp-secondary">
                        {same ? 'already in force' : `now: ${hintName(rec.currentHint)}`}
                      </span>
                    </td>
                    <td className="cp-num">
                      <span className={rec.expectedSaved.tokens < 0 ? 'cp-negative' : undefined}>
                        {formatCount(rec.expectedSaved.tokens)}
                      </span>
                      <span className="cp-secondary">
                        now {formatCount(rec.currentSaved.tokens)}
                      </span>
                    </td>
                    <td className="ws-rec-reason">
                      {!same && !isPreTicked(rec) ? (
                        <p className="ws-rec-less">{lessThanNow(rec)}</p>
                      ) : null}
                      {rec.reason}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Thresholds thresholds={result.thresholds ?? []} />
      <Total result={result} />
      {changes.length > 0 ? <Effect effect={effect} count={chosen.length} /> : null}
      <div className="cp-toolbar">
        <button
          type="button"
          className="primary"
          disabled={chosen.length === 0}
          onClick={() => onApply(chosen)}
        >
          {chosen.length === 0
            ? 'Nothing to apply'
            : `Apply ${chosen.length} ${chosen.length === 1 ? 'hint' : 'hints'} to the config`}
        </button>
        {changes.length === 0 && result.recommendations.length > 0 ? (
          <span className="cp-note">
            {result.recommendations.every((rec) => rec.hint === rec.currentHint)
              ? 'Every tool already has the suggested hint.'
              : 'Every tool already has the suggested hint, or one that saves just as much.'}
          </span>
        ) : null}
      </div>
    </div>
  );
}
