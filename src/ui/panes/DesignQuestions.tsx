/**
 * The Design questions panel: D17's open questions and "JP today", the
 * reading in force for each, and, when measured, what switching it would
 * change on the current conversation (in words: which events look different,
 * how many tokens the next request carries), the example that shows it, with
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
  /** The gallery's examples, to name the one that shows each question's effect. */
  examples?: readonly { id: string; title: string }[];
  /** Opens an example of the gallery by its id. */
  onOpenExample?: (id: string) => void;
}

/** What a reading changes, in words: "3 events look different; the next request carries 45 fewer tokens". */
export function describeReadingEffect(
  effect: Pick<ReadingEffect, 'eventsAffected' | 'tokensDelta'>,
): {
  events: string;
  tokens: string;
} {
  const { eventsAffected: count, tokensDelta: delta } = effect;
  const events =
    count === 0
      ? 'no event looks different'
      : `${formatCount(count)} ${count === 1 ? 'event looks' : 'events look'} different`;
  const size = `${formatCount(Math.abs(delta))} ${Math.abs(delta) === 1 ? 'token' : 'tokens'}`;
  const tokens =
    delta === 0
      ? 'the next request carries as many tokens'
      : `the next request carries ${size} ${delta > 0 ? 'more' : 'fewer'}`;
  return { events, tokens };
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
  const words = describeReadingEffect(effect);
  return (
    <>
      <span data-events-affected={effect.eventsAffected}>{words.events}</span>
      {'; '}
      <span data-tokens-delta={effect.tokensDelta}>{words.tokens}</span>.{' '}
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

/** The example that shows a question's effect, as a button that opens it. */
function ExampleLink({
  id,
  title,
  onOpen,
}: {
  id: string | undefined;
  title: string | undefined;
  onOpen: ((id: string) => void) | undefined;
}) {
  if (id === undefined || title === undefined || onOpen === undefined) return null;
  return (
    <span className="cp-reading-example">
      {' '}
      See it in the example{' '}
      <button type="button" className="small" data-example={id} onClick={() => onOpen(id)}>
        {title}
      </button>
      .
    </span>
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
  examples = [],
  onOpenExample,
}: DesignQuestionsProps) {
  const byName = new Map(effects.map((effect) => [effect.name, effect]));
  const titles = new Map(examples.map((example) => [example.id, example.title]));
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
                  <ExampleLink
                    id={info.example}
                    title={info.example ? titles.get(info.example) : undefined}
                    onOpen={onOpenExample}
                  />
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
