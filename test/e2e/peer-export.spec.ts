/**
 * Export → another agent's config: the dialog opens from the keyboard, shows
 * the snippet and which hints the framework cannot say, and its savings are
 * the CLI's `export --json` figures for the same config and conversation.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, openPlayground, test } from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The default example's saving with the playground's hints and with Anthropic's, from the CLI. */
function cliSaving(): { playground: number; peer: number } {
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'export',
      '--target',
      'anthropic',
      '--config',
      'src/examples/coding-session.toml',
      '--json',
      'src/examples/coding-session.json',
    ],
    { cwd: REPO, encoding: 'utf8' },
  );
  const { saving } = JSON.parse(output) as {
    saving: { playground: { total: { tokens: number } }; peer: { total: { tokens: number } } };
  };
  return { playground: saving.playground.total.tokens, peer: saving.peer.total.tokens };
}

const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

test('the hints as Anthropic context editing: snippet, flags and saving', async ({ page }) => {
  await openPlayground(page);
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await exportButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Anthropic context editing' }).focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Hints for Anthropic context editing' });
  await expect(dialog.locator('[data-status]')).toHaveAttribute('data-status', 'done');

  const snippet = JSON.parse(await dialog.getByTestId('peer-snippet').inputValue());
  expect(snippet.context_management.edits[0]).toEqual({
    type: 'clear_tool_uses_20250919',
    exclude_tools: ['fs_modify_file'],
    clear_tool_inputs: ['build_watch', 'run_tests'],
  });

  const tools = dialog.getByTestId('peer-tools');
  await expect(tools.locator('tr', { hasText: 'fs_modify_file' })).toContainText(
    'not expressible in Anthropic context editing: nearest is keep',
  );
  await expect(tools.locator('tr', { hasText: 'build_watch' })).toContainText(
    'not expressible in Anthropic context editing: nearest is strip',
  );
  await expect(tools.locator('tr', { hasText: 'fs_read_file' })).toContainText('exported as');

  const expected = cliSaving();
  const saving = dialog.getByTestId('peer-saving');
  await expect(saving.getByRole('row', { name: /The playground's hints/ })).toContainText(
    count(expected.playground),
  );
  await expect(saving.getByRole('row', { name: /nearest hints/ })).toContainText(
    count(expected.peer),
  );

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Keyboard users land back where they opened it from.
  await expect(exportButton).toBeFocused();
});
