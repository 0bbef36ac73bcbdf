/**
 * The answer first, in money (issue 41): the session's cost and the cheapest
 * alternative the replay found sit at the top of the results, above the
 * fold at 1440×900 and one scroll down at 390×844, and equal `replay
 * --json` run by node on the same file (the expected side is the CLI's
 * JSON, never the page's DOM). The saving is said against the session as
 * it ran (`stored`), and the button beside it brings the cost pane.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { expect, openPlayground, README_CONFIG_TOML, test, waitForResults } from './helpers.ts';
import { type CliReplay, cliReplay, dollars, openStream } from './replay-helpers.ts';

const CLAUDE_CODE = join(SHARED_DIR, 'corpus/agent-transcripts/claude-code/toolpath__convo.jsonl');
const JP_CONVERSATION = join(
  SHARED_DIR,
  'corpus/jp-conversations/17727523543-vitepress-syntax-highlighting-for-wit-and-abnf/events.json',
);

type MoneyJson = CliReplay & {
  recorded: (CliReplay['recorded'] & { cost: number; requests: number }) | null;
  policy: { name: string };
};

/** The cheapest of the CLI's figures besides `stored`, worked out here from its JSON. */
function cheapestOf(json: MoneyJson): { cost: number; saved: number } | null {
  const asRan = json.schedules.stored as number;
  const costs = Object.entries(json.schedules)
    .filter(([name]) => name !== 'stored')
    .map(([, cost]) => cost);
  if (json.policy.name !== 'jp') costs.push(json.totals.schedule.cost);
  const best = Math.min(...costs);
  return best < asRan ? { cost: best, saved: asRan - best } : null;
}

async function isInViewport(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

test('a Claude Code session: its recorded cost and the cheapest alternative above the fold at 1440×900', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The page opens a Claude Code file on its own runtime's policy: the CLI is asked the same.
  const expected = cliReplay('', CLAUDE_CODE, 'stored', ['--policy', 'claude-code']) as MoneyJson;
  expect(expected.recorded?.requests).toBe(expected.requests.length);
  await openPlayground(page);
  await page.getByLabel('Open events.json').setInputFiles(CLAUDE_CODE);
  await waitForResults(page, 60_000);
  const cost = page.getByTestId('session-cost');
  await expect(cost).toHaveText(
    `This session cost ${dollars(expected.recorded?.cost ?? Number.NaN)}: its recorded usage at claude-opus-4.7's prices, ${expected.requests.length} requests.`,
  );
  const cheapest = cheapestOf(expected);
  const said = page.getByTestId('cheapest-alternative');
  if (cheapest === null) {
    await expect(said).toHaveText(
      `Nothing the replay tried is cheaper than the session as it ran (${dollars(expected.schedules.stored as number)} modelled).`,
    );
  } else {
    await expect(said).toContainText(
      `at ${dollars(cheapest.cost)}, saving ${dollars(cheapest.saved)}`,
    );
  }
  expect(await isInViewport(page, 'money-line')).toBe(true);
  await page.getByRole('button', { name: 'Cost, request by request' }).click();
  await expect(page.locator('#pane-cost-title')).toBeFocused();
});

test('a JP conversation on a phone: its modelled cost and the cheapest schedule one scroll down, against the session as it ran', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const expected = cliReplay(README_CONFIG_TOML, JP_CONVERSATION, 'stored') as MoneyJson;
  const cheapest = cheapestOf(expected);
  // Worked out from the CLI's schedules: something is cheaper here, or the test says nothing.
  expect(cheapest).not.toBeNull();
  await openStream(page, readFileSync(JP_CONVERSATION, 'utf8'), README_CONFIG_TOML);
  await expect(page.getByTestId('session-cost')).toHaveText(
    new RegExp(
      `^This session cost about ${dollars(expected.schedules.stored as number).replace('$', '\\$')}: (calibrated|modelled) as it ran \\(stored\\) at claude-sonnet-4\\.6's prices, ${expected.requests.length} requests\\.$`,
    ),
  );
  await expect(page.getByTestId('cheapest-alternative')).toContainText(
    `at ${dollars(cheapest?.cost ?? Number.NaN)}, saving ${dollars(cheapest?.saved ?? Number.NaN)}`,
  );
  await expect(page.getByTestId('cheapest-alternative')).toContainText(
    'against the session as it ran',
  );
  // One interaction: a scroll of one screen from the top brings it into view.
  await page.evaluate(() => window.scrollTo(0, 0));
  if (!(await isInViewport(page, 'money-line'))) {
    await page
      .getByTestId('money-line')
      .evaluate(() => window.scrollBy(0, window.innerHeight * 0.9));
  }
  expect(await isInViewport(page, 'money-line')).toBe(true);
});
