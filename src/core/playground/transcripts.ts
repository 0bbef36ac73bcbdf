/**
 * The two things the page reads beside the figures: the timeline of stored
 * and previewed compactions, and the before/after transcripts the diff pane
 * compares, keyed so the same event has the same key in both views. Used by
 * the pipeline and by the design questions (the diff of two readings).
 */

import { explainEvent, type Slots } from '../compaction/explain.ts';
import { isProviderVisible, providerView, removeCompactions } from '../compaction/projection.ts';
import { getPayload, getResponsePart } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { CompactionEvent, StreamElement } from '../types.ts';
import type { Views } from './pipeline.ts';
import type { RemovedBySanitize, TimelineEntry, TranscriptEntry, Transcripts } from './types.ts';

/** The stored compactions in stream order, then the previewed ones. */
export function buildTimeline(
  elements: readonly StreamElement[],
  newEvents: readonly CompactionEvent[],
): TimelineEntry[] {
  const timeline: TimelineEntry[] = [];
  elements.forEach((element, index) => {
    if (element.type === 'compaction') {
      timeline.push({
        position: timeline.length + 1,
        elementIndex: index,
        event: element as CompactionEvent,
        isNew: false,
      });
    }
  });
  for (const event of newEvents) {
    timeline.push({ position: null, elementIndex: null, event, isNew: true });
  }
  return timeline;
}

/**
 * Gives every event a key that is the same in both views: raw elements by
 * their index, events sanitize created by type, id and occurrence (both
 * sanitize passes create them in the same order), injected summaries by run.
 */
function createKeyer(elements: readonly StreamElement[]) {
  const rawKeys = new Map<StreamElement, string>();
  elements.forEach((element, index) => {
    rawKeys.set(element, `e${index}`);
  });
  return {
    rawKeys,
    /** A keying function for one pass over a view. */
    pass() {
      const occurrences = new Map<string, number>();
      return (element: StreamElement | undefined, fallback: string): string => {
        const raw = element && rawKeys.get(element);
        if (raw) return raw;
        const base = element
          ? `added:${String(element.type)}:${typeof element.id === 'string' ? element.id : ''}`
          : fallback;
        const n = occurrences.get(base) ?? 0;
        occurrences.set(base, n + 1);
        return `${base}#${n}`;
      };
    },
  };
}

export function buildTranscripts(
  elements: readonly StreamElement[],
  views: Views,
  timeline: readonly TimelineEntry[],
  counter: TokenCounter,
): Transcripts {
  const keyer = createKeyer(elements);
  const { projection, projectedInput } = views;
  const slots: Slots = { timeline, turns: projection.turns };

  const entry = (element: StreamElement, key: string): TranscriptEntry => {
    const text = getPayload(element)?.text ?? '';
    const result: TranscriptEntry = {
      key,
      type: String(element.type),
      text,
      tokens: counter.tokens(text),
    };
    const part = getResponsePart(element);
    if (part !== undefined) result.part = part;
    const id = typeof element.id === 'string' ? element.id : undefined;
    if (id !== undefined) result.id = id;
    // A response is named as the projection paired it (15.3), like the report's rows.
    const toolName =
      typeof element.name === 'string' ? element.name : views.responseNames.get(element);
    if (toolName) result.toolName = toolName;
    if (!keyer.rawKeys.has(element)) result.sanitize = 'added';
    return result;
  };

  // Explanations by key, from what projection did to each projected input element.
  const explanations = new Map<string, ReturnType<typeof explainEvent>>();
  const inputKey = keyer.pass();
  projectedInput.forEach((element, index) => {
    const key = inputKey(element, '');
    const trace = projection.sources[index];
    if (trace && element.type !== 'compaction') {
      explanations.set(key, explainEvent(element, trace, slots));
    }
  });

  const beforeKey = keyer.pass();
  const before = views.before.map((element) => {
    const result = entry(element, beforeKey(element, ''));
    const explanation = explanations.get(result.key);
    if (explanation) result.explanation = explanation;
    return result;
  });

  const afterKey = keyer.pass();
  const after: TranscriptEntry[] = [];
  projection.elements.forEach((element, index) => {
    if (!isProviderVisible(element)) return;
    const trace = projection.projected[index];
    const sourceIndex = trace?.sourceIndex;
    const source =
      sourceIndex !== null && sourceIndex !== undefined ? projectedInput[sourceIndex] : undefined;
    if (!source) {
      const run = trace ? projection.turns[trace.rawTurn]?.summary?.run : undefined;
      const key = afterKey(undefined, `summary:${run?.from ?? 0}-${run?.to ?? 0}:${element.type}`);
      const result = entry(element, key);
      delete result.sanitize;
      result.explanation = explainEvent(element, undefined, slots, trace?.rawTurn ?? 0);
      after.push(result);
      return;
    }
    const result = entry(element, afterKey(source, ''));
    if (keyer.rawKeys.has(source)) delete result.sanitize;
    else result.sanitize = 'added';
    const explanation = explanations.get(result.key);
    if (explanation) result.explanation = explanation;
    after.push(result);
  });

  const kept = new Set(views.before);
  const removedBySanitize: RemovedBySanitize[] = [];
  const visibleRaw = providerView(removeCompactions(elements));
  if (visibleRaw.length !== views.before.length || visibleRaw.some((e) => !kept.has(e))) {
    for (const element of visibleRaw) {
      if (kept.has(element)) continue;
      const { key, type, part, toolName, id, text } = entry(
        element,
        keyer.rawKeys.get(element) ?? '',
      );
      const removed: RemovedBySanitize = { key, type, text };
      if (part) removed.part = part;
      if (toolName) removed.toolName = toolName;
      if (id) removed.id = id;
      removedBySanitize.push(removed);
    }
  }
  return { before, after, removedBySanitize };
}
