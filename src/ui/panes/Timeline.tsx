/**
 * The compaction timeline: every compaction event, stored in the stream or
 * previewed from the config's rules, with what each decides; and, per rule,
 * the range it resolved to (or why it is empty) and its `--compact` spelling.
 */
import { DEFAULT_BASE, type JpBase } from '../../core/config/jp-base.ts';
import type { RulePlan, TimelineEntry } from '../../core/playground/types.ts';
import './panes.css';
import {
  describePolicy,
  formatRule,
  formatTurns,
  parseOverrides,
  parsePolicy,
  parseSummary,
  policyToHint,
} from './policy-words.ts';

/** Props of {@link Timeline}. */
export interface TimelineProps {
  /** The compaction events, in stream order, previewed ones last. */
  timeline: TimelineEntry[];
  /** One plan per rule in force. */
  plans: RulePlan[];
  /** True when no rule is configured and the built-in default rule applies. */
  usesBuiltinRule: boolean;
  /** What `jp conversation compact --dry-run` prints for the previewed compactions, one line each. */
  jpDryRun: readonly string[];
  /** The reading base: how a rule's bounds are written (15.4). */
  base?: JpBase;
  /** Previewed entries identical to a stored compaction but for the timestamp: Compact adds nothing with them. */
  identical?: readonly TimelineEntry[];
  /** Removes the stored compaction at this 1-based position, or every one with null. */
  onReset: (position: number | null) => void;
}

/** How long a summary may be before the timeline folds it. */
const SUMMARY_PREVIEW = 240;

function EventCard({
  entry,
  number,
  identical,
  onReset,
}: {
  entry: TimelineEntry;
  /** True for a preview identical to a stored compaction. */
  identical: boolean;
  /** 1-based place on the timeline, as the explanations name it ("compaction #2"). */
  number: number;
  onReset: (position: number) => void;
}) {
  const { event } = entry;
  const toolCalls = parsePolicy(event.tool_calls);
  const overrides = parseOverrides(event.tool_overrides);
  const summary = parseSummary(event.summary);
  const position = entry.position;
  return (
    <li
      className={
        entry.isNew
          ? `cp-event cp-event-new${identical ? ' cp-event-identical' : ''}`
          : 'cp-event cp-event-stored'
      }
    >
      <div className="cp-event-head">
        <span className="cp-event-title">#{number}</span>
        <span className="cp-badge">
          {!entry.isNew
            ? 'stored in the stream'
            : identical
              ? 'identical to a stored compaction; Compact adds nothing'
              : 'previewed from the rules, not in the stream yet'}
        </span>
        {!entry.isNew && position !== null ? (
          <button
            type="button"
            className="cp-event-reset"
            aria-label={`Reset compaction #${position}`}
            onClick={() => onReset(position)}
          >
            Reset this one
          </button>
        ) : null}
      </div>
      <dl className="cp-facts">
        <dt>Covers</dt>
        <dd>{formatTurns({ from_turn: event.from_turn, to_turn: event.to_turn })}</dd>
        <dt>Created</dt>
        <dd>{event.timestamp}</dd>
        <dt>Summary</dt>
        <dd>
          {summary === null ? (
            'none'
          ) : summary.length > SUMMARY_PREVIEW ? (
            <details>
              <summary>{`${summary.slice(0, SUMMARY_PREVIEW)}…`}</summary>
              <p className="cp-summary-text">{summary}</p>
            </details>
          ) : (
            <span className="cp-summary-text">{summary}</span>
          )}
        </dd>
        <dt>Reasoning</dt>
        <dd>{event.reasoning === 'strip' ? 'strip' : 'no opinion'}</dd>
        <dt>Tool calls</dt>
        <dd>
          {toolCalls
            ? describePolicy(toolCalls)
            : overrides.length > 0
              ? 'no opinion, so its tool_overrides below are inert'
              : 'no opinion'}
        </dd>
        <dt>tool_overrides</dt>
        <dd>
          {overrides.length === 0 ? (
            'none'
          ) : (
            <ul className="cp-overrides">
              {overrides.map(([name, policy]) => (
                <li key={name}>
                  <code>{name}</code>: {policyToHint(policy)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </li>
  );
}

function PlanItem({ plan, base }: { plan: RulePlan; base: JpBase }) {
  return (
    <li className="cp-plan">
      <div className="cp-event-head">
        <span className="cp-event-title">Rule {plan.ruleIndex + 1}</span>
        <span className="cp-badge">
          {plan.range ? `compacts ${formatTurns(plan.range)}` : 'nothing to compact'}
        </span>
      </div>
      <p>
        <code>{formatRule(plan.rule, base)}</code>
      </p>
      {plan.explanation ? <p className="cp-note">{plan.explanation}</p> : null}
      {plan.extended ? (
        <p className="cp-note">Its summary range was extended over an overlapping summary.</p>
      ) : null}
      {plan.dsl ? (
        <p className="cp-note">
          As a command: <code>{`jp conversation compact --compact=${plan.dsl}`}</code>
        </p>
      ) : null}
    </li>
  );
}

function describeCounts(stored: number, previewed: number): string {
  const storedText =
    stored === 0
      ? 'None stored in the stream yet'
      : `${stored} stored in the stream (numbered in stream order, as Reset counts them)`;
  const previewedText =
    previewed === 0 ? 'none previewed' : `${previewed} previewed from the rules`;
  return `${storedText}; ${previewedText}.`;
}

/** The compaction events and the rules' plans. */
export function Timeline({
  timeline,
  plans,
  usesBuiltinRule,
  jpDryRun,
  base = DEFAULT_BASE,
  identical = [],
  onReset,
}: TimelineProps) {
  const stored = timeline.filter((entry) => !entry.isNew).length;
  return (
    <div className="cp-pane cp-timeline">
      <h3 className="cp-section-title">Compaction events</h3>
      {timeline.length === 0 ? (
        <p className="cp-empty">
          No compaction events: the stream holds none and no rule compacts anything now.
        </p>
      ) : (
        <>
          <p className="cp-note">
            {describeCounts(stored, timeline.length - stored)} Turns are numbered from 1, as JP
            shows them.
          </p>
          <ol className="cp-events">
            {timeline.map((entry, index) => (
              <EventCard
                key={entry.position ?? `new-${index}`}
                entry={entry}
                number={index + 1}
                identical={identical.includes(entry)}
                onReset={(position) => onReset(position)}
              />
            ))}
          </ol>
        </>
      )}
      <h3 className="cp-section-title">
        What <code>jp conversation compact --dry-run</code> prints
      </h3>
      <p className="cp-note">
        JP's own preview of the compactions above, with its 0-based, inclusive turn indices.
      </p>
      <section aria-label="JP dry-run output">
        <pre className="cp-jp-dry-run">{jpDryRun.join('\n')}</pre>
      </section>
      <h3 className="cp-section-title">Rules in force</h3>
      {usesBuiltinRule ? (
        <p className="cp-note">
          No rule is configured, so JP's built-in default rule applies: keep the first and the last
          turn, strip reasoning and tool calls in between.
        </p>
      ) : null}
      {plans.length === 0 ? (
        <p className="cp-empty">No rules.</p>
      ) : (
        <ol className="cp-plans">
          {plans.map((plan) => (
            <PlanItem key={plan.ruleIndex} plan={plan} base={base} />
          ))}
        </ol>
      )}
    </div>
  );
}
