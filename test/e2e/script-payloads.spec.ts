import {
  expect,
  openPlayground,
  savingsTable,
  test,
  toolRow,
  waitForDiff,
  waitForResults,
} from './helpers.ts';

// Conversation text, tool names and ids are data: they must be shown as text
// everywhere (table, transcript, explain panel, tooltips) and never run. The
// shared fixture also fails the test on any request that leaves the origin.
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const TOOL = `<b onmouseover="window.__pwned=3">evil_tool</b>`;
const AT = '2025-07-01 00:00:0';

function stream(): string {
  const events: object[] = [];
  for (let turn = 0; turn < 4; turn++) {
    const at = `${AT}${turn}.0`;
    events.push(
      { timestamp: at, type: 'turn_start' },
      { timestamp: at, type: 'chat_request', content: `${PAYLOAD} request ${turn}` },
      { timestamp: at, type: 'chat_response', reasoning: `${PAYLOAD} thinking` },
      {
        timestamp: at,
        type: 'tool_call_request',
        id: `id-${turn}-${PAYLOAD}`,
        name: TOOL,
        arguments: { html: PAYLOAD, url: 'javascript:window.__pwned=4' },
      },
      {
        timestamp: at,
        type: 'tool_call_response',
        id: `id-${turn}-${PAYLOAD}`,
        content: `${PAYLOAD}<iframe src="https://example.com"></iframe>`,
        is_error: false,
      },
      { timestamp: at, type: 'chat_response', message: `${PAYLOAD} done` },
    );
  }
  return JSON.stringify(events, null, 2);
}

test('a stream full of script and HTML payloads is shown as text and runs nothing', async ({
  page,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await openPlayground(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name: `${TOOL}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(stream()),
  });
  await waitForResults(page);

  // The tool's name is shown exactly, as text, in the table's first cell.
  await expect(toolRow(page, TOOL)).toHaveCount(1);
  await toolRow(page, TOOL).click();
  await waitForDiff(page);
  await toolRow(page, TOOL).hover();

  const injected = await page.evaluate(() => ({
    pwned: (window as { __pwned?: number }).__pwned ?? null,
    // Outside Monaco's own DOM, no element from the payloads exists.
    elements: [...document.querySelectorAll('img, iframe, b, script:not([src])')].filter(
      (element) => !element.closest('.monaco-editor'),
    ).length,
  }));
  expect(injected).toEqual({ pwned: null, elements: 0 });
  expect(dialogs).toEqual([]);
  await expect(savingsTable(page)).toContainText('evil_tool');
});
