// Playing without a mouse and without seeing the screen. A whole Spook game and a whole Ludo game
// played from the keyboard alone (Tab to each control, Enter, the number keys), from creating
// the room to the end screen: when a decision opens the keyboard focus is on its first option, and
// every focused control shows a focus ring. Chromium's accessibility tree (CDP) is read during
// the game: each option's accessible name is a sentence ("Option 1: Piece 1 from 7 to 12, lands on
// a Werewolf"), the boards have names saying where the pieces are, and the story is a polite live
// region (a log) in which each roll is told once. Colour is never alone: with the page in grey
// (CSS grayscale), every Ludo piece still has its number and its colour's own shape, every Spook
// square its character's letter (pictures saved as docs/screenshots/greyscale-*.png with
// SPOOKLUDO_UPDATE_SCREENSHOTS=1). prefers-reduced-motion: reduce stops the game's animations.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DESKTOP, newPage, until, sleep, repo, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '30000']);
const out = process.env.SPOOKLUDO_UPDATE_SCREENSHOTS === '1'
  ? path.join(repo, 'docs', 'screenshots')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-a11y-'));
fs.mkdirSync(out, { recursive: true });
after(() => {
  if (process.env.SPOOKLUDO_UPDATE_SCREENSHOTS !== '1') fs.rmSync(out, { recursive: true, force: true });
});

// Presses Tab until the focus is on `selector` (at most `max` times): the control is reachable by
// Tab, and it shows a focus ring when it has the focus.
async function tabTo(page, selector, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate((sel) => {
      const el = document.activeElement;
      if (!el || !el.matches(sel)) return null;
      const style = getComputedStyle(el);
      return { ring: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
    }, selector);
    if (at) {
      assert.ok(at.ring, `${selector} shows a focus ring`);
      return;
    }
  }
  assert.fail(`${selector} not reached with Tab in ${max} presses`);
}

// The room made from the keyboard: the create form's fields by Tab, the game chosen with the
// arrow keys, the seats typed, a best bot added and the game started.
async function createByKeyboard(page, base, game) {
  await page.goto(base + '/');
  await tabTo(page, '#create summary');
  await page.keyboard.press('Enter');
  await tabTo(page, '#create-name');
  await page.keyboard.type('Ann');
  await tabTo(page, '#create-game');
  if (game === 'ludo') await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('#create-game').inputValue(), game);
  await tabTo(page, '#create-players');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await tabTo(page, '#create-go');
  await page.keyboard.press('Enter');
  await page.locator('#bar-room').waitFor({ timeout: 15000 });
  await tabTo(page, '#bot-best');
  await page.keyboard.press('Enter');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await tabTo(page, '#start');
  await page.keyboard.press('Enter');
}

// The accessibility tree's nodes (role, name, live) as Chromium gives them to a screen reader.
async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((n) => !n.ignored).map((n) => ({
    role: n.role?.value, name: n.name?.value || '', description: n.description?.value || '',
    live: (n.properties || []).find((p) => p.name === 'live')?.value?.value,
  }));
}

// Plays every decision from the keyboard until the end screen: the focus must be on the first
// option when it opens; Enter chooses it, or (every other time) the option's number key.
// `onDecision()` looks at the page while a decision is open.
async function playByKeyboard(page, onDecision, ms = 150000) {
  const end = Date.now() + ms;
  let answered = 0;
  const open = page.locator('#decision button.option:not([disabled])');
  while ((await page.locator('#end-winner').count()) === 0) {
    assert.ok(Date.now() < end, `the game did not end in time (${answered} answered)`);
    if ((await open.count()) > 0) {
      // The focus is moved to the first option once the decision is drawn.
      const focused = await until(() => page.evaluate(() => {
        const el = document.activeElement;
        if (el && el.matches('#decision button.option:not([disabled])')) return el.dataset.fk;
        return document.querySelector('#decision button.option:not([disabled])') ? null : 'gone';
      }), 'the focus on the open decision', 3000);
      if (focused === 'gone') continue;
      assert.equal(focused, 'opt-1', 'the focus is on the first option of the open decision');
      await onDecision();
      if ((await open.count()) === 0) continue;
      await page.keyboard.press(answered % 2 ? '1' : 'Enter');
      answered++;
      await until(async () => (await open.count()) === 0 || (await page.locator('#end-winner').count()) > 0, 'the choice sent', 5000).catch(() => {});
    }
    await sleep(40);
  }
  return answered;
}

test('a whole Spook game played by keyboard alone, read through the accessibility tree', { timeout: 200000 }, async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await createByKeyboard(page, party.server.base, 'spook');
  let checked = false;
  let grey = false;
  const answered = await playByKeyboard(page, async () => {
    if (!checked) {
      checked = true;
      const nodes = await axNodes(page);
      const options = nodes.filter((n) => n.role === 'button' && n.name.startsWith('Option '));
      assert.ok(options.length > 0, 'the options are buttons in the tree');
      for (const o of options) {
        assert.match(o.name, /^Option \d: piece \d (from \d+ to \d+, (lands on a (Wizard's Hat|Black Cat|Spook|Werewolf|Witch)|an entrance)|from square \d+ into the church)/, o.name);
      }
      const boards = nodes.filter((n) => (n.role === 'img' || n.role === 'image') && /'s board: /.test(n.name));
      assert.ok(boards.some((b) => /^Ann's board: piece 1 on square \d+/.test(b.name)), `Ann's board is named: ${boards.map((b) => b.name).join(' | ')}`);
      const log = nodes.find((n) => n.role === 'log');
      assert.ok(log, 'the story is a log');
      assert.equal(log.live, 'polite', 'the story is a polite live region');
    }
    if (!grey) {
      grey = true;
      // In grey, each square still says its character by its letter; the letters tell them apart.
      await page.evaluate(() => { document.documentElement.style.filter = 'grayscale(1)'; });
      const letters = await page.evaluate(() => [...document.querySelectorAll('.own .board .sq .ch')].map((e) => e.textContent));
      assert.equal(letters.length, 40);
      for (const l of letters) assert.match(l, /^[HCSWX·+]$/);
      assert.ok(new Set(letters).size >= 5, 'the characters are told apart by their letters');
      await page.screenshot({ path: path.join(out, 'greyscale-spook.png'), fullPage: false });
      await page.evaluate(() => { document.documentElement.style.filter = ''; });
    }
  });
  assert.ok(answered > 0);
  // Each movement roll is told once in the story, however often the page was drawn.
  const lines = await page.locator('#story li').allTextContents();
  const rolls = lines.map((l) => /^Round (\d+): the die shows/.exec(l)).filter(Boolean).map((m) => m[1]);
  assert.ok(rolls.length > 3, 'the rolls are told');
  assert.equal(new Set(rolls).size, rolls.length, `each roll once: ${rolls.join(',')}`);
  assert.ok(grey, 'the board was checked in grey');
  assert.deepEqual(errors, []);
});

test('a whole Ludo game played by keyboard alone; colour never alone; no animation with reduced motion', { timeout: 360000 }, async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await createByKeyboard(page, party.server.base, 'ludo');
  let checked = false;
  let grey = false;
  const look = async () => {
    if (!checked) {
      checked = true;
      const nodes = await axNodes(page);
      const options = nodes.filter((n) => n.role === 'button' && n.name.startsWith('Option '));
      assert.ok(options.length > 0, 'the options are buttons in the tree');
      for (const o of options) {
        assert.match(o.name, /^Option \d: piece \d from (the start circle|the start square|square \d+|square \d+ of the home column) to (the start square|square \d+|square \d+ of the home column|the home triangle)(, captures (a piece|.+'s piece))?(; the best)?$/, o.name);
      }
      // The board says where every piece stands.
      const board = nodes.find((n) => /^Ludo board, arms of 8$/.test(n.name));
      assert.ok(board, 'the board is named');
      assert.match(board.description, /^Ann \(green\): piece 1: (the start circle|the start square|square \d+)(, piece \d: [^;]+){3}; best bot 1 \(red\): piece 1: /);
      // The movable pieces themselves: focusable, named by the same sentence.
      const piece = page.locator('svg.ludo g.piece.movable').first();
      assert.equal(await piece.getAttribute('tabindex'), '0');
      // Reduced motion: the movable pieces' pulse stops.
      const pulse = () => page.evaluate(() => getComputedStyle(document.querySelector('svg.ludo g.piece.movable .hit-area')).animationName);
      assert.equal(await pulse(), 'pulse');
      await page.emulateMedia({ reducedMotion: 'reduce' });
      assert.equal(await pulse(), 'none');
    }
    if (!grey) {
      grey = true;
      await page.evaluate(() => { document.documentElement.style.filter = 'grayscale(1)'; });
      // Each piece: its number, and its colour's own shape (circle, square, diamond, hexagon).
      const pieces = await page.evaluate(() => [...document.querySelectorAll('svg.ludo g.piece')].map((g) => {
        const shape = g.querySelector('.lp');
        const kind = shape.tagName === 'polygon' ? `polygon${shape.getAttribute('points').trim().split(/\s+/).length}` : shape.tagName;
        return { colour: [...shape.classList].find((c) => c.startsWith('lp-')), kind, number: g.querySelector('.pn')?.textContent };
      }));
      const shapeOf = new Map();
      for (const p of pieces) {
        assert.match(p.number, /^[1-4]$/, 'each piece shows its number');
        if (!shapeOf.has(p.colour)) shapeOf.set(p.colour, p.kind);
        assert.equal(shapeOf.get(p.colour), p.kind, 'one shape a colour');
      }
      assert.equal(new Set(shapeOf.values()).size, shapeOf.size, `the colours' shapes differ: ${[...shapeOf].join(' ')}`);
      await page.screenshot({ path: path.join(out, 'greyscale-ludo.png') });
      await page.evaluate(() => { document.documentElement.style.filter = ''; });
    }
  };
  // A throw with one distinct move is played at once: in about one game in four hundred the dice
  // never give the player a choice; such a game is followed by a rematch (at most three games).
  let answered = 0;
  for (let game = 1; game <= 3 && answered === 0; game++) {
    if (game > 1) {
      await tabTo(page, '#end-close');
      await page.keyboard.press('Enter');
      await tabTo(page, '#start');
      await page.keyboard.press('Enter');
      await until(async () => (await page.locator('#end-winner').count()) === 0, 'the rematch started');
    }
    answered = await playByKeyboard(page, look);
  }
  assert.ok(answered > 0);
  assert.ok(grey, 'the pieces were checked in grey');
  const lines = await page.locator('#story li').allTextContents();
  assert.ok(lines.some((l) => /throws a \d/.test(l)), 'the throws are told');
  assert.deepEqual(errors, []);
});
