/**
 * How a person looks at the cost figures (cost or prompt tokens, the second
 * line of the chart, the page of the request table), kept above the
 * figures' frame: the frame is built afresh for each new replay
 * (`remountWhenCurrent`), and a choice made there must outlive it.
 */
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

/** What the chart and the request table show. */
export type CostMeasure = 'cost' | 'tokens';

interface CostView {
  measure: CostMeasure;
  setMeasure: (measure: CostMeasure) => void;
  /** The chart draws each line's running total (what the session had cost by request k). */
  cumulative: boolean;
  setCumulative: (cumulative: boolean) => void;
  /** The chart's second line by label; null for the default. */
  pickedB: string | null;
  setPickedB: (label: string | null) => void;
  page: number;
  setPage: (page: number) => void;
}

const CostViewContext = createContext<CostView | null>(null);

function useCostViewState(): CostView {
  const [measure, setMeasure] = useState<CostMeasure>('cost');
  const [cumulative, setCumulative] = useState(false);
  const [pickedB, setPickedB] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  return useMemo(
    () => ({ measure, setMeasure, cumulative, setCumulative, pickedB, setPickedB, page, setPage }),
    [measure, cumulative, pickedB, page],
  );
}

/** Keeps the view state for the figures below it. */
export function CostViewProvider({ children }: { children: ReactNode }) {
  const view = useCostViewState();
  return <CostViewContext.Provider value={view}>{children}</CostViewContext.Provider>;
}

/** The view state of the provider above, or the component's own where there is none (a test). */
export function useCostView(): CostView {
  const own = useCostViewState();
  return useContext(CostViewContext) ?? own;
}
