// WCAG AA contrast of the page as Chromium draws it: on each screen, every visible text's colour
// against its effective background (the backgrounds under it, blended down to the page's), at
// least 4.5:1, and 3:1 for large text (24 px, or 18.66 px bold). Disabled controls are left out, as
// WCAG leaves them (1.4.3: inactive user interface components). The keyboard's focus ring is
// checked against the background too (3:1, WCAG 1.4.11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, DESKTOP, PHONE, until, roomCode } from './harness.js';

const party = serverAndBrowser();

// Every visible text's contrast on the page, the failing ones as sentences.
function lowContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[, /]+([\d.]+%?))?\)/.exec(c);
      if (!m) return null;
      let a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
      return { r: +m[1], g: +m[2], b: +m[3], a };
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({ r, g, b }) => {
      const lin = (v) => {
        v /= 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (x, y) => {
      const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p);
      return (a + 0.05) / (b + 0.05);
    };
    // The background under `el`: its own and its ancestors', blended down to an opaque one.
    const background = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg.a > 0) {
          layers.push(bg);
          if (bg.a >= 1) break;
        }
      }
      let color = { r: 255, g: 255, b: 255, a: 1 }; // the canvas under everything
      for (let i = layers.length - 1; i >= 0; i--) color = over(layers[i], color);
      return color;
    };
    const fails = [];
    const seen = new Set();
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const el = walk.currentNode.parentElement;
      const text = walk.currentNode.textContent.trim();
      if (!text || !el || seen.has(el)) continue;
      seen.add(el);
      if (el.closest('noscript, script, style, svg, option')) continue;
      const style = getComputedStyle(el);
      if (!el.getClientRects().length || style.visibility === 'hidden' || el.closest('[hidden], .sr-only')) continue;
      if (el.closest('button:disabled, input:disabled, select:disabled, [aria-disabled="true"]')) continue;
      let fg = parse(style.color);
      if (!fg) continue;
      let opacity = 1;
      for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
      const bg = background(el);
      fg = over({ ...fg, a: fg.a * opacity }, bg);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      const r = ratio(fg, bg);
      if (r < need) {
        fails.push(`${r.toFixed(2)}:1 < ${need}:1 for "${text.slice(0, 40)}" in <${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}> (${style.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}))`);
      }
    }
    return fails;
  });
}

async function assertContrast(page, where) {
  assert.deepEqual(await lowContrast(page), [], `${where}: text below WCAG AA contrast`);
}

test('the first screen, its forms, its errors and the connection line have text of AA contrast', async () => {
  const errors = [];
  const page = await newPage(party.browser, PHONE, errors);
  await page.goto(`${party.server.base}/`);
  await page.locator('#join-h').waitFor();
  await assertContrast(page, 'the first screen');
  await page.locator('#create summary').click();
  await page.locator('#create-go').waitFor({ state: 'visible' });
  await assertContrast(page, 'the create form');
  // Names of spaces: the forms say what is missing.
  await page.fill('#create-name', '  ');
  await page.click('#create-go');
  await until(async () => (await page.locator('#create-error').textContent()).length > 0, 'the create form asking for a name');
  await page.fill('#join-name', '  ');
  await page.fill('#join-code', 'ZZZZZ');
  await page.click('#join-go');
  await until(async () => (await page.locator('#join-error').textContent()).length > 0, 'the join form asking for a name');
  await assertContrast(page, 'the forms refusing');
  await page.fill('#join-name', 'Ann');
  await page.fill('#join-code', 'ZZZZZ');
  await page.click('#join-go');
  await page.locator('#home-message').waitFor();
  // The connection line, as it shows while the page tries again.
  await page.evaluate(() => {
    const conn = document.getElementById('conn');
    conn.textContent = 'The connection was lost: trying again in 2 s…';
    conn.hidden = false;
  });
  await assertContrast(page, 'the room that is not there, and the connection line');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the lobby (host and guest, every kind of seat, the dialog), the paused bar and the end have text of AA contrast', async () => {
  const errors = [];
  const host = await newPage(party.browser, DESKTOP, errors);
  const guest = await newPage(party.browser, PHONE, errors);
  await host.goto(`${party.server.base}/`);
  await host.locator('#create summary').click();
  await host.fill('#create-name', 'Ann');
  await host.fill('#create-players', '4');
  await host.click('#create-go');
  const code = await roomCode(host);
  await host.click('#bot-greedy');
  await guest.goto(`${party.server.base}/r/${code}`);
  await guest.fill('#join-name', 'Ben');
  await guest.click('#join-go');
  await guest.locator('#waiting').waitFor();
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 3, 'three seats taken');
  await assertContrast(host, 'the lobby as host');
  await assertContrast(guest, 'the lobby as guest');
  await host.locator('#seats button.danger').first().click();
  await host.locator('#confirm[open]').waitFor();
  await assertContrast(host, 'the dialog asking again');
  await host.click('#confirm-no');
  await host.click('#start');
  await host.locator('#pause-game').waitFor({ timeout: 20000 });
  await host.click('#pause-game');
  await guest.locator('#bar .paused').waitFor();
  assert.deepEqual(await lowContrast(guest).then((f) => f.filter((x) => /PAUSED|paused/.test(x))), [], 'the paused bar');
  await host.context().close();
  await guest.context().close();
  // A game that ends by itself (one seat, one piece): the end screen.
  const solo = await newPage(party.browser, DESKTOP, errors);
  await solo.goto(`${party.server.base}/`);
  await solo.locator('#create summary').click();
  await solo.fill('#create-name', 'Cid');
  await solo.fill('#create-players', '1');
  await solo.selectOption('#create-pieces', '1');
  await solo.click('#create-go');
  await roomCode(solo);
  await solo.click('#start');
  await solo.locator('#end-verify').waitFor({ timeout: 90000 });
  await assertContrast(solo, 'the end of a game');
  assert.deepEqual(errors, []);
  await solo.context().close();
});
