/** A row of tools/bench/scaling.ts: the sizes, and the wall and CPU milliseconds at each. */
export interface ScalingRow {
  name: string;
  sizes: number[];
  ms: number[];
  cpuMs: number[];
}

/**
 * How the per-item CPU time grows from each size to the next: ×1.0 is
 * linear; ×10 over a tenfold size step would be quadratic.
 */
export function perItemGrowth(row: ScalingRow): number[] {
  const per = row.cpuMs.map((ms, i) => ms / (row.sizes[i] ?? 1));
  return per.slice(1).map((value, i) => value / (per[i] ?? 1));
}
