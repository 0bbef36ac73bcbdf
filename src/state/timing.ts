/**
 * The two timing rules every action module needs, written once: a debounce
 * (the last call in a quiet time runs) and latest wins (only the newest of
 * overlapping jobs may write its answer). The run, the share link and
 * autosave, and the workspace each hold their own instances.
 */

/** A call that waits for a quiet time; a new schedule replaces the pending one. */
export interface Debounce {
  /** Runs the call after `delayMs`, unless scheduled again or cancelled first. */
  schedule(delayMs: number): void;
  /** Drops the pending call, if any. */
  cancel(): void;
  /** True while a call waits. */
  readonly pending: boolean;
}

/** A debounced `run`. */
export function createDebounce(run: () => void): Debounce {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    schedule(delayMs) {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        run();
      }, delayMs);
    },
    cancel,
    get pending() {
      return timer !== null;
    },
  };
}

/** Numbers jobs so that only the newest may write: an older job's answer is for an older input. */
export interface LatestWins {
  /** Starts a job; its number is its version. */
  start(): number;
  /** True while `job` is the newest one started and nothing superseded it. */
  isCurrent(job: number): boolean;
  /** Makes every job started so far stale. */
  supersede(): void;
  /** The number of the newest job, to tell a job's answer apart without starting one. */
  readonly latest: number;
}

/** A new latest-wins counter. */
export function createLatestWins(): LatestWins {
  let sequence = 0;
  return {
    start: () => ++sequence,
    isCurrent: (job) => job === sequence,
    supersede: () => {
      sequence++;
    },
    get latest() {
      return sequence;
    },
  };
}
