/**
 * The cheapest of a set of priced choices, and what it saves against the
 * session as it ran: one rule for the money line, the cost pane's tables,
 * the sweep, the per-tool what-if and a folder's total.
 */

/** The item that costs least; the first on a tie (callers order by preference); undefined for none. */
export function findCheapest<T>(items: Iterable<T>, costOf: (item: T) => number): T | undefined {
  let best: T | undefined;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const item of items) {
    const cost = costOf(item);
    if (best === undefined || cost < bestCost) {
      best = item;
      bestCost = cost;
    }
  }
  return best;
}

/** What costing `cost` saves against `against`, in dollars and percent of it; null when it saves nothing. */
export function getSaving(
  against: number,
  cost: number,
): { saved: number; percent: number } | null {
  if (!(cost < against)) return null;
  const saved = against - cost;
  return { saved, percent: against === 0 ? 0 : (saved / against) * 100 };
}
