/**
 * docs/replay.md prints the models and the runtimes' defaults as the data
 * holds them: a row changed in the data and not in the page fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPriceTable, renderRuntimeTable } from './replay-tables.ts';

/** A table as rows of trimmed cells: the page's formatter pads the cells, the data does not. */
function cells(table: string): string[] {
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim())
        .join('|'),
    );
}

const page = cells(
  readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'replay.md'), 'utf8'),
).join('\n');

describe('docs/replay.md', () => {
  it('holds the price table as the data has it', () => {
    expect(page).toContain(cells(renderPriceTable()).join('\n'));
  });
  it("holds each runtime's defaults as the data has them", () => {
    expect(page).toContain(cells(renderRuntimeTable()).join('\n'));
  });
});
