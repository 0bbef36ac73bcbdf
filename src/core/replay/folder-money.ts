/**
 * A folder in money (issue 41, "the workspace in money"): what each
 * conversation cost, per day and in total, and what the cheapest one of
 * JP's schedules would have saved over the whole folder. The page's
 * workspace and `replay --by-conversation` both call these functions, so
 * they print the same figures: the per-conversation rows are computed where
 * each conversation is replayed (a pool worker, or the CLI's loop), and
 * `sumFolderMoney` adds them up.
 *
 * What a conversation cost and its cheapest alternative are the money
 * line's rules (`getSessionCost`, `getCheapestAlternative` in
 * presentation.ts); this module only gathers them and sums.
 *
 * Boundary: pure TypeScript, no DOM.
 */
import { formatCount, formatDollars, formatPercent } from '../counting/format.ts';
import {
  type CheapestAlternative,
  type FigureBasis,
  getCheapestAlternative,
  getSessionCost,
  SAVING_BASIS,
} from './presentation.ts';
import { SCHEDULES, type ScheduleId } from './schedules.ts';
import type { Replay } from './types.ts';

/** One conversation of the folder in money (`replay --by-conversation --json`'s `conversations`). */
export interface ConversationMoney {
  name: string;
  /** The UTC date (YYYY-MM-DD) of its first request; null when unknown or the import invented the times. */
  day: string | null;
  requests: number;
  /** What it cost: its recorded bill where the file recorded every request, else `stored` modelled. */
  cost: number;
  /** What `cost` stands on: the bill, or the model fitted to it (`calibrated`), or defaults alone. */
  basis: 'recorded' | FigureBasis;
  /** Requests whose usage the file recorded (0 without any). */
  recorded_requests: number;
  /** Each of JP's schedules the replay computed, modelled; `stored` is the session as it ran. */
  schedules: Partial<Record<ScheduleId, number>>;
  /** The cheapest alternative to the session as it ran, or null when nothing is cheaper. */
  cheapest: CheapestAlternative | null;
}

/** The conversations whose first request fell on one day. */
export interface DayMoney {
  /** YYYY-MM-DD (UTC), or null for the conversations with no known time. */
  day: string | null;
  conversations: number;
  cost: number;
}

/** The one schedule that is cheapest over the whole folder, against the folder as it ran. */
export interface FolderCheapest {
  schedule: ScheduleId;
  /** The schedule's cost summed over the conversations. */
  cost: number;
  /** `stored` summed minus `cost`. */
  saved: number;
  /** Percent of `stored` summed; 0 when that is 0. */
  percent: number;
  /** What the saving is measured against, in the words every surface uses. */
  against: typeof SAVING_BASIS.stored;
}

/** The folder's totals. */
export interface FolderTotal {
  /** Every conversation's `cost` (recorded or modelled) added up. */
  cost: number;
  conversations: number;
  /** Conversations whose cost is their recorded bill. */
  recorded: number;
  /** Conversations whose cost is modelled (`calibrated` or `modelled`). */
  modelled: number;
  /** `stored` added up: the folder as it ran, modelled (what `cheapest` is against). */
  stored: number;
  /** Each of JP's schedules that every conversation computed, added up. */
  schedules: Partial<Record<ScheduleId, number>>;
  /** The cheapest of those besides `stored`, when it costs less than `stored`; else null. */
  cheapest: FolderCheapest | null;
}

/** `replay --by-conversation --json`'s shape (docs/replay.md), and the workspace's cost section. */
export interface FolderMoney {
  conversations: ConversationMoney[];
  /** By day, oldest first; the conversations with no known day last. */
  days: DayMoney[];
  total: FolderTotal;
}

/** A canonical timestamp's date (`YYYY-MM-DD HH:MM:SS.f`, UTC); signed years have none. */
const CANONICAL_DAY = /^(\d{4}-\d{2}-\d{2}) /;

/**
 * The day a conversation is counted under: the UTC date of its first
 * request. Invented times (`hasInventedTimes`) say nothing of when it ran,
 * so they give no day, as a time that does not read gives none.
 */
export function getConversationDay(replay: Replay, untimed: boolean): string | null {
  if (untimed) return null;
  const time = replay.requests[0]?.time;
  if (time === null || time === undefined) return null;
  return CANONICAL_DAY.exec(time)?.[1] ?? null;
}

/** One conversation's row, from its replay. */
export function getConversationMoney(
  name: string,
  replay: Replay,
  untimed: boolean,
): ConversationMoney {
  const session = getSessionCost(replay);
  return {
    name,
    day: getConversationDay(replay, untimed),
    requests: session.requests,
    cost: session.cost,
    basis: session.basis,
    recorded_requests: session.recordedRequests,
    schedules: { ...replay.schedules },
    cheapest: getCheapestAlternative(replay),
  };
}

/** Days sort oldest first (the ISO form sorts as text); the unknown day last. */
function compareDays(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * The folder's rows, days and totals. The cheapest is one schedule for the
 * whole folder (what a person would set once for every session), not each
 * conversation's own cheapest added up: only schedules every conversation
 * computed are summed, so no total leaves a conversation out.
 */
export function sumFolderMoney(rows: readonly ConversationMoney[]): FolderMoney {
  // Keyed by a day from the data; null is the unknown day.
  const days = new Map<string | null, DayMoney>();
  let cost = 0;
  let recorded = 0;
  for (const row of rows) {
    cost += row.cost;
    if (row.basis === 'recorded') recorded += 1;
    const day = days.get(row.day) ?? { day: row.day, conversations: 0, cost: 0 };
    day.conversations += 1;
    day.cost += row.cost;
    days.set(row.day, day);
  }
  const schedules: Partial<Record<ScheduleId, number>> = {};
  for (const schedule of SCHEDULES) {
    if (rows.length === 0 || rows.some((row) => row.schedules[schedule] === undefined)) continue;
    schedules[schedule] = rows.reduce((sum, row) => sum + (row.schedules[schedule] ?? 0), 0);
  }
  const stored = schedules.stored ?? 0;
  return {
    conversations: [...rows],
    days: [...days.values()].sort((a, b) => compareDays(a.day, b.day)),
    total: {
      cost,
      conversations: rows.length,
      recorded,
      modelled: rows.length - recorded,
      stored,
      schedules,
      cheapest: getFolderCheapest(schedules, stored),
    },
  };
}

/** The cheapest summed schedule besides `stored` (the first in schedule order on a tie), if cheaper. */
function getFolderCheapest(
  schedules: Partial<Record<ScheduleId, number>>,
  stored: number,
): FolderCheapest | null {
  let best: { schedule: ScheduleId; cost: number } | null = null;
  for (const schedule of SCHEDULES) {
    const cost = schedules[schedule];
    if (schedule === 'stored' || cost === undefined) continue;
    if (best === null || cost < best.cost) best = { schedule, cost };
  }
  if (best === null || schedules.stored === undefined || best.cost >= stored) return null;
  const saved = stored - best.cost;
  return {
    ...best,
    saved,
    percent: stored === 0 ? 0 : (saved / stored) * 100,
    against: SAVING_BASIS.stored,
  };
}

/** The folder's total and its cheapest schedule, two sentences, as the page and the CLI say them. */
export function describeFolderMoney(money: FolderMoney): { total: string; cheapest: string } {
  const { total } = money;
  const subject =
    total.conversations === 1
      ? 'This conversation'
      : `These ${formatCount(total.conversations)} conversations`;
  const bases =
    total.conversations === 0
      ? 'nothing replayed'
      : total.modelled === 0
        ? 'every one its recorded bill'
        : total.recorded === 0
          ? 'every one modelled'
          : `${formatCount(total.recorded)} recorded, ${formatCount(total.modelled)} modelled`;
  const asRan = formatDollars(total.stored);
  const cheapest = total.cheapest;
  return {
    total: `${subject} cost ${total.modelled === 0 ? '' : 'about '}${formatDollars(total.cost)} (${bases}).`,
    cheapest: cheapest
      ? `Cheapest schedule over the folder: ${cheapest.schedule} at ${formatDollars(cheapest.cost)}, saving ${formatDollars(cheapest.saved)} (${formatPercent(cheapest.percent)}) ${cheapest.against} (${asRan} modelled).`
      : `No schedule is cheaper over the folder than the sessions as they ran (${asRan} modelled).`,
  };
}
