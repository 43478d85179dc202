// The page around the game in the reader's language (web/js/i18n.js, po/): with the pseudo-language
// (?lang=qps, every translated text wrapped in ⟦…⟧) no text a person reads is left unwrapped on
// the first screen, the create form, the lobby as host and as guest, a paused game's bar, the end
// of a game, an error, and the language switch; the switch to Malay draws the page again at once
// and is remembered after a reload; a browser speaking Malay (ms-MY) opens in Malay.
//
// The rule of "unwrapped" (unwrapped() below): a visible text node outside every ⟦…⟧ may hold
// only digits, punctuation, symbols and spaces (a die's face, "3.", "—"), the room's code, a
// player's name when it is a whole text node (a seat's name; names inside a sentence fill its
// placeholders, so they are inside the brackets), and commands, URLs and codes (in <pre>, <code>,
// or a link whose text is its own address). The language switch's options name each language in
// itself (so that a reader finds theirs) and are left out. Every aria-label, title, placeholder and
// alt, wherever it is, and the document's title follow the same rule. Left out here, for the
// helpers that word them: the story's lines (the server's events), the quick reactions' bar, the
// lobby's table-game card, the switch that announces aloud, the game screen and the boards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, DESKTOP, PHONE, until, roomCode } from './harness.js';
import { createRoom, joinRoom } from './tv_helpers.js';

const party = serverAndBrowser();
const NAMES = ['Ann', 'Ben'];
// The parts other helpers word (see above).
const OTHERS = ['#story', '#reactions', '#reaction-bubbles', '#table-lobby', '.speak-switch'];

// What is left unwrapped on the page (an empty list when every text is in ⟦…⟧), per the rule above.
function unwrapped(page, { names = NAMES, skip = [] } = {}) {
  return page.evaluate(({ names, skip, others }) => {
    const outside = (text) => {
      let depth = 0;
      let out = '';
      for (const ch of text) {
        if (ch === '⟦') depth++;
        else if (ch === '⟧') depth = Math.max(0, depth - 1);
        else if (depth === 0) out += ch;
      }
      return out;
    };
    const code = (document.getElementById('bar-room')?.textContent || '').trim();
    const fine = (text) => {
      const rest = outside(text).trim();
      if (!rest) return true;
      if (/^[\p{N}\p{P}\p{S}\s]*$/u.test(rest)) return true;
      if (code && rest === code) return true;
      return names.includes(rest);
    };
    const left = [];
    const skipped = (el) => el.closest([...others, 'noscript', 'script', 'style', 'pre', 'code', '#lang-switch', ...skip].join(','));
    // The text nodes in document order, the brackets' depth carried from one to the next: a
    // sentence with a link or a code in it is one wrapped text over several nodes.
    let depth = 0;
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      const el = node.parentElement;
      const text = node.textContent;
      let out = '';
      for (const ch of text) {
        if (ch === '⟦') depth++;
        else if (ch === '⟧') depth = Math.max(0, depth - 1);
        else if (depth === 0) out += ch;
      }
      if (!out.trim() || !el || skipped(el)) continue;
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue; // not shown
      if (el.tagName === 'A' && /^(https?|wss?):\/\//.test(text.trim())) continue; // a link showing its address
      if (!fine(out)) left.push(`text in <${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>: "${text.trim()}"`);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (el.closest([...others, ...skip].join(','))) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(attr);
        if (value === null || fine(value)) continue;
        if (el.tagName === 'A' && attr === 'aria-label' && value === el.href) continue;
        left.push(`${attr} of <${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>: "${value}"`);
      }
    }
    if (!fine(document.title)) left.push(`document title: "${document.title}"`);
    return left;
  }, { names, skip, others: OTHERS });
}

async function assertAllWrapped(page, where, options) {
  const left = await unwrapped(page, options);
  assert.deepEqual(left, [], `${where}: texts outside the catalogue`);
}

test('in the pseudo-language every text of the first screen, the create form and an error is from the catalogue', async () => {
  const errors = [];
  const page = await newPage(party.browser, PHONE, errors);
  await page.goto(`${party.server.base}/?lang=qps`);
  await page.locator('#join-h').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'qps');
  assert.match(await page.locator('#join-h').textContent(), /^⟦.*⟧$/);
  await assertAllWrapped(page, 'the first screen');
  // The create form, opened.
  await page.locator('#create summary').click();
  await page.locator('#create-go').waitFor({ state: 'visible' });
  await assertAllWrapped(page, 'the create form (Spook)');
  await page.selectOption('#create-game', 'ludo');
  await assertAllWrapped(page, 'the create form (Ludo)');
  // A mistake on the form (a name of spaces), then a room that is not there: the page says why.
  await page.fill('#join-name', '  ');
  await page.fill('#join-code', 'ZZZZZ');
  await page.click('#join-go');
  await until(async () => (await page.locator('#join-error').textContent()).length > 0, 'the name asked for');
  await assertAllWrapped(page, 'the join form refusing an empty name');
  await page.fill('#join-name', 'Ann');
  await page.fill('#join-code', 'ZZZZZ');
  await page.click('#join-go');
  await page.locator('#home-message').waitFor();
  assert.match(await page.locator('#home-message').textContent(), /^⟦.*ZZZZZ.*⟧$/);
  await assertAllWrapped(page, 'the first screen saying the room is not there', { names: [...NAMES, 'ZZZZZ'] });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('in the pseudo-language the lobby as host and as guest and a paused game\'s bar are all from the catalogue', async () => {
  const errors = [];
  const host = await newPage(party.browser, DESKTOP, errors);
  const guest = await newPage(party.browser, PHONE, errors);
  await host.goto(`${party.server.base}/?lang=qps`);
  await host.locator('#create summary').click();
  await host.fill('#create-name', 'Ann');
  await host.fill('#create-players', '2');
  await host.click('#create-go');
  const code = await roomCode(host);
  await host.locator('#start').waitFor();
  await guest.goto(`${party.server.base}/r/${code}?lang=qps`);
  await guest.fill('#join-name', 'Ben');
  await guest.click('#join-go');
  await guest.locator('#waiting').waitFor();
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 2, 'Ben seated on the host page');
  await assertAllWrapped(host, 'the lobby as host');
  await assertAllWrapped(guest, 'the lobby as guest');
  // A game paused by the host: the bar says so (the game screen itself is another helper's).
  await host.click('#start');
  await host.locator('#pause-game').waitFor({ timeout: 20000 });
  await host.click('#pause-game');
  await guest.locator('#bar .paused').waitFor();
  for (const [page, who] of [[host, 'host'], [guest, 'guest']]) {
    const left = (await unwrapped(page, { skip: ['#screen'] }));
    assert.deepEqual(left, [], `the paused game's bar and frame (${who})`);
  }
  assert.deepEqual(errors, []);
  await host.context().close();
  await guest.context().close();
});

test('in the pseudo-language the end of a game is from the catalogue', async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await page.goto(`${party.server.base}/?lang=qps`);
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.fill('#create-players', '1');
  await page.selectOption('#create-pieces', '1');
  await page.click('#create-go');
  await roomCode(page);
  await page.click('#start');
  // One piece and one seat: the die decides everything, the game plays itself to its end.
  await page.locator('#end').waitFor({ timeout: 90000 });
  await page.locator('#end-verify').waitFor();
  await assertAllWrapped(page, 'the end of a game', { skip: ['.others', '.ludo-wrap'] });
  await page.click('#end-close');
  await page.locator('#start').waitFor();
  await assertAllWrapped(page, 'the lobby after a game');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the language switch draws the page in Malay at once, in the lobby too, and the choice is kept after a reload', async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await page.goto(`${party.server.base}/`);
  await page.locator('#join-h').waitFor();
  assert.equal(await page.locator('#join-h').textContent(), 'Join a room');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('#lang-switch').evaluate((el) => el.labels[0].querySelector('.lang-label').textContent), 'Language');
  assert.deepEqual(await page.locator('#lang-switch option').evaluateAll((os) => os.map((o) => [o.value, o.textContent])),
    [['en', 'English'], ['ms', 'Bahasa Melayu']]);
  await page.selectOption('#lang-switch', 'ms');
  await until(async () => (await page.locator('#join-h').textContent()) === 'Masuk bilik', 'the first screen in Malay');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ms');
  assert.equal(await page.locator('#join-go').textContent(), 'Ambil tempat duduk');
  assert.equal(await page.locator('#lang-switch').evaluate((el) => el.labels[0].querySelector('.lang-label').textContent), 'Bahasa');
  await page.reload();
  await page.locator('#join-h').waitFor();
  assert.equal(await page.locator('#join-h').textContent(), 'Masuk bilik');
  assert.equal(await page.locator('#lang-switch').inputValue(), 'ms');
  // In a room: the lobby in Malay, then back to English at once, the focus kept on the switch.
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.click('#create-go');
  await page.locator('#start').waitFor();
  assert.equal(await page.locator('#start').textContent(), 'Mulakan permainan');
  assert.match(await page.locator('#bar').textContent(), /Bilik [A-Z]{5}/);
  assert.match(await page.evaluate(() => document.title), /^SpookLudo: bilik [A-Z]{5}$/);
  await page.locator('#lang-switch').focus();
  await page.selectOption('#lang-switch', 'en');
  await until(async () => (await page.locator('#start').textContent()) === 'Start the game', 'the lobby in English');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lang-switch');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a browser whose language is Malay (ms-MY) opens the page in Malay, one speaking English in English', async () => {
  const errors = [];
  const malay = await newPage(party.browser, { ...PHONE, locale: 'ms-MY' }, errors);
  await malay.goto(`${party.server.base}/`);
  await until(async () => (await malay.locator('#join-h').textContent()) === 'Masuk bilik', 'the first screen in Malay');
  assert.equal(await malay.evaluate(() => document.documentElement.lang), 'ms');
  assert.equal(await malay.locator('#create summary').textContent(), 'Cipta bilik');
  const english = await newPage(party.browser, { ...PHONE, locale: 'en-GB' }, errors);
  await english.goto(`${party.server.base}/`);
  await english.locator('#join-h').waitFor();
  assert.equal(await english.locator('#join-h').textContent(), 'Join a room');
  // The address's ?lang= wins over the browser's languages.
  await malay.goto(`${party.server.base}/?lang=en`);
  await malay.locator('#join-h').waitFor();
  assert.equal(await malay.locator('#join-h').textContent(), 'Join a room');
  assert.deepEqual(errors, []);
  await malay.context().close();
  await english.context().close();
});
