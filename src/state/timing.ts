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

/**
 * A debounced `run`. A delay of 0 runs it once the current task's code is
 * done (a microtask): the setters of one event still merge, and the call
 * does not wait behind the tasks already queued (an editor's frame, a
 * render), which a zero-delay timer does.
 */
export function createDebounce(run: () => void): Debounce {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The microtask waiting for a zero delay, told apart from a cancelled or replaced one. */
  let soon: object | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    soon = null;
  };
  return {
    schedule(delayMs) {
      cancel();
      if (delayMs <= 0) {
        const token = {};
        soon = token;
        queueMicrotask(() => {
          if (soon !== token) return;
          soon = null;
          run();
        });
        return;
      }
      timer = setTimeout(() => {
        timer = null;
        run();
      }, delayMs);
    },
    cancel,
    get pending() {
      return timer !== null || soon !== null;
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
