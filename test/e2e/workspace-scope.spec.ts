/**
 * In workspace view the header and the editors still hold the single
 * conversation: what acts on it alone (the stream, its Problems, Encoding,
 * Compact, Reset) says so, and the buttons that would change it are off.
 */
import { expect, openAdvanced, openPlayground, test } from './helpers.ts';
import { openCorpusFolder, waitForWorkspace } from './workspace-helpers.ts';

test('workspace view says what acts on the single conversation only, and turns Encoding, Compact and Reset off', async ({
  page,
}) => {
  // Counting 20 conversations on a shared machine: room, not a speed claim.
  test.setTimeout(180_000);
  await openPlayground(page);
  await openAdvanced(page);
  const encoding = page.getByLabel('Encoding');
  await openAdvanced(page);
  const compact = page.getByRole('button', { name: 'Compact', exact: true });
  await expect(encoding).toBeEnabled();
  await expect(compact).toBeEnabled();

  await openCorpusFolder(page);
  const switchTo = (label: string) =>
    page.locator('.ws-switch').getByRole('button', { name: new RegExp(`^${label}`) });
  await switchTo('Workspace').click();
  await waitForWorkspace(page);
  const note = page.getByRole('note').filter({ hasText: 'Workspace view' });
  await expect(note).toContainText('act on the single conversation only');
  await expect(encoding).toBeDisabled();
  await expect(compact).toBeDisabled();
  await openAdvanced(page);
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeDisabled();
  await expect(
    page.getByText(
      'Compact and Reset act on the single conversation: switch to Conversation to use them.',
    ),
  ).toBeVisible();

  await switchTo('Conversation').click();
  await expect(note).toHaveCount(0);
  await expect(encoding).toBeEnabled();
  await expect(compact).toBeEnabled();
});
