/**
 * The Design questions panel: D17's open questions and "JP today", the
 * reading in force for each, and, when measured, what switching it would
 * change on the current conversation (events affected, tokens after), with
 * a button that opens the diff of the two readings in the diff pane.
 */
import { READINGS, type ReadingName, type Readings } from '../../core/compaction/readings.ts';
import { formatCount } from '../../core/counting/format.ts';
import type { ReadingChoice, ReadingEffect } from '../../core/playground/types.ts';
import './panes.css';

/** Props of {@link DesignQuestions}. */
export interface DesignQuestionsProps {
  readings: Readings;
  /** Whether the figures are asked for (a pipeline pass per reading on every run). */
  measuring: boolean;
  onMeasure: (measuring: boolean) => void;
  /** Per reading, what switching it changes; empty until measured. */
  effects: readonly ReadingEffect[];
  /** The reading the diff pane compares with, or null. */
  diffReading: ReadingChoice | null;
  onShowDiff: (choice: ReadingChoice | null) => void;
}

/** A signed token difference: "+120", "−45", "0". */
export function formatTokenDelta(delta: number): string {
  if (delta === 0) return '0';
  return `${delta > 0 ? '+' : '−'}${formatCount(Math.abs(delta))}`;
}

function Effect({
  name,
  effect,
  diffReading,
  onShowDiff,
}: {
  name: ReadingName;
  effect: ReadingEffect | undefined;
  diffReading: ReadingChoice | null;
  onShowDiff: (choice: ReadingChoice | null) => void;
}) {
  if (!effect) return <span className="note">not measured</span>;
  const open = diffReading?.name === name && diffReading.value === effect.value;
  return (
    <>
      <span data-events-affected={effect.eventsAffected}>
        {formatCount(effect.eventsAffected)} {effect.eventsAffected === 1 ? 'event' : 'events'}{' '}
        affected
      </span>
      {', '}
      <span data-tokens-delta={effect.tokensDelta}>
        {formatTokenDelta(effect.tokensDelta)} tokens after
      </span>{' '}
      <button
        type="button"
        className="small"
        aria-pressed={open}
        onClick={() => {
          onShowDiff(open ? null : { name, value: effect.value });
          if (!open) document.getElementById('pane-diff')?.scrollIntoView?.({ block: 'start' });
        }}
      >
        {open ? 'Close the diff' : 'Show the diff'}
      </button>
    </>
  );
}

/** The questions, one row each. */
export function DesignQuestions({
  readings,
  measuring,
  onMeasure,
  effects,
  diffReading,
  onShowDiff,
}: DesignQuestionsProps) {
  const byName = new Map(effects.map((effect) => [effect.name, effect]));
  return (
    <div className="design-questions">
      <p className="note">
        Where D17 is silent or ambiguous, the spec chose a reading (sections 13 and 14). Here is
        what the other reading would change on this conversation; switch one with the D17 readings
        control in the header.
      </p>
      <button type="button" aria-pressed={measuring} onClick={() => onMeasure(!measuring)}>
        {measuring ? 'Measuring every alternative' : 'Measure every alternative here'}
      </button>
      <table className="design-questions-table" aria-label="D17's open questions">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">In force</th>
            <th scope="col">The other reading</th>
            <th scope="col">What it changes here</th>
          </tr>
        </thead>
        <tbody>
          {READINGS.map((info) => {
            const current = info.values.find((v) => v.value === readings[info.name]);
            const other = info.values.find((v) => v.value !== readings[info.name]);
            return (
              <tr key={info.name} data-reading={info.key}>
                <th scope="row">
                  <span className="cp-reading-section">{info.section}</span> {info.question}
                </th>
                <td>{current?.label}</td>
                <td title={other?.sentence}>
                  {other?.label} <code>{`${info.key}=${other?.value}`}</code>
                </td>
                <td>
                  {measuring ? (
                    <Effect
                      name={info.name}
                      effect={byName.get(info.name)}
                      diffReading={diffReading}
                      onShowDiff={onShowDiff}
                    />
                  ) : (
                    <span className="note">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
