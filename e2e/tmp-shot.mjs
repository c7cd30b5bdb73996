import { startServer, startBrowser, openApp, chooseMethods, runAndWait } from './lib.mjs';
const server = await startServer('/');
const browser = await startBrowser();
const { page } = browser;
const check = () => page.evaluate(() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    let clipped = false; for (let a = el.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') clipped = true;
    if (r.right > W + 1 && !clipped) out.push(`${el.tagName}#${el.id}.${el.className?.baseVal ?? el.className} ${Math.round(r.right)}`);
  }
  const small = [];
  for (const s of document.querySelectorAll('svg')) {
    const vb = s.viewBox?.baseVal; if (!vb || !vb.width) continue;
    const scale = s.getBoundingClientRect().width / vb.width;
    for (const t of s.querySelectorAll('text')) { const fs = parseFloat(getComputedStyle(t).fontSize) * scale; if (fs < 11) { small.push(`${s.closest('[id]')?.id}: ${fs.toFixed(1)}px`); break; } }
  }
  return { scrollWidth: document.documentElement.scrollWidth, W, wide: out.slice(0, 10), small: small.slice(0, 10), active: document.activeElement?.id };
});
try {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher', 'relieff', 'rfs', 'mrmr', 'ttest', 'l1svm']);
  await page.fill('#klist', '5:50:5');
  await runAndWait(page, 300000);
  await page.waitForSelector('#chart-accuracy-svm svg');
  await page.waitForTimeout(1000);
  console.log('390:', JSON.stringify(await check()));
  await page.screenshot({ path: '/tmp/phone-full.png', fullPage: true });
  if (await page.$('#compare')) { await page.click('#compare'); await page.waitForTimeout(3000); console.log('390 compare:', JSON.stringify(await check())); }
  await page.setViewportSize({ width: 640, height: 900 });
  console.log('640:', JSON.stringify(await check()));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: '/tmp/desk-full.png', fullPage: true });
} finally { await browser.close(); server.stop(); }
