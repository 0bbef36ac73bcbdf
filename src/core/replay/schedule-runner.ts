/**
 * JP's schedules run over the requests (docs/replay.md): at each request,
 * the compactions in force (stored ones as they stand in the stream, and
 * those the schedule creates with the config's rules), the prompt they
 * leave, and what it shares with the previous request's. Counted tokens and
 * hidden output apart: pricing (cost-model.ts) calibrates them.
 */
import type { ParsedConfig } from '../config/config.ts';
import type { ToolChoice } from '../playground/pipeline.ts';
import { planCompactions } from '../playground/playground.ts';
import type { StreamElement } from '../types.ts';
import type { AutoCompaction } from './auto-config.ts';
import { getCommonPrefix, getPrompt, type Prompt } from './prompts.ts';
import type { ReplayRequestSite } from './requests.ts';
import type { ScheduleId } from './schedules.ts';
import { getView, type StreamState } from './stream-state.ts';
import type { RawRequest, ReplaySettings } from './types.ts';

/** Schedules whose compactions are created by the config's rules, so hints change them. */
export function createsCompactions(schedule: ScheduleId): boolean {
  return schedule === 'every-turn' || schedule === 'auto' || schedule === 'idle';
}

/** The config with its rules replaced by the auto rule. */
function withAutoRule(config: ParsedConfig, auto: AutoCompaction): ParsedConfig {
  return {
    config: { ...config.config, rules: { rules: [auto.rule], strategy: 'replace', dedup: false } },
    diagnostics: [],
  };
}

/**
 * What the schedules read to decide: the time to live of the cache (`idle`
 * compacts after a longer gap) and the prompt size `auto` triggers at, in
 * billed tokens as the runtime counts them (prefix and factor included).
 */
export interface ScheduleTriggers {
  ttlSeconds: number;
  /** The model's context window, of which `auto`'s trigger is a share. */
  contextWindow: number;
  /** The billed prompt of a visible prompt at request k. */
  billedPrompt(k: number, visible: number, hidden: number): number;
  /** A key of the above, for memoising runs. */
  key: string;
}

/** Runs one schedule over the requests: the prompt of each and what was created. */
export function runSchedule(
  state: StreamState,
  schedule: ScheduleId,
  triggers: ScheduleTriggers,
  toolChoice?: ToolChoice,
): readonly RawRequest[] {
  // Neither the config nor a tool's what-if changes these two: no rule runs in them.
  if (!createsCompactions(schedule)) {
    const known = state.fixedSchedules.get(schedule);
    if (known) return known;
    const raw = computeSchedule(state, schedule, triggers);
    state.fixedSchedules.set(schedule, raw);
    return raw;
  }
  // A tool's what-if is asked for once per tool and choice: not kept.
  if (toolChoice) return computeSchedule(state, schedule, triggers, toolChoice);
  // Kept: the pane replays every schedule for each choice of schedule or policy,
  // and neither changes a schedule's run.
  const { config } = state.settings;
  let byKey = state.createdSchedules.get(config);
  if (!byKey) {
    byKey = new Map();
    state.createdSchedules.set(config, byKey);
  }
  const key = getCreatedScheduleKey(state.settings, schedule, triggers);
  const known = byKey.get(key);
  if (known) return known;
  const raw = computeSchedule(state, schedule, triggers);
  byKey.set(key, raw);
  return raw;
}

/**
 * What a schedule's run may depend on besides the stream and the config:
 * the settings it reads (not the chosen schedule, the runtime's policy or
 * the prices, which are pricing's and the result's) and the triggers.
 */
function getCreatedScheduleKey(
  settings: ReplaySettings,
  schedule: ScheduleId,
  triggers: ScheduleTriggers,
): string {
  return JSON.stringify([
    schedule,
    settings.counter.id,
    settings.auto,
    settings.view,
    settings.readings,
    settings.untimed === true,
    triggers.key,
  ]);
}

/**
 * Request `index`'s prompt under a schedule (0-based, clamped to the last):
 * the same run as the replay prices, stopped there. Not memoised: the diff
 * pane asks for one request at a time.
 */
export function getSchedulePrompt(
  state: StreamState,
  schedule: ScheduleId,
  triggers: ScheduleTriggers,
  index: number,
  toolChoice?: ToolChoice,
): Prompt | null {
  let seen: Prompt | null = null;
  computeSchedule(state, schedule, triggers, toolChoice, {
    index,
    seen: (prompt) => {
      seen = prompt;
    },
  });
  return seen;
}

/**
 * Runs a schedule over the requests. With `through`, stops after that
 * request (0-based, clamped to the last) and hands its prompt to `seen`.
 */
function computeSchedule(
  state: StreamState,
  schedule: ScheduleId,
  triggers: ScheduleTriggers,
  toolChoice?: ToolChoice,
  through?: { index: number; seen: (prompt: Prompt) => void },
): RawRequest[] {
  const { elements, settings } = state;
  const hidden = state.context.hidden;
  const created: StreamElement[] = [];
  const raw: RawRequest[] = [];
  let storedInForce = 0;
  let previous: Prompt | null = null;
  const autoConfig = withAutoRule(settings.config, settings.auto);
  const compactionsNow = () => [
    ...state.stored.slice(0, storedInForce).map((entry) => entry.element),
    ...created,
  ];
  const create = (site: ReplayRequestSite, config: ParsedConfig): number => {
    // Rules run on the stream as it stands at that request: stored compactions in place, then created ones.
    const stream = [...elements.slice(0, site.cut), ...created];
    const plan = planCompactions(stream, config, site.time, settings.readings, toolChoice);
    created.push(...plan.created.events);
    return plan.created.events.length;
  };
  let epoch = { stored: 0, compactions: [] as StreamElement[], view: getView(state, []) };
  const sites = state.scan.requests;
  const last = through ? Math.min(through.index, sites.length - 1) : sites.length - 1;
  for (let k = 0; k <= last; k++) {
    const site = sites[k] as ReplayRequestSite;
    if (schedule !== 'none') {
      while (
        storedInForce < state.stored.length &&
        (state.stored[storedInForce]?.index as number) < site.cut
      ) {
        storedInForce++;
      }
    }
    let createdHere = 0;
    const gap = state.gaps[k] ?? null;
    if (schedule === 'every-turn' && site.firstOfTurn) createdHere += create(site, settings.config);
    if (schedule === 'idle' && gap !== null && gap > triggers.ttlSeconds) {
      createdHere += create(site, settings.config);
    }
    if (
      schedule === 'auto' &&
      site.firstOfTurn &&
      k > 0 &&
      site.turn + 1 >= settings.auto.minTurns
    ) {
      const compactions = compactionsNow();
      const before = getPrompt(state.context, getView(state, compactions), compactions, site.cut);
      const limit = settings.auto.triggerRatio * triggers.contextWindow;
      if (triggers.billedPrompt(k, before.tokens, before.hidden) > limit) {
        createdHere += create(site, autoConfig);
      }
    }
    // The compactions in force, and their view, change only at a stored one or a created one.
    if (createdHere > 0 || storedInForce !== epoch.stored) {
      const compactions = compactionsNow();
      epoch = { stored: storedInForce, compactions, view: getView(state, compactions) };
    }
    const prompt = getPrompt(state.context, epoch.view, epoch.compactions, site.cut);
    const common = previous
      ? getCommonPrefix(previous, prompt, hidden)
      : { count: 0, tokens: 0, hidden: 0 };
    raw.push({
      visibleTokens: prompt.tokens,
      hiddenTokens: prompt.hidden,
      commonVisible: common.tokens,
      commonHidden: common.hidden,
      commonCount: common.count,
      previousCount: previous?.count ?? 0,
      created: createdHere,
    });
    previous = prompt;
    if (k === last) through?.seen(prompt);
  }
  return raw;
}
