import { afterEach, describe, expect, it } from 'vitest';
import { scrollWithinList } from './virtual-rows.tsx';

/** A list 200 px high at y = 100 on the page, holding a 30 px header and rows of 20 px. */
function listWithRows(
  scrollTop: number,
  header: boolean,
): { list: HTMLElement; row: (i: number) => HTMLElement } {
  const list = document.createElement('div');
  document.body.append(list);
  Object.defineProperty(list, 'clientHeight', { value: 200 });
  Object.defineProperty(list, 'clientTop', { value: 0 });
  list.scrollTop = scrollTop;
  list.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 100, width: 300, height: 200 });
  if (header) {
    const table = document.createElement('table');
    const head = table.createTHead();
    head.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 100, width: 300, height: 30 });
    list.append(table);
  }
  const rows: HTMLElement[] = [];
  for (let i = 0; i < 50; i++) {
    const row = document.createElement('div');
    // Where row i is drawn with the list scrolled as it is now (the header's 30 px above the rows).
    row.getBoundingClientRect = () =>
      DOMRect.fromRect({ x: 0, y: 100 + 30 + i * 20 - list.scrollTop, width: 300, height: 20 });
    list.append(row);
    rows.push(row);
  }
  return { list, row: (i) => rows[i] as HTMLElement };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('scrollWithinList: the active row in view, by scrolling the list only', () => {
  it('scrolls down the least that shows a row below the view, and leaves the page where it was', () => {
    const { list, row } = listWithRows(0, true);
    const pageBefore = window.scrollY;
    // Row 12 spans 370–390 in the list's content; the view shows 0–200 of it (row tops from 30).
    scrollWithinList(list, row(12));
    // Its bottom (130 + 240 + 20 = 390 on the page at scrollTop 0) meets the list's bottom (300).
    expect(list.scrollTop).toBe(90);
    expect(window.scrollY).toBe(pageBefore);
  });

  it('scrolls up to a row above the view so that the sticky header does not cover it', () => {
    const { list, row } = listWithRows(400, true);
    // Row 5 is drawn at 130 + 100 − 400 = −170 on the page: its top goes just under the header.
    scrollWithinList(list, row(5));
    expect(list.scrollTop).toBe(100);
  });

  it('does not scroll for a row already wholly in view', () => {
    const { list, row } = listWithRows(40, false);
    scrollWithinList(list, row(3));
    expect(list.scrollTop).toBe(40);
  });
});
