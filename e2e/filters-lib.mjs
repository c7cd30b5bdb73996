// Helpers of the filter tests in the browser (filters.test.mjs and the
// timing script bench/timing-filters.mjs): run one method with parameters on one
// file in the page and read the ranking. They drive both pages the project
// has had: a single method chosen in a <select id="method"> with one
// parameter input each (#param-NAME), and the laboratory with method
// check boxes (#m-NAME), parameter fields (#p-METHOD-NAME) and a check box
// per choice of a categorical parameter (#p-METHOD-NAME-CHOICE).
import { shownRanking } from './lib.mjs';

// rankInBrowser opens url, uploads file, runs method with params ({name:
// value}; a categorical parameter by its choice's name), shows the top n
// features and returns {shown, wall, summary}: the ranking table, the
// seconds from the click on Run to the ranking, and the summary line.
export async function rankInBrowser(page, url, file, method, params = {}, n = 20, timeout = 600000) {
  await page.goto(url);
  await page.waitForSelector('#methods input[type=checkbox], #method', { state: 'attached', timeout: 30000 });
  const lab = (await page.$('#method')) === null;
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#preview', { timeout: 120000 });
  if (lab) {
    await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
    if (await page.$('#mode-rank')) await page.check('#mode-rank');
    await page.check('#m-' + method);
    const all = await page.$$eval('#methods input[type=checkbox]', (els) => els.map((e) => e.id.slice(2)));
    for (const m of all) {
      if (m !== method) await page.uncheck('#m-' + m);
    }
    for (const [name, value] of Object.entries(params)) {
      const prefix = `p-${method}-${name}-`;
      // Attribute selectors: a value such as 1.5 is not a CSS identifier.
      if (await page.$(`[id="${prefix}${value}"]`)) {
        await page.check(`[id="${prefix}${value}"]`);
        const choices = await page.$$eval(`[id^="${prefix}"]`, (els) => els.map((e) => e.id));
        for (const id of choices) {
          if (id !== prefix + value) await page.uncheck(`[id="${id}"]`);
        }
      } else {
        await page.fill(`#p-${method}-${name}`, String(value));
      }
    }
  } else {
    await page.selectOption('#method', method);
    for (const [name, value] of Object.entries(params)) {
      const sel = '#param-' + name;
      if (await page.$eval(sel, (el) => el.tagName) === 'SELECT') {
        await page.selectOption(sel, String(value));
      } else {
        await page.fill(sel, String(value));
        await page.dispatchEvent(sel, 'change');
      }
    }
  }
  const start = Date.now();
  await page.click('#run');
  if (lab) {
    await page.waitForFunction(() => {
      const t = document.querySelector('#progress-text');
      return t && Number(t.dataset.runs) >= 1 && t.dataset.busy === 'no';
    }, null, { timeout });
  }
  await page.waitForSelector('#ranking tbody tr', { timeout });
  const wall = (Date.now() - start) / 1000;
  const summary = await page.textContent('#result-summary');
  await page.fill('#shown', String(n));
  await page.dispatchEvent('#shown', 'change');
  await page.waitForFunction((k) => document.querySelectorAll('#ranking tbody tr').length === k, n);
  return { shown: await shownRanking(page), wall, summary };
}

// firstDifference reports the first rank at which a shown ranking departs from
// a CLI response, or 0 when they agree (names included).
export function firstDifference(shown, expected) {
  for (let i = 0; i < shown.length; i++) {
    const j = expected.ranking[i];
    if (shown[i].rank !== i + 1 || shown[i].column !== j || shown[i].name !== expected.features[j]) {
      return i + 1;
    }
  }
  return 0;
}
