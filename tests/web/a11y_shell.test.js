// Everyone can use the page around the game: the first screen and the lobby with the keyboard
// alone (Tab and Enter; the focus always visible), every control named in Chromium's accessibility
// tree in the page's language, and no animation or transition when the reader asks for reduced
// motion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, DESKTOP, PHONE, until } from './harness.js';

const party = serverAndBrowser();

// Presses Tab until the focus is on `selector` (at most `max` times), checking at every stop that
// the focused control shows a visible focus ring (an outline of 2 px or more, of 3:1 contrast at
// least against the page's background). Returns the stops.
async function tabTo(page, selector, max = 60) {
  const stops = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate((selector) => {
      const el = document.activeElement;
      if (!el || el === document.body) return { body: true };
      const style = getComputedStyle(el);
      const parse = (c) => (/rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)/.exec(c) || []).slice(1).map(Number);
      const lum = ([r, g, b]) => {
        const lin = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      const ring = parse(style.outlineColor);
      const page = parse(getComputedStyle(document.body).backgroundColor);
      const [hi, lo] = [lum(ring), lum(page)].sort((a, b) => b - a);
      return {
        what: `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${(el.textContent || el.value || '').trim().slice(0, 30)}"`,
        visible: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        contrast: (hi + 0.05) / (lo + 0.05),
        done: el.matches(selector),
      };
    }, selector);
    if (at.body) continue;
    stops.push(at.what);
    assert.ok(at.visible, `the focus on ${at.what} is visible`);
    assert.ok(at.contrast >= 3, `the focus ring on ${at.what} stands out (${at.contrast.toFixed(2)}:1)`);
    if (at.done) return stops;
  }
  throw new Error(`Tab never reached ${selector}; stops: ${stops.join(', ')}`);
}

test('a room is created, joined and started with Tab and Enter alone, the focus visible at every stop', async () => {
  const errors = [];
  const host = await newPage(party.browser, DESKTOP, errors);
  await host.goto(`${party.server.base}/`);
  await host.locator('#join-h').waitFor();
  await tabTo(host, '#create summary');
  await host.keyboard.press('Enter');
  await host.locator('#create-name').waitFor({ state: 'visible' });
  await tabTo(host, '#create-name');
  await host.keyboard.type('Ann');
  await host.keyboard.press('Enter');
  await host.locator('#start').waitFor();
  const code = (await host.locator('#bar-room').textContent()).trim();
  await tabTo(host, '#bot-best');
  await host.keyboard.press('Enter');
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');

  const guest = await newPage(party.browser, PHONE, errors);
  await guest.goto(`${party.server.base}/`);
  await guest.locator('#join-h').waitFor();
  await tabTo(guest, '#join-name');
  await guest.keyboard.type('Ben');
  await tabTo(guest, '#join-code');
  await guest.keyboard.type(code.toLowerCase());
  await guest.keyboard.press('Enter');
  await guest.locator('#waiting').waitFor();
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 3, 'Ben seated');

  await tabTo(host, '#start');
  await host.keyboard.press('Enter');
  await until(async () => (await host.evaluate(() => document.body.dataset.screen)) === 'game', 'the game started', 20000);
  assert.deepEqual(errors, []);
  await host.context().close();
  await guest.context().close();
});

// The controls of Chromium's accessibility tree (not ignored), with their roles and names.
async function controls(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const roles = new Set(['button', 'link', 'textbox', 'combobox', 'checkbox', 'spinbutton', 'listbox', 'radio', 'slider', 'switch', 'DisclosureTriangle']);
  return nodes.filter((n) => !n.ignored && roles.has(n.role?.value)).map((n) => ({ role: n.role.value, name: (n.name?.value || '').trim() }));
}

test('every control of the first screen, the create form and the lobby has an accessible name, in the page\'s language', async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  const check = async (where) => {
    // The parts other helpers word are left out: the quick reactions, the lobby's table-game card,
    // the switch that announces aloud.
    await page.evaluate(() => document.querySelectorAll('#reactions, #table-lobby, .speak-switch').forEach((el) => (el.inert = true)));
    const list = await controls(page);
    assert.ok(list.length > 3, `${where}: controls found`);
    for (const c of list) {
      assert.ok(c.name, `${where}: a ${c.role} without a name`);
      // A link may be named by the address it shows; every other name is the catalogue's.
      if (c.role === 'link' && /^(https?|wss?):\/\//.test(c.name)) continue;
      assert.match(c.name, /⟦.*⟧/, `${where}: the ${c.role} "${c.name}" is named from the catalogue`);
    }
  };
  await page.goto(`${party.server.base}/?lang=qps`);
  await page.locator('#join-h').waitFor();
  await check('the first screen');
  await page.locator('#create summary').click();
  await page.locator('#create-go').waitFor({ state: 'visible' });
  await check('the create form');
  await page.fill('#create-name', 'Ann');
  await page.click('#create-go');
  await page.locator('#start').waitFor();
  await page.click('#bot-random');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await check('the lobby as host');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('with prefers-reduced-motion every animation and transition of the page is off, and on without it', async () => {
  const errors = [];
  const moving = async (page) => page.evaluate(() => {
    // The page's animated parts, made here as the screens make them (the decision's countdown,
    // a reaction's bubble), beside whatever the screen shows.
    const probe = document.createElement('div');
    probe.className = 'countdown';
    const fill = document.createElement('div');
    fill.className = 'fill';
    probe.append(fill);
    const bubble = document.createElement('li');
    bubble.className = 'reaction-bubble';
    bubble.textContent = 'x';
    document.getElementById('screen').append(probe);
    document.getElementById('reaction-bubbles').append(bubble);
    const found = [];
    for (const el of document.querySelectorAll('*')) {
      for (const pseudo of [null, '::before', '::after']) {
        const s = getComputedStyle(el, pseudo);
        const durations = (v) => v.split(',').some((d) => parseFloat(d) > 0);
        if (s.animationName !== 'none' && durations(s.animationDuration)) found.push(`animation ${s.animationName} on ${el.tagName.toLowerCase()}.${el.className}${pseudo || ''}`);
        if (durations(s.transitionDuration)) found.push(`transition on ${el.tagName.toLowerCase()}.${el.className}${pseudo || ''}`);
      }
    }
    probe.remove();
    bubble.remove();
    return found;
  });
  const still = await newPage(party.browser, { ...DESKTOP, reducedMotion: 'reduce' }, errors);
  await still.goto(`${party.server.base}/`);
  await still.locator('#join-h').waitFor();
  assert.deepEqual(await moving(still), [], 'nothing moves when the reader asks for reduced motion');
  const usual = await newPage(party.browser, { ...DESKTOP, reducedMotion: 'no-preference' }, errors);
  await usual.goto(`${party.server.base}/`);
  await usual.locator('#join-h').waitFor();
  assert.ok((await moving(usual)).length >= 2, 'the countdown and a bubble move otherwise');
  assert.deepEqual(errors, []);
  await still.context().close();
  await usual.context().close();
});
