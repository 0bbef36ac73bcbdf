/**
 * When to compact (issue 41): the cost pane's "When to compact" section
 * equals `replay --sweep trigger --json` run by node on the same
 * conversation and config (the expected side is the CLI's JSON): the curve's
 * table, point by point, and the answer with the cheapest trigger.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { expect, README_CONFIG_TOML, test } from './helpers.ts';
import {
  cliReplay,
  costPane,
  count,
  dollars,
  openCostSection,
  openStream,
  writeTemporary,
} from './replay-helpers.ts';

const CONVERSATION = join(
  SHARED_DIR,
  'corpus/jp-conversations/17738399468-rfd-review-and-phase-1-planning/events.json',
);

interface SweepJson {
  points: { trigger_ratio: number; trigger_tokens: number; cost: number; compactions: number }[];
  cheapest: { trigger_ratio: number; trigger_tokens: number; cost: number; saved: number } | null;
}

test("the cost pane's sweep of auto's trigger equals replay --sweep trigger --json", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const text = readFileSync(CONVERSATION, 'utf8');
  const expected = cliReplay(README_CONFIG_TOML, writeTemporary('events.json', text), 'stored', [
    '--sweep',
    'trigger',
  ]) as unknown as SweepJson;
  // Not vacuous: on this conversation a trigger is cheaper than the session as it ran.
  expect(expected.cheapest).not.toBeNull();
  await openStream(page, text, README_CONFIG_TOML, 120_000);
  await openCostSection(page, 'When to compact', 120_000);
  const rows = await costPane(page)
    .locator('.cost-sweep-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => ({
        tokens: tr.querySelector('th')?.firstChild?.textContent ?? '',
        cost: tr.querySelector('[data-figure="cost"]')?.textContent ?? '',
        ratio: tr.querySelector('[data-figure="trigger_ratio"]')?.textContent ?? '',
        compactions: tr.querySelector('[data-figure="compactions"]')?.textContent ?? '',
        cheapest: tr.getAttribute('data-cheapest') === 'true',
      })),
    );
  expect(rows).toEqual(
    expected.points.map((point) => ({
      tokens: point.trigger_tokens.toLocaleString('en-US'),
      cost: dollars(point.cost),
      ratio: String(point.trigger_ratio),
      compactions: String(point.compactions),
      cheapest: point.trigger_ratio === expected.cheapest?.trigger_ratio,
    })),
  );
  expect(count(rows[0]?.tokens ?? '')).toBe(10_000);
  const cheapest = expected.cheapest;
  await expect(costPane(page).getByTestId('sweep-answer')).toContainText(
    `Compact once the prompt passes ${cheapest?.trigger_tokens.toLocaleString('en-US')} tokens (trigger_ratio = ${cheapest?.trigger_ratio}): ${dollars(cheapest?.cost ?? Number.NaN)}, saving ${dollars(cheapest?.saved ?? Number.NaN)}`,
  );
  // The curve's readout by key: the last trigger's cost.
  const slider = costPane(page).getByRole('slider', { name: 'Trigger on the chart' });
  await slider.focus();
  await page.keyboard.press('End');
  const last = expected.points.at(-1);
  await expect(costPane(page).locator('.cost-sweep [data-testid="cost-readout"]')).toContainText(
    `auto at the trigger ${dollars(last?.cost ?? Number.NaN)}`,
  );
});
