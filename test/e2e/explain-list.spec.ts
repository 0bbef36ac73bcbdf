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

  // Scrolled away with the mouse: other events are drawn, the group's heading
  // stays over them, and the list names no active event it does not hold.
  await list.evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2;
  });
  await expect(options.first()).not.toContainText('Please look at part 0.');
  await expect(list.getByText('What the model sees after compaction')).toBeInViewport();
  await expect(list).not.toHaveAttribute('aria-activedescendant');
  // A screen reader hears an event's place among all of its group, not among those drawn.
  const drawn = options.nth(20);
  expect(Number(await drawn.getAttribute('aria-posinset'))).toBeGreaterThan(200);
  await expect(drawn).toHaveAttribute(
    'aria-setsize',
    (await options.first().getAttribute('aria-setsize')) ?? '',
  );
  expect(Number(await drawn.getAttribute('aria-setsize'))).toBeGreaterThan(500);
  // The keyboard brings the active event back into view: the next one after the first.
  await page.keyboard.press('ArrowDown');
  await expectActive('id call_0');
});
