/**
 * The workspace's actions: opening many conversations, counting them over the
 * worker pool, answering edits from the hint tables, cancelling, the
 * workspace's recommendations, the context budget, and opening one
 * conversation in the editors. While the conversation's results are shown,
 * the workspace computes nothing: an edit marks its figures stale, and they
 * are computed again when the workspace is shown.
 *
 * The pool (a `WorkspacePool`, or a fake in tests) is injected once by
 * `main.tsx` through `initWorkspace`. The files themselves stay here, outside
 * the store: the store holds only plain figures.
 *
 * Memory stays bounded: the page keeps File handles, never the streams; a
 * pool worker reads one conversation, builds its hint table and forgets the
 * stream; the session worker keeps only the tables (a few kilobytes each).
 */

import type { Recommendation } from '../core/analyses/recommend.ts';
import { formatCount } from '../core/counting/format.ts';
import { addReports, type Report } from '../core/counting/report.ts';
import type { ToolHintInfo } from '../core/playground/types.ts';
import { writeEventsText } from '../core/stream/write.ts';
import type { WorkspacePool } from '../worker/main-thread/workspace-pool.ts';
import { isAbortError } from '../worker/shared/errors.ts';
import type { AnalyzedConversation } from '../worker/shared/workspace-protocol.ts';
import { notify, openFile, setConfigText } from './actions.ts';
import type { AppState, ResultsView, WorkspaceConversation, WorkspaceSlice } from './app-state.ts';
import { describeFailure, getFailureAdvice, logFailure } from './failures.ts';
import { readUserFile } from './read-file.ts';
import { selectWorkspaceSettings } from './selectors.ts';
import { store } from './store.ts';
import { createDebounce, createLatestWins } from './timing.ts';
import {
  addInlineSubagents,
  type ConversationSource,
  checkWorkspaceLimits,
  collectConversations,
  getConversationFiles,
  nameSubagents,
  type PickedFile,
  pendingConversations,
} from './workspace-files.ts';
import { initialWorkspaceState } from './workspace-slice.ts';

/** What the workspace needs from outside the store. */
export interface WorkspaceDeps {
  pool: WorkspacePool;
  /** Quiet time after the last edit before the figures are computed again. Default 150 ms. */
  debounceMs?: number;
  /** Longest wait between two progress updates while counting. Default 200 ms. */
  progressMs?: number;
}

const DEFAULT_DEBOUNCE_MS = 150;
const DEFAULT_PROGRESS_MS = 200;
let deps: WorkspaceDeps | null = null;
let unsubscribe: (() => void) | null = null;
/** The open workspace's conversations, by index. */
let sources: ConversationSource[] = [];
/** True once every conversation has been counted for the tables the session worker holds. */
let tablesComplete = false;
let loadController: AbortController | null = null;
/** Only the newest load and the newest evaluation may write. */
const loads = createLatestWins();
const evaluations = createLatestWins();
/** The refresh waiting for a quiet time after an edit. */
const pendingRefresh = createDebounce(() => void refreshWorkspace());
/** True when an edit made while the workspace was hidden is still to be computed. */
let refreshWhenShown = false;

// ---------------------------------------------------------------- set-up

/** Connects the workspace to its pool and follows the inputs; call once at start-up. */
export function initWorkspace(next: WorkspaceDeps): void {
  disposeWorkspace();
  deps = next;
  unsubscribe = store.subscribe(onStoreChange);
}

/** Forgets the pool, the files and any pending work (tests, between cases). */
export function disposeWorkspace(): void {
  unsubscribe?.();
  unsubscribe = null;
  stopTimers();
  loadController?.abort();
  loadController = null;
  loads.supersede();
  evaluations.supersede();
  refreshWhenShown = false;
  sources = [];
  tablesComplete = false;
  deps = null;
}

function stopTimers(): void {
  pendingRefresh.cancel();
}

function onStoreChange(state: AppState, prev: AppState): void {
  const settingsChanged =
    state.configText !== prev.configText ||
    state.now !== prev.now ||
    state.view !== prev.view ||
    state.tokenizer !== prev.tokenizer ||
    state.readings !== prev.readings;
  const counted = state.workspaceStatus === 'done' || state.workspaceStatus === 'invalid';
  if (settingsChanged && counted) {
    // Hidden, the workspace computes nothing: its figures are only marked stale.
    if (state.resultsView === 'workspace') scheduleRefresh();
    else {
      refreshWhenShown = true;
      if (!state.workspaceStale) store.setState({ workspaceStale: true });
    }
  }
  if (state.resultsView === 'workspace' && prev.resultsView !== 'workspace' && refreshWhenShown) {
    refreshWhenShown = false;
    scheduleRefresh();
  }
}

/** The pool and the open workspace's conversations, for the Cost section's pass (workspace-money.ts). */
export function getWorkspaceSources(): {
  pool: WorkspacePool;
  sources: ConversationSource[];
} | null {
  return deps ? { pool: deps.pool, sources } : null;
}

// ---------------------------------------------------------------- opening

/**
 * Opens the conversations among picked files (a folder, or several files)
 * as the workspace, and counts them. Resolves once counted, cancelled or
 * refused.
 */
export async function openWorkspace(files: ArrayLike<PickedFile>): Promise<void> {
  if (!deps) return;
  stopLoad();
  const collected = await collectConversations(files);
  if (collected.conversations.length === 0) {
    notify(
      'No conversations there: open a JP conversations folder (.jp/conversations), a Claude Code projects or Codex sessions folder, or conversation files.',
      'info',
    );
    return;
  }
  const name =
    collected.folder ??
    (collected.conversations.length === 1
      ? (collected.conversations[0]?.name ?? '1 file')
      : `${collected.conversations.length} files`);
  const refusal = checkWorkspaceLimits(collected);
  sources = refusal ? [] : collected.conversations;
  tablesComplete = false;
  store.setState({
    ...freshWorkspace(),
    resultsView: 'workspace',
    workspaceName: name,
    workspaceStatus: refusal ? 'refused' : 'loading',
    workspaceMessage: refusal ? { text: refusal, tone: 'error' } : null,
    workspaceConversations: pendingConversations(sources),
  });
  if (refusal) {
    void deps.pool.clear().catch(() => {});
    return;
  }
  await countWorkspace();
}

/** The workspace fields reset for a new workspace (the budget stays). */
function freshWorkspace(): Partial<WorkspaceSlice> {
  const { contextBudget: _budget, resultsView: _view, ...rest } = initialWorkspaceState;
  return rest;
}

// ---------------------------------------------------------------- counting

function stopLoad(): void {
  loadController?.abort();
  loadController = null;
  loads.supersede();
  evaluations.supersede();
  pendingRefresh.cancel();
}

/** Merges a conversation's tool hints into the workspace's: the first conversation in order wins. */
function mergeTools(
  tools: Map<string, { info: ToolHintInfo; index: number }>,
  index: number,
  infos: readonly ToolHintInfo[],
): void {
  for (const info of infos) {
    const seen = tools.get(info.name);
    const calls = (seen?.info.calls ?? 0) + info.calls;
    if (!seen || index < seen.index) tools.set(info.name, { info: { ...info, calls }, index });
    else seen.info = { ...seen.info, calls };
  }
}

/**
 * Counts every conversation from its files (a cold run): over the pool,
 * with progress and the running figures in the store; then computes the
 * workspace's figures for the current input from the tables.
 */
async function countWorkspace(): Promise<void> {
  if (!deps) return;
  const { pool } = deps;
  stopLoad();
  const controller = new AbortController();
  loadController = controller;
  const sequence = loads.latest;
  const current = () => loads.isCurrent(sequence);
  tablesComplete = false;
  const settings = selectWorkspaceSettings(store.getState());
  const conversations = pendingConversations(sources);
  const toCount = conversations.filter((c) => c.status === 'pending').map((c) => c.index);
  store.setState({
    workspaceStatus: 'loading',
    workspaceBusy: true,
    workspaceStale: true,
    workspaceMessage: null,
    workspaceConversations: conversations,
    workspaceProgress: { done: conversations.length - toCount.length, total: conversations.length },
    workspaceReport: null,
    workspaceWhatIf: null,
    workspaceTools: [],
  });

  try {
    // The session worker checks the config while the pool starts counting:
    // waiting for it first would put a worker's start-up before any counting.
    const checked = pool
      .clear()
      .then(() => pool.evaluate(settings))
      .then((check) => {
        if (check.status !== 'invalid' || !current()) return;
        stopLoad();
        store.setState({
          workspaceStatus: 'invalid',
          workspaceBusy: false,
          workspaceConversations: pendingConversations(sources),
          workspaceProgress: { done: 0, total: sources.length },
          workspaceReport: null,
          workspaceWhatIf: null,
          workspaceTools: [],
          workspaceMessage: {
            text: `${check.message}. The workspace is counted once the config has no errors.`,
            tone: 'error',
          },
        });
      });

    let running: Report | null = null;
    const tools = new Map<string, { info: ToolHintInfo; index: number }>();
    let queue: AnalyzedConversation[] = [];
    const descriptions = new Map<number, string>();
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      if (flushTimer !== null) clearTimeout(flushTimer);
      flushTimer = null;
      if (!current() || queue.length === 0) return;
      const arrived = queue;
      queue = [];
      const state = store.getState();
      const list = [...state.workspaceConversations];
      for (const result of arrived) {
        const before = list[result.index];
        if (!before) continue;
        const title = result.title ?? before.title;
        if (result.title !== null) descriptions.set(result.index, result.title);
        if (result.ok) {
          running = running
            ? addReports([running, result.report], settings.tokenizer)
            : result.report;
          mergeTools(tools, result.index, result.tools);
          list[result.index] = { ...before, title, status: 'done', figures: result.figures };
        } else {
          list[result.index] = { ...before, title, status: 'failed', message: result.message };
        }
      }
      nameSubagents(list, sources, descriptions);
      store.setState({
        workspaceConversations: list,
        workspaceProgress: {
          done: state.workspaceProgress.done + arrived.length,
          total: state.workspaceProgress.total,
        },
        workspaceReport: running,
        workspaceTools: [...tools.values()]
          .map(({ info }) => info)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      });
    };

    /** Inline subagents found in the sessions counted so far, still to count. */
    let found: number[] = [];
    const onConversation = (result: AnalyzedConversation) => {
      if (!current()) return;
      if (result.ok) pool.hold(result.index, result);
      if (result.ok && result.subagents !== undefined) {
        const ids = result.subagents.map((subagent) => subagent.agentId);
        const added = addInlineSubagents(sources, result.index, ids);
        if (added.length > 0) {
          // Listed at once (pending), so the progress counts them.
          found = found.concat(added);
          const state = store.getState();
          const rows = pendingConversations(sources);
          store.setState({
            workspaceConversations: [
              ...state.workspaceConversations,
              ...added.map((index) => rows[index] as WorkspaceConversation),
            ],
            workspaceProgress: {
              done: state.workspaceProgress.done,
              total: state.workspaceProgress.total + added.length,
            },
          });
        }
      }
      queue.push(result);
      // Batched: a store update per conversation would re-render the
      // panel thousands of times for a large workspace.
      flushTimer ??= setTimeout(flush, deps?.progressMs ?? DEFAULT_PROGRESS_MS);
    };
    const filesOf = (index: number) => getConversationFiles(sources, index);
    const analyzing = pool.analyze(toCount.map(filesOf), settings, {
      signal: controller.signal,
      onConversation,
    });
    await Promise.all([checked, analyzing]);
    // A session's inline subagents are known once it is read: count them after.
    while (found.length > 0 && current()) {
      const next = found;
      found = [];
      await pool.analyze(next.map(filesOf), settings, {
        signal: controller.signal,
        onConversation,
      });
    }
    flush();
    if (!current()) return;
    loadController = null;
    tablesComplete = true;
    store.setState({ workspaceStatus: 'done' });
    await refreshWorkspace();
  } catch (error) {
    if (isAbortError(error) || !current()) return;
    logFailure(error);
    loadController = null;
    store.setState({
      workspaceStatus: 'failed',
      workspaceBusy: false,
      workspaceStale: true,
      workspaceReport: null,
      workspaceWhatIf: null,
      workspaceMessage: {
        text: `${describeFailure(error, 'Counting')}. ${getFailureAdvice(error, 'Count again, or reload the page.')}`,
        tone: 'error',
      },
    });
  }
}

/** Counts the open workspace again from its files (after a cancel or a failure). */
export function recountWorkspace(): Promise<void> {
  if (sources.length === 0) return Promise.resolve();
  return countWorkspace();
}

/**
 * Stops counting: the pool's workers are terminated at once. Partial
 * figures are dropped, so nothing incomplete is shown as the workspace's.
 */
export function cancelWorkspaceLoad(): void {
  if (!loadController) return;
  stopLoad();
  tablesComplete = false;
  const { done, total } = store.getState().workspaceProgress;
  store.setState({
    workspaceStatus: 'cancelled',
    workspaceBusy: false,
    workspaceStale: true,
    workspaceReport: null,
    workspaceWhatIf: null,
    workspaceTools: [],
    workspaceSelectedTool: null,
    workspaceConversations: pendingConversations(sources),
    workspaceRecommendations: initialWorkspaceState.workspaceRecommendations,
    workspaceMessage: {
      text: `Counting was cancelled after ${formatCount(done)} of ${formatCount(total)} conversations, so no figures are shown.`,
      tone: 'info',
    },
  });
  void deps?.pool.clear().catch(() => {});
}

/** Closes the workspace and shows the editor's conversation. */
export function closeWorkspace(): void {
  stopLoad();
  sources = [];
  tablesComplete = false;
  store.setState({ ...freshWorkspace(), resultsView: 'conversation' });
  void deps?.pool.clear().catch(() => {});
}

function scheduleRefresh(): void {
  // Busy at once, so `aria-busy` never reads "false" over figures an edit made stale.
  store.setState({ workspaceBusy: true });
  pendingRefresh.schedule(deps?.debounceMs ?? DEFAULT_DEBOUNCE_MS);
}

/**
 * The workspace's figures for the current input, from the hint tables: a
 * lookup when only hints changed. When the tables cannot answer (new rules,
 * "now", view or tokenizer, or a config that was invalid when counting
 * started), every conversation is counted again.
 */
export async function refreshWorkspace(): Promise<void> {
  if (!deps) return;
  const state = store.getState();
  if (!tablesComplete) {
    if (state.workspaceStatus === 'invalid' || state.workspaceStatus === 'done') {
      await countWorkspace();
    }
    return;
  }
  const sequence = evaluations.start();
  const settings = selectWorkspaceSettings(state);
  store.setState({ workspaceBusy: true });
  try {
    const result = await deps.pool.evaluate(settings);
    if (!evaluations.isCurrent(sequence)) return;
    const counted = store.getState().workspaceConversations.filter((c) => c.status === 'done');
    if (result.status === 'invalid') {
      store.setState({
        workspaceBusy: false,
        workspaceStale: true,
        workspaceMessage: {
          text: `${result.message}. The figures shown are from the last config without errors.`,
          tone: 'error',
        },
        workspaceRecommendations: {
          ...store.getState().workspaceRecommendations,
          status: 'invalid',
          message: result.message,
        },
      });
      return;
    }
    if (result.status === 'stale' || result.conversations.length !== counted.length) {
      await countWorkspace();
      return;
    }
    const list = [...store.getState().workspaceConversations];
    for (const { index, figures } of result.conversations) {
      const before = list[index];
      if (before) list[index] = { ...before, figures };
    }
    store.setState({
      workspaceConversations: list,
      workspaceReport: result.report,
      workspaceWhatIf: result.whatIf,
      workspaceTools: result.tools,
      workspaceBusy: false,
      workspaceStale: false,
      workspaceMessage: null,
      workspaceRecommendations: {
        status: 'done',
        result: result.recommendations,
        message: null,
      },
    });
  } catch (error) {
    if (isAbortError(error) || !evaluations.isCurrent(sequence)) return;
    logFailure(error);
    store.setState({ workspaceBusy: false, workspaceStale: true });
    notify(
      `${describeFailure(error, 'Computing the workspace’s figures')}. ${getFailureAdvice(error, 'Change the input, or count again.')}`,
      'error',
    );
  }
}

// ---------------------------------------------------------------- views

/** Shows the editor's conversation or the workspace in the results column. */
export function setResultsView(view: ResultsView): void {
  store.setState({ resultsView: view });
}

/** Picks a tool in the workspace's savings table (or null to clear). */
export function selectWorkspaceTool(name: string | null): void {
  store.setState({ workspaceSelectedTool: name });
}

/** Sets the context window the conversations are compared with, or null for none. */
export function setContextBudget(tokens: number | null): void {
  store.setState({
    contextBudget: tokens !== null && Number.isFinite(tokens) && tokens > 0 ? tokens : null,
  });
}

/**
 * Reads "200,000", "200000", "200 000" or "200k" as a number of tokens;
 * undefined when the text is not a positive whole number, null when blank.
 */
export function parseTokenCount(text: string): number | null | undefined {
  const compact = text
    .trim()
    .replace(/[\s,_]/g, '')
    .toLowerCase();
  if (compact === '') return null;
  const match = /^(\d+(?:\.\d+)?)([km]?)$/.exec(compact);
  if (!match) return undefined;
  const scale = match[2] === 'k' ? 1_000 : match[2] === 'm' ? 1_000_000 : 1;
  const value = Math.round(Number(match[1]) * scale);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Loads a conversation of the workspace into the stream editor and shows it
 * (the workspace stays open, a tab away).
 */
export async function openConversationInEditor(index: number): Promise<boolean> {
  const source = sources[index];
  const conversation = store.getState().workspaceConversations[index];
  if (!source || !conversation) return false;
  try {
    const text = await readUserFile(source.events, conversation.path, 'stream');
    if (text === undefined) return false;
    if (source.agent !== undefined) {
      // An inline subagent has no file of its own: the editor gets its conversation as JP events.
      // The importers are a chunk of their own, loaded on this first use.
      const { importTranscript } = await import('../core/import/import.ts');
      const imported = importTranscript(text, { agent: source.agent });
      if (imported.elements === undefined) return false;
      openFile(writeEventsText(imported.elements, 'storage'), conversation.title);
    } else openFile(text, source.kind === 'jp-events' ? conversation.title : source.events.name);
    store.setState({ resultsView: 'conversation', selectedTool: null });
    return true;
  } catch (error) {
    // A chunk gone from the server (an older tab) also raises the reload notice.
    logFailure(error);
    notify(`Could not read ${conversation.path}.`, 'error');
    return false;
  }
}

// ---------------------------------------------------------------- recommendations

/**
 * Writes recommended hints into the config text as TOML: each tool's
 * `compaction` line set where its table is written, new tables appended.
 * Resolves true when the config changed.
 */
export async function applyRecommendedHints(
  recommendations: readonly Recommendation[],
): Promise<boolean> {
  if (!deps || recommendations.length === 0) return false;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const configText = store.getState().configText;
      const next = await deps.pool.renderHints([...recommendations], configText);
      // Typed meanwhile: render again on the newer text rather than lose the edit.
      if (store.getState().configText !== configText) continue;
      if (next === configText) return false;
      setConfigText(next);
      const count = recommendations.filter((rec) => rec.hint !== rec.currentHint).length;
      notify(
        `Applied ${count} ${count === 1 ? 'hint' : 'hints'} to the config. Edit or undo them there (Ctrl+Z).`,
        'info',
      );
      return true;
    }
    return false;
  } catch (error) {
    if (isAbortError(error)) return false;
    logFailure(error);
    notify(`${describeFailure(error, 'Applying the hints')}.`, 'error');
    return false;
  }
}
