/**
 * Long tables and lists draw only the rows in view. A stream with 50,000 distinct tools
 * has 50,000 savings rows and as many what-if rows: drawn in full, the page
 * stays busy for minutes. Below `VIRTUAL_FROM` rows a table is drawn whole
 * (every row in the DOM, as a screen reader's table navigation and a page
 * search expect); from there on, rows are drawn while in view of the table's
 * own scroll box, with a spacer row above and below standing for the rest.
 *
 * The table keeps its semantics when virtual: the caller puts
 * `aria-rowcount` on the table (`getRowCount`) and `aria-rowindex` on every
 * row (`getRowIndex`), so assistive technology says "row 4,812 of 50,001"
 * although only a screenful exists; the spacers are `aria-hidden`.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';

/** From this many rows on, a table draws only the rows in view. */
export const VIRTUAL_FROM = 200;

/** Rows drawn beyond each edge of the view, so a quick scroll rarely shows a blank. */
const OVERSCAN = 12;

/** One body row to draw: its index in the full list (put it on the row as `data-row-index`). */
export interface VisibleRow {
  index: number;
  /** Put on the row's element (`ref`): a virtual table measures each drawn row's height. */
  measure: ((node: Element | null) => void) | undefined;
}

/** What a table (or a list) needs to draw its body. */
export interface VirtualRows {
  /** True when only the rows in view are drawn. */
  virtual: boolean;
  /** The rows to draw, in order. */
  rows: VisibleRow[];
  /** The heights, in pixels, of the rows not drawn above and below (0 when whole). */
  spaceBefore: number;
  spaceAfter: number;
  /** A table's spacer rows for them (nothing when the table is whole). */
  before: ReactNode;
  after: ReactNode;
  /** Scrolls a row into view (drawing it if needed). */
  scrollToRow: (index: number) => void;
  /** Focuses the element `selector` finds in a row once that row is drawn (after `scrollToRow`). */
  focusRowWhenDrawn: (index: number, selector?: string) => void;
}

/** The attributes of a table's scroll box with class `className`: a virtual one gets its height. */
export function getScrollBoxProps(
  className: string,
  virtual: boolean,
): { className: string; 'data-virtual': 'true' | undefined } {
  return virtual
    ? { className: `${className} cp-virtual-scroll`, 'data-virtual': 'true' }
    : { className, 'data-virtual': undefined };
}

/** The `aria-rowindex` of body row `index` under `headerRows` header rows (1-based). */
export function getRowIndex(index: number, headerRows = 1): number {
  return index + headerRows + 1;
}

/** The `aria-rowcount` of a table with `count` body rows under `headerRows` header rows. */
export function getRowCount(count: number, headerRows = 1): number {
  return count + headerRows;
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds no focusable element; it only stands for rows not drawn.
    <tr aria-hidden="true" className="cp-virtual-spacer">
      <td colSpan={columns} style={{ height, padding: 0, border: 'none' }} />
    </tr>
  );
}

/**
 * Scrolls `list` (only: never the page or a column around it, as
 * `scrollIntoView` would) the least that brings `row` wholly into view.
 */
export function scrollWithinList(list: HTMLElement, row: HTMLElement): void {
  const box = list.getBoundingClientRect();
  const own = row.getBoundingClientRect();
  // The list's sticky header (a table's thead) covers its top: rows scroll in below it.
  const covered = list.querySelector('thead')?.getBoundingClientRect().height ?? 0;
  const above = own.top - (box.top + list.clientTop + covered);
  const below = own.bottom - (box.top + list.clientTop + list.clientHeight);
  if (above < 0) list.scrollTop += above;
  else if (below > 0) list.scrollTop += Math.min(below, above);
}

/**
 * The body rows of a table with `count` rows, `columns` columns wide, whose
 * scroll box is `scrollRef` (spread `getScrollBoxProps` on that box, so a
 * virtual table has a height to scroll in).
 */
export function useVirtualRows({
  count,
  columns,
  scrollRef,
  estimateHeight,
}: {
  count: number;
  columns: number;
  scrollRef: RefObject<HTMLElement | null>;
  /** A row's height in pixels before it is measured. */
  estimateHeight: number;
}): VirtualRows {
  const virtual = count >= VIRTUAL_FROM;
  const virtualizer = useVirtualizer({
    count: virtual ? count : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateHeight,
    overscan: OVERSCAN,
    enabled: virtual,
    indexAttribute: 'data-row-index',
    // React 19 warns about flushSync inside a render; a frame's delay in
    // drawing rows that scroll into view is not visible.
    useFlushSync: false,
  });
  const pendingFocus = useRef<{ index: number; selector: string | undefined } | null>(null);

  // A row asked to take focus takes it once it is drawn (the render after a scroll).
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending || !scrollRef.current) return;
    const row = scrollRef.current.querySelector(`[data-row-index="${pending.index}"]`);
    const target = pending.selector ? row?.querySelector(pending.selector) : row;
    if (target instanceof HTMLElement) {
      pendingFocus.current = null;
      target.focus({ preventScroll: !virtual });
    }
  });

  if (!virtual) {
    return {
      virtual,
      rows: Array.from({ length: count }, (_, index) => ({ index, measure: undefined })),
      spaceBefore: 0,
      spaceAfter: 0,
      before: null,
      after: null,
      scrollToRow: (index) => {
        const list = scrollRef.current;
        const row = list?.querySelector(`[data-row-index="${index}"]`);
        if (list && row instanceof HTMLElement) scrollWithinList(list, row);
      },
      focusRowWhenDrawn: (index, selector) => {
        const row = scrollRef.current?.querySelector(`[data-row-index="${index}"]`);
        const target = selector ? row?.querySelector(selector) : row;
        if (target instanceof HTMLElement) target.focus();
      },
    };
  }
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return {
    virtual,
    rows: items.map((item) => ({ index: item.index, measure: virtualizer.measureElement })),
    spaceBefore: top,
    spaceAfter: bottom,
    before: <Spacer height={top} columns={columns} />,
    after: <Spacer height={bottom} columns={columns} />,
    scrollToRow: (index) => virtualizer.scrollToIndex(index, { align: 'auto' }),
    focusRowWhenDrawn: (index, selector) => {
      pendingFocus.current = { index, selector };
      virtualizer.scrollToIndex(index, { align: 'auto' });
      // Already drawn: focus now (the layout effect runs only on a render).
      const row = scrollRef.current?.querySelector(`[data-row-index="${index}"]`);
      const target = selector ? row?.querySelector(selector) : row;
      if (target instanceof HTMLElement) {
        pendingFocus.current = null;
        target.focus({ preventScroll: true });
      }
    },
  };
}
