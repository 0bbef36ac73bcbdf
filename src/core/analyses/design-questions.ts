/**
 * The Design questions panel's figures: for the current input, what each of
 * D17's alternative readings would change (events whose projected form
 * differs, and provider-visible tokens after compaction). One pipeline pass
 * per reading, so the caller asks only while the panel is shown.
 * Boundary: pure TypeScript, no DOM.
 */

import {
  getChangedReadings,
  READINGS,
  type Readings,
  withReadings,
} from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import { createReport } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import { buildViews, planCompactions, type Views } from '../playground/pipeline.ts';
import { buildTimeline, buildTranscripts } from '../playground/transcripts.ts';
import type { ReadingChoice, ReadingDiff, ReadingEffect, ViewMode } from '../playground/types.ts';
import type { StreamElement } from '../types.ts';

/** The inputs of one measurement: the stream, config and settings the page shows. */
export interface ReadingEffectsInput {
  elements: readonly StreamElement[];
  config: ParsedConfig;
  now: string | null;
  view: ViewMode;
  counter: TokenCounter;
  /** The readings in force; each is switched to its other value in turn. */
  readings: Readonly<Readings>;
  /** The views under `readings`, already computed by the caller. */
  current: Views;
  /** Their provider-visible tokens after compaction. */
  currentAfterTokens: number;
}

/** Per reading: what switching it (and only it) would change. */
export function measureReadingEffects(input: ReadingEffectsInput): ReadingEffect[] {
  return READINGS.map((info) => {
    const other = info.values.find((v) => v.value !== input.readings[info.name]);
    const value = (other ?? info.values[0]).value;
    const readings = { ...input.readings, [info.name]: value } as Readings;
    const plan = planCompactions(input.elements, input.config, input.now, readings);
    const views = buildViews(
      input.elements,
      plan.created.events,
      input.view,
      input.current.beforeView,
      readings,
    );
    const report = createReport(views.before, views.after, views.responseNames, input.counter);
    return {
      name: info.name,
      value,
      eventsAffected: countAffected(input.current, views),
      tokensDelta: report.totals.after.tokens - input.currentAfterTokens,
    };
  });
}

/**
 * The "after" view with one reading switched, as transcript entries keyed
 * like the page's own, so the diff pane can set it beside the current one.
 * A value the reading does not have leaves the readings as they are.
 */
export function getReadingDiff(
  input: Omit<ReadingEffectsInput, 'current' | 'currentAfterTokens'>,
  choice: ReadingChoice,
): ReadingDiff {
  const readings = withReadings({
    ...getChangedReadings(input.readings),
    [choice.name]: choice.value,
  });
  const plan = planCompactions(input.elements, input.config, input.now, readings);
  const views = buildViews(input.elements, plan.created.events, input.view, undefined, readings);
  const timeline = buildTimeline(input.elements, plan.created.events);
  const { after } = buildTranscripts(input.elements, views, timeline, input.counter);
  return { ...choice, after };
}

/** Input events (compactions aside) whose fate or projected content differs between two views. */
function countAffected(a: Views, b: Views): number {
  let affected = 0;
  const count = Math.min(a.projectedInput.length, b.projectedInput.length);
  for (let index = 0; index < count; index++) {
    const element = a.projectedInput[index] as StreamElement;
    if (element.type === 'compaction') continue;
    const x = a.projection.sources[index];
    const y = b.projection.sources[index];
    if (!x || !y) continue;
    if (x.fate !== y.fate) affected++;
    else if (x.fate === 'modified' && x.projectedIndex !== null && y.projectedIndex !== null) {
      const left = JSON.stringify(a.projection.elements[x.projectedIndex]);
      if (left !== JSON.stringify(b.projection.elements[y.projectedIndex])) affected++;
    }
  }
  return affected;
}
