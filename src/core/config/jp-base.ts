/**
 * The reading `base` (spec 15.0): which JP the playground reads, writes and
 * projects like. `2026-09` is JP main with PRs #994, #945 and #932 (the
 * default, because users run current JP); `2026-08` is the pinned commit
 * `4c1c39f1`, sections 1 to 14 as written. The readings module lists it
 * with the D17 readings; it lives here because the config and stream
 * readers need it and sit below the compaction folder.
 */

/** The two versions of JP the playground implements. */
export type JpBase = '2026-09' | '2026-08';

/** The default reading: JP main. */
export const DEFAULT_BASE: JpBase = '2026-09';

/** Which JP a base is, as exports and the About panel name it. */
export function getJpVersionName(base: JpBase): string {
  return base === '2026-09' ? 'JP main' : 'JP 4c1c39f1';
}
