// The pseudo-language check (?lang=qps: every translated text comes wrapped in ⟦…⟧, its
// placeholders filled inside): every text a person reads on the page must be inside brackets.
// The same rule as tests/web/i18n_shell.test.js's, with the game's own allowances.
//
// The rule, exactly. Looked at: every text node that is displayed (its element has a box and is
// not visibility: hidden) under `root`, in document order, the brackets' depth carried from one
// node to the next (a sentence with a link in it is one wrapped text over several nodes); the
// aria-label, aria-description, title, placeholder and alt of every displayed element there; and
// document.title. What is outside every ⟦…⟧ (brackets nest: a colour's name inside a sentence)
// may only be: white space, digits, punctuation and symbols (arrows, ▶, ★, ·, emoji), single capital
// letters (a Spook square's character letter, a key's name such as N or S), the product's name
// SpookLudo, the room's code, and the names given in `allow` (player names shown on their own,
// outside a sentence). Left out: commands and codes (<pre>, <code>), a link whose text is its own
// address, the language switch (#lang-switch: each language named in itself), and the elements
// matching a selector in `ignore` with all they hold (texts worded by another module, each named
// with its reason where a test uses it).
export async function unwrappedTexts(page, { root = 'body', allow = [], ignore = [] } = {}) {
  return page.evaluate(({ root, allow, ignore }) => {
    const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const room = (document.getElementById('bar-room') || document.getElementById('tv-code') || {}).textContent || '';
    const words = ['SpookLudo', ...allow, ...(room.trim() ? [room.trim()] : [])].sort((a, b) => b.length - a.length);
    const allowed = words.length ? new RegExp(words.map(escape).join('|'), 'g') : null;
    let depth = 0;
    // The text outside every ⟦…⟧ (`carry`: the depth goes on from the last text node).
    const outside = (text, carry) => {
      let d = carry ? depth : 0;
      let out = '';
      for (const ch of text) {
        if (ch === '⟦') d++;
        else if (ch === '⟧') d = Math.max(0, d - 1);
        else if (d === 0) out += ch;
      }
      if (carry) depth = d;
      return out;
    };
    const bad = (rest) => {
      if (allowed) rest = rest.replace(allowed, ' ');
      rest = rest.replace(/(^|[^\p{L}])\p{Lu}(?=$|[^\p{L}])/gu, '$1');
      return /\p{L}/u.test(rest);
    };
    const skips = ['pre', 'code', '#lang-switch', 'script', 'style', 'noscript', ...ignore].join(',');
    const skipped = (el) => Boolean(el.closest(skips));
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const found = [];
    const top = document.querySelector(root);
    if (!top) return [`no element ${root}`];
    const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      const el = node.parentElement;
      const text = node.textContent;
      const rest = outside(text, true);
      if (!rest.trim() || !el || skipped(el) || !shown(el)) continue;
      if (el.tagName === 'A' && /^(https?|wss?):\/\//.test(text.trim())) continue;
      if (bad(rest)) found.push(`text in <${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}>: "${text.trim().slice(0, 80)}"`);
    }
    for (const el of [top, ...top.querySelectorAll('*')]) {
      if (skipped(el) || !shown(el)) continue;
      for (const attr of ['aria-label', 'aria-description', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(attr);
        if (v && bad(outside(v, false))) found.push(`${attr} of <${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}>: "${v.slice(0, 80)}"`);
      }
    }
    if (bad(outside(document.title, false))) found.push(`document.title: "${document.title}"`);
    return found;
  }, { root, allow, ignore });
}

// A page that reads the site in `lang` (as if chosen with the page's switch: kept in localStorage,
// so every address opened in it keeps the language), failing the test on any error it logs.
export async function pageIn(newPage, browser, device, errors, lang) {
  const page = await newPage(browser, device, errors);
  await page.addInitScript((tag) => {
    try {
      if (!localStorage.getItem('spookludo.lang')) localStorage.setItem('spookludo.lang', JSON.stringify(tag));
    } catch { /* an opaque origin (about:blank) */ }
  }, lang);
  return page;
}

// The host's page creates a room (in whatever language the page reads) and returns its code.
export async function createIn(page, base, { name = 'Ann', game = 'spook', players = 2, arm, hints = false } = {}) {
  await page.goto(base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', name);
  await page.selectOption('#create-game', game);
  await page.fill('#create-players', String(players));
  if (arm) await page.selectOption('#create-arm', String(arm));
  if (hints) await page.check('#create-hints');
  await page.click('#create-go');
  await page.locator('#bar-room').waitFor({ timeout: 15000 });
  return (await page.locator('#bar-room').textContent()).trim();
}
