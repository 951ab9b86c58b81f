import { expect, test } from './test.ts';

// The browser every test, screenshot and benchmark runs in (tests/chromium.ts).

test('runs no pages of the browser’s own UI beside the test’s page', async ({ browser, page }) => {
  await page.goto('about:blank');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url)).toEqual([]);
    expect(targetInfos.some((target) => target.type === 'page' && target.url === 'about:blank')).toBe(true);
  } finally {
    await cdp.detach();
  }
});

test('turns off every feature Playwright turns off, as Chromium keeps only the last --disable-features', async ({ mapPage: page }) => {
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((match) => match[1]!.split(','));
  expect(lists.length).toBeGreaterThanOrEqual(2); // Playwright's, then ours
  const last = new Set(lists.at(-1));
  expect(lists.flat().filter((feature) => !last.has(feature))).toEqual([]);
});
