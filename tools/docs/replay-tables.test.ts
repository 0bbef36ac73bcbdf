/**
 * docs/replay.md prints the models and the runtimes' defaults as the data
 * holds them: a row changed in the data and not in the page fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPriceTable, renderRuntimeTable } from './replay-tables.ts';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'replay.md'), 'utf8');

describe('docs/replay.md', () => {
  it('holds the price table as the data has it', () => {
    expect(page).toContain(renderPriceTable());
  });
  it("holds each runtime's defaults as the data has them", () => {
    expect(page).toContain(renderRuntimeTable());
  });
});
