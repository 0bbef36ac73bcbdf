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
 * Where the invisible prefix and the token factor come from (issue 40):
 * `recorded`, fitted on the usage the transcript recorded; `runtime`, the
 * runtime's defaults (and what the transcript holds that the import leaves
 * out of the conversation, such as a config's system prompt); `user`, the
 * user's figure; `none`, the file alone (no prefix, factor 1, no hidden
 * output: the model before issue 40).
 */
export type CalibrationSource = 'recorded' | 'runtime' | 'user' | 'none';

/** The calibration asked for: `auto` takes the best source the file has. */
export type CalibrationChoice = 'auto' | CalibrationSource;

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
 * `--calibration`, `--prefix`, `--policy` and `--set` say them (and as share
 * links carry them).
 */
export interface ReplayChoice {
  /** A model of the table, or null for the one the transcript recorded (else the table's default). */
  model: string | null;
  /** Custom prices (`input=…,output=…,…`) over the model, or null. */
  price: string | null;
  schedule: ScheduleId;
  /** Where the invisible prefix and the token factor come from; absent: `auto`. */
  calibration?: CalibrationChoice;
  /** The user's invisible prefix in tokens (`--prefix`); absent or null: none given. */
  prefixTokens?: number | null;
  /**
   * The policy the figures are under. Absent or null: not chosen, so the
   * CLI replays JP's schedule and the page the runtime that wrote the file
   * (`getFilePolicy`); a choice made, `jp` included, wins over that.
   */
  policy?: PolicySelection | null;
}

/** The CLI's defaults: the recorded model, `stored`, the best calibration the file has, no policy chosen. */
export const DEFAULT_REPLAY_CHOICE: Readonly<Required<ReplayChoice>> = {
  model: null,
  price: null,
  schedule: 'stored',
  calibration: 'auto',
  prefixTokens: null,
  policy: null,
};
