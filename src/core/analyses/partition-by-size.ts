/**
 * How the workspace splits its conversations over a pool of workers. Apart
 * from the hint tables (which stand on the pipeline), so the page's pool can
 * use it without loading the pipeline.
 */

/**
 * Splits items into `parts` groups of about equal total size, for a pool of
 * workers: largest first, each into the lightest group so far (ties: the
 * lower group, so the split is deterministic). Returns item indices, each
 * group in ascending order; empty groups are kept so group i is worker i's.
 */
export function partitionBySize(sizes: readonly number[], parts: number): number[][] {
  const count = Math.max(1, Math.floor(parts));
  const groups: number[][] = Array.from({ length: count }, () => []);
  const loads: number[] = new Array(count).fill(0);
  const order = sizes
    .map((_, index) => index)
    .sort((a, b) => {
      const difference = (sizes[b] as number) - (sizes[a] as number);
      return difference !== 0 ? difference : a - b;
    });
  for (const index of order) {
    let lightest = 0;
    for (let group = 1; group < count; group++) {
      if ((loads[group] as number) < (loads[lightest] as number)) lightest = group;
    }
    (groups[lightest] as number[]).push(index);
    loads[lightest] = (loads[lightest] as number) + (sizes[index] as number);
  }
  return groups.map((group) => group.sort((a, b) => a - b));
}
