/**
 * Every change to the store, as module-level functions: components, the
 * worker bridge and tests call them without hooks. The engine that computes
 * results (the worker client in the app, a fake in tests) and the examples
 * are injected once by `main.tsx` through `initActions`.
 */

import type { HintChoice } from '../core/analyses/hint-table.ts';
import { setToolChoiceInToml } from '../core/analyses/hint-toml.ts';
import { DEFAULT_READINGS, type ReadingName, type Readings } from '../core/compaction/readings.ts';
import type { TokenizerId } from '../core/counting/tokens.ts';
import type {
  PlaygroundFigures,
  PlaygroundInput,
  StreamEdit,
  ViewMode,
} from '../core/playground/playground.ts';
import { isSameInput } from '../core/playground/same-input.ts';
import type { ReadingChoice } from '../core/playground/types.ts';
import type { Diagnostic, EncodingSetting, ToolHint } from '../core/types.ts';
import { isAbortError } from '../worker/shared/errors.ts';
import type { AppState, ExampleSummary, RequestView, Theme, Toast } from './app-state.ts';
import { describeFailure, getFailureAdvice, isWorkerFailure, logFailure } from './failures.ts';
import { describeCompacted, selectCompactPlan, selectInput } from './selectors.ts';
import { store } from './store.ts';
import { createDebounce, createLatestWins } from './timing.ts';

/** What computes the figures: the worker client's shape, so a fake can stand in. */
export interface Engine {
  run(input: PlaygroundInput, options?: { signal?: AbortSignal }): Promise<PlaygroundFigures>;
  /**
   * The run's figures estimated as characters ÷ 4 (the `chars` tokenizer),
   * asked for before a run that must count a large stream's tokens anew and
   * answered before it (see {@link estimateFirst}).
   */
  estimate?(input: PlaygroundInput, options?: { signal?: AbortSignal }): Promise<PlaygroundFigures>;
  compact(input: PlaygroundInput): Promise<StreamEdit>;
  reset(input: PlaygroundInput, position: number | null): Promise<StreamEdit>;
}

/** What loading an example sets: both texts, and optionally the other inputs. */
export type ExampleContent = Pick<PlaygroundInput, 'configText' | 'streamText'> &
  Partial<Pick<PlaygroundInput, 'encoding' | 'tokenizer' | 'now' | 'view'>>;

/** An example the gallery can load. `load` may fetch lazily (a code-split chunk). */
export interface ExampleEntry extends ExampleSummary {
  load(): ExampleContent | Promise<ExampleContent>;
}

/** What the actions need from outside the store. */
export interface ActionDeps {
  engine: Engine;
  examples?: readonly ExampleEntry[];
  /**
   * When the user opens their own file while the config is still `replaces`
   * (the default example's, whose comments describe that example), the
   * config becomes `configText`: the same rule, commented for any file.
   */
  ownFileConfig?: { replaces: string; configText: string };
  /**
   * Quiet time after an edit of the stream's text before a run starts
   * (default 150 ms): a new stream is parsed and counted from scratch. Every
   * other change runs at once (see {@link runAnalysis}).
   */
  debounceMs?: number;
  /**
   * Figures computed when the page was built (the default example's, see
   * tools/build/first-figures.ts): a run of exactly this input shows them at
   * once instead of asking the engine. Any other input is counted live.
   */
  firstFigures?: { input: PlaygroundInput; figures: PlaygroundFigures };
}

const DEFAULT_DEBOUNCE_MS = 150;

let deps: ActionDeps | null = null;
/** The run waiting for a quiet time (typing in the stream), if any. */
const pendingRun = createDebounce(() => void startRun());
/** The stream text of the last run started: a run on the same stream is cheap. */
let lastRunStream: string | null = null;
/** The tokenizer of the last run started: a new one counts the whole stream again. */
let lastRunTokenizer: TokenizerId | null = null;

/**
 * From this many characters of stream, a run that counts the stream's tokens
 * anew (a new stream, another tokenizer) shows an estimate first: o200k
 * counts about 10 MB/s here, so 500,000 characters are some 50 ms of
 * counting, and the 1.8 MB corpus file about 185 ms.
 */
export const ESTIMATE_FROM_CHARS = 500_000;
/** Whether the run waiting was asked for by typing in the stream (see estimateFirst). */
let typedStream = false;
/** The figures an estimate replaced, shown again if the counted run fails. */
let resultBeforeEstimate: PlaygroundFigures | null = null;
/** Only the newest run may write its result. */
const runs = createLatestWins();
let runController: AbortController | null = null;
let nextToastId = 1;

/** Connects the actions to an engine and the examples; call once at start-up. */
export function initActions(next: ActionDeps): void {
  cancelPendingWork();
  deps = next;
  store.setState({
    examples: (next.examples ?? []).map(({ id, title, summary, credit }) =>
      credit === undefined ? { id, title, summary } : { id, title, summary, credit },
    ),
  });
}

/** Forgets the engine and any pending run (tests, between cases). */
export function disposeActions(): void {
  cancelPendingWork();
  deps = null;
}

function cancelPendingWork(): void {
  pendingRun.cancel();
  runController?.abort();
  runController = null;
  runs.supersede();
  lastRunStream = null;
  lastRunTokenizer = null;
}

// ---------------------------------------------------------------- running

/**
 * Schedules a run of the current input. Results go busy at once, so
 * `aria-busy` never reads "false" over figures that an edit has already made
 * stale, and a run already under way is superseded: its answer is for an
 * older input. On the stream of the last run (a hint edit, a tokenizer or
 * view change) the worker answers from its caches in a few milliseconds, so
 * the run starts at once and latest wins drops what a newer edit supersedes.
 * Only typing in the stream (`quiet`) waits for a quiet time: each new text is
 * parsed and counted from scratch.
 */
export function runAnalysis(options: { quiet?: boolean } = {}): void {
  store.setState({ status: 'running', isStale: true });
  supersedeRun();
  const wait = options.quiet === true && store.getState().streamText !== lastRunStream;
  typedStream = wait;
  // A zero delay still merges the setters of one event (an example sets both texts).
  pendingRun.schedule(wait ? (deps?.debounceMs ?? DEFAULT_DEBOUNCE_MS) : 0);
}

/** Drops the answer of the run under way, if any: a newer input replaces it. */
function supersedeRun(): void {
  if (!runController) return;
  runController.abort();
  runController = null;
  runs.supersede();
}

/** Runs now, skipping the debounce; resolves when this run's result is in the store. */
export function flushAnalysis(): Promise<void> {
  pendingRun.cancel();
  typedStream = false;
  return startRun();
}

async function startRun(): Promise<void> {
  if (!deps) return;
  // The browser perf test measures from here (the end of the debounce) to
  // the `results-shown` mark the savings pane sets.
  globalThis.performance?.mark?.('run-start');
  const sequence = runs.start();
  runController?.abort();
  const controller = new AbortController();
  runController = controller;
  const { engine } = deps;
  const input = selectInput(store.getState());
  // The extras in view ask for this version as soon as it is set (state/extras.ts).
  store.setState({ status: 'running', isStale: true, runVersion: sequence, runInput: input });
  const countsAnew = input.streamText !== lastRunStream || input.tokenizer !== lastRunTokenizer;
  lastRunStream = input.streamText;
  lastRunTokenizer = input.tokenizer;
  const known = deps.firstFigures;
  if (known && isSameInput(known.input, input)) {
    // The extras still come from the engine: its session computes this input when first asked.
    applyResult(known.figures);
    if (runController === controller) runController = null;
    return;
  }
  // Typing in the stream keeps the token counts of every payload it did not touch: the counted run is quick.
  if (countsAnew && !typedStream) estimateFirst(input, sequence, controller.signal);
  const run = () => engine.run(input, { signal: controller.signal });
  try {
    const result = await run().catch((error: unknown) => {
      // A crash can be the worker's rather than the input's. The client has
      // replaced the worker, so the run is tried once more on the new one.
      if (!isWorkerFailure(error, 'crashed') || !runs.isCurrent(sequence)) throw error;
      logFailure(error);
      notify('The worker stopped unexpectedly and was restarted; computing again.', 'info');
      return run();
    });
    if (!runs.isCurrent(sequence)) return;
    applyResult(result);
  } catch (error) {
    // A newer run replaced this one: it owns the status now.
    if (isAbortError(error) || !runs.isCurrent(sequence)) return;
    logFailure(error);
    const failure = describeFailure(error, 'The computation');
    // An estimate shown meanwhile was never counted: the last counted figures come back.
    const counted =
      store.getState().estimatedWhile === null ? {} : { result: resultBeforeEstimate };
    store.setState({
      status: 'error',
      isStale: true,
      error: failure,
      estimatedWhile: null,
      ...counted,
    });
    // The same input would take as long again: a timeout asks for a change first.
    const advice = getFailureAdvice(
      error,
      isWorkerFailure(error, 'timeout')
        ? 'Change the input, or press Try again if the machine was busy.'
        : 'Press Try again, or change the input.',
    );
    notify(`${failure}. ${advice}`, 'error');
  } finally {
    if (runController === controller) runController = null;
  }
}

/**
 * Shows the run's figures as characters ÷ 4 while a large stream's tokens
 * are counted: the figures come at once, and the counted ones replace them.
 * The results stay busy (`status: 'running'`), and the page says the figures
 * are an estimate (`estimatedWhile`) until the counted ones are in.
 */
function estimateFirst(input: PlaygroundInput, sequence: number, signal: AbortSignal): void {
  const engine = deps?.engine;
  if (!engine?.estimate || input.tokenizer === 'chars') return;
  if (input.streamText.length < ESTIMATE_FROM_CHARS) return;
  engine.estimate(input, { signal }).then(
    (estimate) => {
      const state = store.getState();
      // A foreign transcript's estimate would hand its events to the editor: the counted run does.
      if (!runs.isCurrent(sequence) || state.status !== 'running') return;
      if (estimate.status !== 'ok' || estimate.imported) return;
      if (state.estimatedWhile === null) resultBeforeEstimate = state.result;
      store.setState({ result: estimate, estimatedWhile: input.tokenizer });
    },
    () => {
      // The counted run reports what went wrong.
    },
  );
}

/** Stores a finished run. Invalid input keeps the last good figures, marked stale. */
function applyResult(result: PlaygroundFigures): void {
  const state = store.getState();
  // Keep the arrays the editors already have when nothing changed: new ones
  // would reset the markers of a multi-megabyte stream model on every run.
  const diagnostics = {
    configDiagnostics: keepIfEqual(state.configDiagnostics, result.configDiagnostics),
    configDiagnosticsText: result.configText,
    streamDiagnostics: keepIfEqual(state.streamDiagnostics, result.streamDiagnostics),
  };
  const counted = {
    status: 'done',
    result,
    isStale: false,
    error: null,
    estimatedWhile: null,
  } as const;
  const imported = result.imported;
  if (imported) {
    // A foreign transcript: the editor takes the imported JP events, and the summary stays.
    store.setState({ importSummary: imported.summary });
    if (imported.eventsText !== null && result.status === 'ok') {
      store.setState({
        ...diagnostics,
        ...counted,
        importedStream: { from: state.streamText, to: imported.eventsText },
      });
      setStreamText(imported.eventsText);
      return;
    }
  }
  if (result.status === 'ok') {
    store.setState({ ...diagnostics, ...counted });
  } else {
    store.setState({
      ...diagnostics,
      status: 'done',
      isStale: true,
      error: null,
      estimatedWhile: null,
    });
  }
}

function keepIfEqual(current: Diagnostic[], next: Diagnostic[]): Diagnostic[] {
  // Diagnostics are few and small: comparing them whole is cheap and follows new fields.
  if (current.length === 0 && next.length === 0) return current;
  return JSON.stringify(current) === JSON.stringify(next) ? current : next;
}

// ---------------------------------------------------------------- inputs

function setInput(patch: Partial<AppState>, options?: { quiet?: boolean }): void {
  const state = store.getState();
  const changed = (Object.keys(patch) as (keyof AppState)[]).some(
    (key) => !Object.is(state[key], patch[key]),
  );
  if (!changed) return;
  store.setState(patch);
  runAnalysis(options);
}

/** Replaces the TOML config text. */
export function setConfigText(configText: string): void {
  setInput({ configText });
}

/**
 * Sets one tool's hint in the config text (the what-if grid's cells), as an
 * edit the config editor can undo; says so when the text cannot express it.
 */
export function setToolChoice(tool: string, choice: HintChoice, inForce: ToolHint | null): void {
  const configText = store.getState().configText;
  const next = setToolChoiceInToml(configText, tool, choice, inForce);
  if (next === undefined) {
    notify(
      `${tool}'s hint is not set under its own [conversation.tools.${tool}] table here; edit the config to change it.`,
      'info',
    );
    return;
  }
  if (next !== configText) setConfigText(next);
}

/** Replaces the `events.json` text (typed or pasted): runs after a quiet time. */
export function setStreamText(streamText: string): void {
  setInput({ streamText }, { quiet: true });
}

/** Chooses how the stream's text is decoded. */
export function setEncoding(encoding: EncodingSetting): void {
  setInput({ encoding });
}

/** Chooses the tokenizer. */
export function setTokenizer(tokenizer: TokenizerId): void {
  setInput({ tokenizer });
}

/** Sets an explicit "now" (JP's timestamp format), or null / blank for the default. */
export function setNow(now: string | null): void {
  setInput({ now: now === null || now.trim() === '' ? null : now });
}

/** Switches one of D17's readings (readings.ts); the others stay as they are. */
export function setReading<K extends ReadingName>(name: K, value: Readings[K]): void {
  const readings = store.getState().readings;
  if (readings[name] === value) return;
  // A diff against the reading just switched would compare it with itself.
  const diffReading = store.getState().diffReading;
  if (diffReading?.name === name) store.setState({ diffReading: null });
  setInput({ readings: { ...readings, [name]: value } });
}

/** Puts every D17 reading back to the spec's ruling. */
export function resetReadings(): void {
  setInput({ readings: DEFAULT_READINGS });
}

/** Whether the Design questions panel measures what each alternative reading changes (its extra). */
export function setCompareReadings(compareReadings: boolean): void {
  store.setState({ compareReadings });
}

/** Opens the diff of the readings in force against `choice` in the diff pane, or (null) before/after again. */
export function showReadingDiff(choice: ReadingChoice | null): void {
  const current = store.getState().diffReading;
  if (current?.name === choice?.name && current?.value === choice?.value) return;
  store.setState({ diffReading: choice });
}

/** Chooses what the diff pane shows: the whole conversation, or one request's prompt under a choice. */
export function setRequestView(view: RequestView): void {
  store.setState({ requestView: view });
}

/** Shows or hides the header's Advanced settings. */
export function setAdvancedOpen(advancedOpen: boolean): void {
  store.setState({ advancedOpen });
}

/** Asks for the conversation's hint recommendations: the pane then keeps them current while in view. */
export function askForRecommendations(): void {
  store.setState({ recommendAsked: true });
}

/** Chooses the provider view that is counted and shown. */
export function setView(view: ViewMode): void {
  setInput({ view });
}

/** Loads the text of an opened `events.json` as is (JP stores it in storage form). */
export function openFile(text: string, name: string): void {
  const neutral = deps?.ownFileConfig;
  const { configText, replayChoice } = store.getState();
  store.setState({
    configText: neutral && configText === neutral.replaces ? neutral.configText : configText,
    // A new file opens the cost pane on its own runtime's policy (selectReplayChoice).
    replayChoice: { ...replayChoice, policy: null },
    importSummary: null,
    importedStream: null,
    streamFileName: name,
    exampleId: null,
    selectedEventKey: null,
    // Auto detects storage form, and still reads a plain export correctly.
    encoding: 'auto',
    streamText: text,
  });
  // Posted to the worker before React hands the text to the stream editor:
  // Monaco taking a large model holds the main thread, and the worker counts
  // meanwhile.
  void flushAnalysis();
}

/** Loads an example by id; resolves false when no such example exists. */
export async function loadExample(id: string): Promise<boolean> {
  const entry = deps?.examples?.find((example) => example.id === id);
  if (!entry) return false;
  let content: ExampleContent;
  try {
    content = await entry.load();
  } catch (error) {
    console.error(error);
    notify(`Could not load the example “${entry.title}”.`, 'error');
    return false;
  }
  store.setState({
    configText: content.configText,
    streamText: content.streamText,
    encoding: content.encoding ?? 'auto',
    tokenizer: content.tokenizer ?? store.getState().tokenizer,
    now: content.now ?? null,
    view: content.view ?? 'sanitized',
    streamFileName: null,
    replayChoice: { ...store.getState().replayChoice, policy: null },
    importSummary: null,
    importedStream: null,
    exampleId: id,
    selectedTool: null,
    selectedEventKey: null,
  });
  runAnalysis();
  return true;
}

// ---------------------------------------------------------------- stream edits

async function applyStreamEdit(
  what: string,
  edit: (engine: Engine, input: PlaygroundInput) => Promise<StreamEdit>,
): Promise<boolean> {
  if (!deps) return false;
  try {
    const outcome = await edit(deps.engine, selectInput(store.getState()));
    if (!outcome.ok) {
      notify(`${what}: ${outcome.message}`, 'info');
      return false;
    }
    store.setState({ selectedEventKey: null });
    // A click, not typing: the run starts at once.
    setInput({ streamText: outcome.streamText });
    return true;
  } catch (error) {
    if (isAbortError(error)) return false;
    logFailure(error);
    notify(`${describeFailure(error, what)}.`, 'error');
    return false;
  }
}

/** Appends the previewed compactions to the stream for real (spec 14.5). */
export async function compact(): Promise<boolean> {
  const plan = selectCompactPlan(store.getState());
  const done = await applyStreamEdit('Compact', (engine, input) => engine.compact(input));
  // The headline and table do not move (the preview already counted these), so say what changed.
  if (done && plan && plan.fresh.length > 0) notify(describeCompacted(plan), 'info');
  return done;
}

/** Removes every compaction from the stream, or only the K-th (1-based). */
export function reset(position: number | null = null): Promise<boolean> {
  return applyStreamEdit('Reset', (engine, input) => engine.reset(input, position));
}

// ---------------------------------------------------------------- ui

/** Picks a tool in the panes (or null to clear). */
export function selectTool(name: string | null): void {
  store.setState({ selectedTool: name });
}

/** Picks a transcript entry by key (or null to clear). */
export function selectEvent(key: string | null): void {
  store.setState({ selectedEventKey: key });
}

/** Follows the system colour scheme. */
export function setTheme(theme: Theme): void {
  store.setState({ theme });
}

/** Lets the editors mount, once their code has loaded. */
export function setEditorsReady(): void {
  store.setState({ editorsReady: true });
}

/** Queues a toast for the `aria-live` region; returns its id. */
export function notify(message: string, tone: Toast['tone'] = 'error'): number {
  const id = nextToastId++;
  store.setState((state) => ({ toasts: [...state.toasts, { id, message, tone }] }));
  return id;
}

/** Removes a toast. */
export function dismissToast(id: number): void {
  store.setState((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
}
