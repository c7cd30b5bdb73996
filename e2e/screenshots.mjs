// Takes the screenshots of docs/ui.md (docs/screenshots/*.png):
//
//   ./build.sh e2e   (builds dist/ and dist-e2e/), then
//   node e2e/screenshots.mjs
//
// The run-in-progress and embedded-method pictures use dist-e2e/, whose
// worker holds the browser tests' slow test double (e2e_slow); the others
// show the real build.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, startBrowser, repo, openApp, chooseMethods, runAndWait } from './lib.mjs';

const out = path.join(repo, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const shot = (loc, name) => loc.screenshot({ path: path.join(out, name) });

async function session(dir, fn) {
  const server = await startServer('/', { dir });
  const browser = await startBrowser();
  try {
    await browser.page.setViewportSize({ width: 1100, height: 900 });
    await fn(browser.page, server);
  } finally {
    await browser.close();
    server.stop();
  }
}

await session('dist', async (page, server) => {
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await shot(page.locator('section[aria-labelledby="data-h"]'), 'data.png');
  await page.selectOption('#preset', 'rfs-nie-2010');
  await page.click('#apply-preset');
  await chooseMethods(page, ['fisher', 'fstat']);
  await page.selectOption('#preset', 'filters');
  await page.click('#apply-preset');
  await shot(page.locator('section[aria-labelledby="config-h"]'), 'configure.png');
  await runAndWait(page);
  await page.waitForSelector('#chart-time svg');
  await page.fill('#shown', '8');
  await page.dispatchEvent('#shown', 'change');
  await shot(page.locator('#results'), 'results.png');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page.locator('#results'), 'results-dark.png');
});

await session('dist-e2e', async (page, server) => {
  await openApp(page, server.url);
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  await page.fill('#p-e2e_slow-ms', '20, 30, 40, 50');
  await page.fill('#p-e2e_slow-max_iter', '40');
  await page.click('#run');
  await page.waitForFunction(() => /1 of 5 done · 2 running/.test(document.querySelector('#progress-text').textContent));
  await page.waitForTimeout(600);
  await shot(page.locator('section[aria-labelledby="run-h"]'), 'run.png');
  await page.waitForFunction(() => /^5 of 5 done/.test(document.querySelector('#progress-text').textContent), null, { timeout: 60000 });
  await page.click('#runs tbody tr:nth-child(2) button');
  await page.waitForSelector('#chart-weights svg');
  await shot(page.locator('#fig-conv-e2e_slow'), 'convergence.png');
  await shot(page.locator('#fig-weights'), 'weights.png');
});
console.log('screenshots written to', out);
