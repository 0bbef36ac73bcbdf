/**
 * What the model loses (issue 41), measured as a heuristic: per tool, how
 * many of its results the model drew on later. A result is drawn on when
 * something it brought into the conversation (a path, an identifier, a line
 * of text, none of which appeared before it) turns up again in a later
 * assistant message or tool call's arguments: the model quoted it, or named
 * it to act on it. First-order, like the replay: clearing a result the model
 * drew on might have changed what it did next; clearing one it never
 * referred to again loses nothing this heuristic can see.
 *
 * Paths and identifiers are matched whole, in one pass (each one's first
 * appearance anywhere and its last use by the model); a long line is looked
 * for inside the model's later text (a quote sits inside a sentence), at
 * most {@link LINES_PER_RESULT} lines a result.
 *
 * Boundary: pure TypeScript, no DOM.
 */
import { toolHintToPolicy } from '../config/tool-hints.ts';
import { getPayload } from '../counting/report.ts';
import type { StreamElement, ToolHint } from '../types.ts';

/** One tool's results and those the model drew on later. */
export interface DrawnOnLater {
  /** The tool's results in the stream. */
  results: number;
  /** Results something of which the model quoted or named afterwards. */
  drawn: number;
  /** Those results' call ids (stream order), to find them in the transcript. */
  ids: string[];
}

/** A path (one slash at least, or a file name with an extension). */
const PATH = /(?:[\w.@-]+\/)+[\w.@-]+|\b[\w-]+\.[A-Za-z][\w]{0,7}\b/g;
/** An identifier a person would not write by chance: snake_case or camelCase, 6 characters or more. */
const IDENTIFIER = /\b(?=[A-Za-z_]\w{5,})(?:[A-Za-z]+_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)\b/g;
/** A line long enough that repeating it is quoting it. */
const LINE_LENGTH = 24;
/** The long lines of a result looked for in what the model wrote later. */
const LINES_PER_RESULT = 8;
/** A result's clues are read from its first characters only: a 1 MB log is not scanned whole. */
const CLUE_TEXT = 20_000;

/** The clues a text holds: paths and identifiers, each once. */
export function getClues(text: string): Set<string> {
  const clues = new Set<string>();
  const head = text.length > CLUE_TEXT ? text.slice(0, CLUE_TEXT) : text;
  // A path that ends a sentence is the path without the full stop.
  for (const match of head.matchAll(PATH)) clues.add(match[0].replace(/\.+$/, ''));
  for (const match of head.matchAll(IDENTIFIER)) clues.add(match[0]);
  return clues;
}

/** A result's first long lines (trimmed, each once): what a quote of it would repeat. */
export function getQuotableLines(text: string): string[] {
  const head = text.length > CLUE_TEXT ? text.slice(0, CLUE_TEXT) : text;
  const lines = new Set<string>();
  for (const line of head.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.length >= LINE_LENGTH) lines.add(trimmed);
    if (lines.size === LINES_PER_RESULT) break;
  }
  return [...lines];
}

/** Whether an element is the model's own: what it wrote, or the arguments it called a tool with. */
function isModels(element: StreamElement): boolean {
  return (
    element.type === 'tool_call_request' ||
    (element.type === 'chat_response' && typeof element.message === 'string')
  );
}

/** Per tool (by name), its results and those the model drew on later. */
export function measureDrawnOnLater(elements: readonly StreamElement[]): Map<string, DrawnOnLater> {
  const firstSeen = new Map<string, number>();
  const lastUsed = new Map<string, number>();
  const texts = new Map<number, string>();
  const names = new Map<string, string>();
  // What the model wrote, in order; modelFrom[i]: where the model's text after element i starts.
  const modelParts: string[] = [];
  const modelFrom: number[] = [];
  let modelLength = 0;
  elements.forEach((element, index) => {
    modelFrom[index] = modelLength;
    const payload = getPayload(element);
    if (!payload) return;
    if (element.type === 'tool_call_response') texts.set(index, payload.text);
    const models = isModels(element);
    for (const clue of getClues(payload.text)) {
      if (!firstSeen.has(clue)) firstSeen.set(clue, index);
      if (models) lastUsed.set(clue, index);
    }
    if (models) {
      modelParts.push(payload.text, '\n');
      modelLength += payload.text.length + 1;
    }
    if (element.type === 'tool_call_request' && typeof element.id === 'string') {
      names.set(element.id, typeof element.name === 'string' ? element.name : '');
    }
  });
  const modelText = modelParts.join('');
  const drawnOn = (index: number, text: string): boolean => {
    for (const clue of getClues(text)) {
      // Brought in by this result, and used by the model after it.
      if (firstSeen.get(clue) === index && (lastUsed.get(clue) ?? -1) > index) return true;
    }
    // The model's text after the result starts where the next element's would.
    const from = modelFrom[index + 1] ?? modelLength;
    return getQuotableLines(text).some((line) => modelText.indexOf(line, from) >= 0);
  };
  const byTool = new Map<string, DrawnOnLater>();
  elements.forEach((element, index) => {
    if (element.type !== 'tool_call_response') return;
    const id = typeof element.id === 'string' ? element.id : '';
    const name = names.get(id);
    if (name === undefined) return;
    let entry = byTool.get(name);
    if (!entry) {
      entry = { results: 0, drawn: 0, ids: [] };
      byTool.set(name, entry);
    }
    entry.results++;
    if (drawnOn(index, texts.get(index) ?? '')) {
      entry.drawn++;
      entry.ids.push(id);
    }
  });
  return byTool;
}

/**
 * Whether a hint takes tool results out of the prompt (`strip-responses`,
 * `strip`, `omit`); `inherit` depends on the rule's `tool_calls`.
 */
export function removesResults(choice: ToolHint | 'inherit'): boolean | 'depends' {
  if (choice === 'inherit') return 'depends';
  const policy = toolHintToPolicy(choice);
  return policy.policy === 'omit' || policy.response;
}
