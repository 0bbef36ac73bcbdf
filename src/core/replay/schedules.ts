/**
 * The replay's schedules and the choices a person makes for it (model or
 * custom prices, schedule, scaling, a runtime's policy), apart from the
 * replay itself: the page and share links need these few names without the
 * replay's machinery.
 */
import type { PolicyName } from './policies/types.ts';

/** When compactions are in force (issue 21's table). */
export type ScheduleId = 'none' | 'stored' | 'every-turn' | 'auto' | 'idle';

/** Every schedule, baseline first. */
export const SCHEDULES: readonly ScheduleId[] = ['none', 'stored', 'every-turn', 'auto', 'idle'];

/** Whether a value names a schedule. */
export function isScheduleId(value: unknown): value is ScheduleId {
  return typeof value === 'string' && (SCHEDULES as readonly string[]).includes(value);
}

/**
 * A runtime's own clearing chosen for the replay (issue 22), as the CLI's
 * `--policy NAME --set key=value…` say it: the assignments are read by
 * `parsePolicyChoice` (policies.ts), which refuses a bad one as data.
 */
export interface PolicySelection {
  name: PolicyName;
  /** `key=value` assignments over the policy's defaults, as `--set` takes them. */
  set: readonly string[];
}

/**
 * The cost pane's choices, as the CLI's `--model`, `--price`, `--schedule`,
 * `--scale-to-recorded`, `--policy` and `--set` say them (and as share links
 * carry them).
 */
export interface ReplayChoice {
  /** A model of the table, or null for the default (ignored when `price` is set). */
  model: string | null;
  /** Custom prices (`input=…,output=…,…`), or null. */
  price: string | null;
  schedule: ScheduleId;
  scaleToRecorded?: boolean;
  /**
   * The policy the figures are under. Absent or null: not chosen, so the
   * CLI replays JP's schedule and the page the runtime that wrote the file
   * (`getFilePolicy`); a choice made, `jp` included, wins over that.
   */
  policy?: PolicySelection | null;
}

/** The CLI's defaults: the default model, `stored`, no scaling, no policy chosen. */
export const DEFAULT_REPLAY_CHOICE: Readonly<Required<ReplayChoice>> = {
  model: null,
  price: null,
  schedule: 'stored',
  scaleToRecorded: false,
  policy: null,
};
