import { writeFileSync } from 'node:fs';
import { startServer, startBrowser, openApp } from './lib.mjs';
const server = await startServer('/');
const browser = await startBrowser();
const { page } = browser;
let csv = 'patient,diagnosis,site,age,marker,score\n';
for (let i = 0; i < 24; i++) csv += `P${100 + i},${i % 2 ? 'tumor' : 'normal'},${['north', 'south', 'east'][i % 3]},${i % 7 === 3 ? 'NA' : 40 + i},${(i % 5) / 10},${i % 11}\n`;
writeFileSync('/tmp/clinic-shot.csv', csv);
for (const [w, h, name] of [[1280, 800, 'desk'], [390, 844, 'phone']]) {
  await page.setViewportSize({ width: w, height: h });
  await openApp(page, server.url);
  await page.setInputFiles('#file', '/tmp/clinic-shot.csv');
  await page.waitForSelector('#reading');
  await page.locator('#preview').screenshot({ path: `/tmp/shot-${name}.png` });
  console.log(name, await page.evaluate(() => document.documentElement.scrollWidth));
}
await browser.close(); server.stop();
