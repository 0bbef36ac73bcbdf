/**
 * The replay's schedules and the choices a person makes for it (model or
 * custom prices, schedule, scaling), apart from the replay itself: the page
 * and share links need these few names without the replay's machinery.
 */

/** When compactions are in force (issue 21's table). */
export type ScheduleId = 'none' | 'stored' | 'every-turn' | 'auto' | 'idle';

/** Every schedule, baseline first. */
export const SCHEDULES: readonly ScheduleId[] = ['none', 'stored', 'every-turn', 'auto', 'idle'];

/** Whether a value names a schedule. */
export function isScheduleId(value: unknown): value is ScheduleId {
  return typeof value === 'string' && (SCHEDULES as readonly string[]).includes(value);
}

/**
 * The cost pane's choices, as the CLI's `--model`, `--price`, `--schedule`
 * and `--scale-to-recorded` say them (and as share links carry them).
 */
export interface ReplayChoice {
  /** A model of the table, or null for the default (ignored when `price` is set). */
  model: string | null;
  /** Custom prices (`input=…,output=…,…`), or null. */
  price: string | null;
  schedule: ScheduleId;
  scaleToRecorded?: boolean;
}

/** The CLI's defaults: the default model, `stored`, no scaling. */
export const DEFAULT_REPLAY_CHOICE: Readonly<Required<ReplayChoice>> = {
  model: null,
  price: null,
  schedule: 'stored',
  scaleToRecorded: false,
};
