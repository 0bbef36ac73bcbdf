/**
 * The explanations' list of events on a long conversation: only the events
 * in view of the list are drawn, and the keyboard still reaches every one
 * (the active event is drawn and named by `aria-activedescendant`).
 */
import { expect, README_CONFIG_TOML, showPane, test } from './helpers.ts';
import { buildConversation, openStream } from './replay-helpers.ts';

test('a list of 600 events draws the ones in view and reaches every one by keyboard', async ({
  page,
}) => {
  // 3 turns of a request, 99 tool calls (a request and a response each) and a reply.
  await openStream(page, buildConversation(3, 100), README_CONFIG_TOML);
  await showPane(page, 'explain');
  const explain = page.locator('#pane-explain');
  const list = explain.getByRole('listbox', { name: 'Events' });
  const options = list.getByRole('option');
  await expect(options.first()).toContainText('Please look at part 0.');
  expect(await options.count()).toBeLessThan(100);

  /** The event `aria-activedescendant` names: drawn, and showing `text`. */
  const expectActive = (text: string) =>
    expect(async () => {
      const id = await list.getAttribute('aria-activedescendant');
      expect(id).not.toBeNull();
      await expect(page.locator(`[id="${id}"]`)).toContainText(text);
    }).toPass();
  await list.focus();
  await page.keyboard.press('End');
  await expectActive('Done with part 2.');
  expect(await options.count()).toBeLessThan(100);
  await page.keyboard.press('Enter');
  await expect(explain.getByRole('article')).toContainText('Done with part 2.');

  await explain.getByRole('button', { name: 'All events' }).click();
  await list.focus();
  await page.keyboard.press('Home');
  await expectActive('Please look at part 0.');

  // Scrolled away with the mouse: other events are drawn, and the list names
  // no active event it does not hold.
  await list.evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2;
  });
  await expect(options.first()).not.toContainText('Please look at part 0.');
  const id = await list.getAttribute('aria-activedescendant');
  if (id !== null) await expect(page.locator(`[id="${id}"]`)).toHaveCount(1);
});
