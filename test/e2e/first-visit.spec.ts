/**
 * What a first-time user meets, as they see it: a zero saving says why (in
 * Problems and in the headline), Compact confirms what it appended and does
 * not stack an identical compaction, and the page fits a phone's width.
 */
import {
  expect,
  openPlayground,
  results,
  setEditorText,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

/** A conversation of one turn: obviously fake, and too short for any rule. */
const ONE_TURN = JSON.stringify([
  { timestamp: '2025-07-01 09:00:00.0', type: 'turn_start' },
  { timestamp: '2025-07-01 09:00:01.0', type: 'chat_request', content: 'Say hello.' },
  { timestamp: '2025-07-01 09:00:02.0', type: 'chat_response', message: 'Hello.' },
]);

test('a zero saving says why, in Problems and in the headline', async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Event stream (JSON)', ONE_TURN);
  await waitForResults(page);

  // Spec 6: keep_first 1 and keep_last 1 leave nothing of a single turn.
  const reason = /Rule 1 compacts nothing on this stream/;
  await expect(statusLine(page)).toContainText('Saved 0 tokens');
  await expect(statusLine(page)).toContainText(reason);

  const problems = page.getByRole('region', { name: /Problems/ });
  const item = problems.getByRole('listitem').filter({ hasText: reason });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('warning');
  await expect(problems.getByRole('heading')).not.toContainText('0');
});

test('Compact says what it appended, and a second click stacks nothing identical', async ({
  page,
}) => {
  await openPlayground(page);
  const compact = page.getByRole('button', { name: 'Compact', exact: true });
  await expect(compact).toBeEnabled();
  await compact.click();

  // The default example's rule covers turns 2..4 of five; the stream held none.
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText(/^Appended/),
  ).toHaveText('Appended 1 compaction over turns 2..4; the stream now holds 1 stored compaction.');
  await waitForResults(page);
  // The same rule over the same turns would add an identical compaction.
  await expect(compact).toBeDisabled();
  await expect(compact).toHaveAttribute('title', /Nothing new to compact/);
  await expect(results(page)).toBeVisible();
});
