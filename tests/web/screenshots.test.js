// Pictures of the page on a phone (360x640): the lobby and its invitation, a Spook decision, a
// monster waking, the Ludo board (and under the Home rules, its stars); and of the shared screen on a television (1920x1080). They are taken on every run (and checked to be PNGs); with
// SPOOKLUDO_UPDATE_SCREENSHOTS=1 they are written into docs/screenshots/ (the committed ones the
// README shows), otherwise into a temporary directory. No pixel comparison.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverAndBrowser, newPage, PHONE, DESKTOP, roomCode, until, sleep, repo, answerDecisions } from './harness.js';
import { smallestText } from './tv_helpers.js';

const out = process.env.SPOOKLUDO_UPDATE_SCREENSHOTS === '1'
  ? path.join(repo, 'docs', 'screenshots')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-shots-'));
fs.mkdirSync(out, { recursive: true });

const party = serverAndBrowser(['--decision-ms', '30000']);
after(() => {
  if (process.env.SPOOKLUDO_UPDATE_SCREENSHOTS !== '1') fs.rmSync(out, { recursive: true, force: true });
});

async function shot(page, name) {
  // Nothing sticks out sideways on a phone.
  const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(width[0] <= width[1], `${name}: the page is ${width[0]} px wide in a ${width[1]} px window`);
  const file = path.join(out, name);
  await page.screenshot({ path: file });
  const head = fs.readFileSync(file).subarray(0, 8);
  assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name} is a PNG`);
}

test('screenshots on a phone: the lobby, a Spook decision, a monster, the Ludo board', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const ben = await newPage(party.browser, DESKTOP, errors);
  await ann.emulateMedia({ reducedMotion: 'reduce' });
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.fill('#create-players', '3');
  await ann.check('#create-hints');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  await ben.goto(`${party.server.base}/r/${code}`);
  await ben.fill('#join-name', 'Ben');
  await ben.click('#join-go');
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 3, 'three seated');
  await ann.selectOption('#set-pace', '2000');
  await until(async () => /2 s between steps/.test(await ann.locator('#lobby-settings').textContent()), 'the pace set');
  await shot(ann, 'lobby-phone.png');
  // The invitation: the join link, its QR code, the terminal's command.
  await ann.evaluate(() => document.querySelector('.invite').scrollIntoView({ block: 'start' }));
  await shot(ann, 'lobby-invite-phone.png');
  // The QR code on the page reads back as the join link (zbarimg, Debian's zbar-tools).
  const read = execFileSync('zbarimg', ['-q', '--raw', path.join(out, 'lobby-invite-phone.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.equal(read.trim(), `${party.server.base}/r/${code}`);

  await ann.click('#start');
  // Ben answers his own decisions all along (a round waits for everyone's choice).
  const stop = { value: false };
  const benPlays = answerDecisions(ben, async () => stop.value, { ms: 100000 }).catch((e) => e);
  // A decision with two different moves (hints on).
  const decision = ann.locator('#decision button.option:not([disabled])');
  await decision.first().waitFor({ timeout: 40000 });
  // Big buttons: at least 48 CSS px high, and named for a screen reader.
  // (Measured between redraws: a snapshot, such as who is still choosing, redraws the buttons.)
  const boxes = await until(async () => {
    const out = [];
    for (let i = 0; i < (await decision.count()); i++) {
      const box = await decision.nth(i).boundingBox();
      if (!box) return null;
      out.push(box);
    }
    return out.length ? out : null;
  }, 'the options measured');
  for (let i = 0; i < boxes.length; i++) {
    const box = boxes[i];
    assert.ok(box.height >= 48, `option ${i + 1} is ${box.height} px high`);
    assert.match(await decision.nth(i).getAttribute('aria-label'), new RegExp(`^Option ${i + 1}: piece \\d from \\d+ to `));
  }
  await ann.evaluate(() => window.scrollTo(0, 0));
  await shot(ann, 'spook-decision-phone.png');
  // The monster of a round: the squares it hits, where each piece went.
  await decision.first().click();
  await ann.locator('#activation').waitFor({ timeout: 20000 });
  await ann.evaluate(() => window.scrollTo(0, 0));
  await shot(ann, 'spook-activation-phone.png');
  await ann.click('#end-game');
  await ann.click('#confirm-yes');
  await ann.locator('#end-winner').waitFor();
  stop.value = true;
  await benPlays;

  // Ludo, arms of 8, four players: the board with a choice to tap.
  const lu = await newPage(party.browser, PHONE, errors);
  await lu.emulateMedia({ reducedMotion: 'reduce' });
  await lu.goto(party.server.base + '/');
  await lu.locator('#create summary').click();
  await lu.fill('#create-name', 'Ann');
  await lu.selectOption('#create-game', 'ludo');
  await lu.fill('#create-players', '4');
  await lu.click('#create-go');
  await roomCode(lu);
  for (const policy of ['best', 'greedy', 'random']) await lu.click(`#bot-${policy}`);
  await until(async () => (await lu.locator('#seats li:not(.free)').count()) === 4, 'four seated');
  await lu.click('#start');
  // Play on (tapping the first piece) until a choice between two pieces on the circuit.
  const end = Date.now() + 60000;
  for (;;) {
    assert.ok(Date.now() < end, 'no choice of two pieces within a minute');
    const movable = lu.locator('svg.ludo g.piece.movable');
    const n = await movable.count();
    if (n >= 2 && (await lu.locator('svg.ludo .target-num').count()) >= 2) break;
    if (n > 0) await movable.first().tap({ timeout: 1000 }).catch(() => {});
    await sleep(50);
  }
  await lu.locator('svg.ludo').scrollIntoViewIfNeeded();
  await lu.evaluate(() => window.scrollTo(0, 0));
  await shot(lu, 'ludo-board-phone.png');

  // The Home rules (arms of 6, safe squares, bonus throws, three 6s): the stars on the safe squares.
  const hr = await newPage(party.browser, PHONE, errors);
  await hr.emulateMedia({ reducedMotion: 'reduce' });
  await hr.goto(party.server.base + '/');
  await hr.locator('#create summary').click();
  await hr.fill('#create-name', 'Ann');
  await hr.selectOption('#create-game', 'ludo');
  await hr.fill('#create-players', '2');
  await hr.click('#create-home-rules');
  await hr.click('#create-go');
  await roomCode(hr);
  await hr.click('#bot-best');
  await until(async () => (await hr.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await hr.click('#start');
  // Play on a while (pieces out on the circuit), until a choice between two pieces is to be made.
  const enough = Date.now() + 20000;
  const until2 = Date.now() + 60000;
  for (let taps = 0; ; ) {
    assert.ok(Date.now() < until2, 'no choice of two pieces within a minute');
    const movable = hr.locator('svg.ludo g.piece.movable');
    const n = await movable.count();
    // (A game over first shows its final board, with the same stars.)
    if ((n >= 2 && (taps >= 10 || Date.now() > enough)) || (await hr.locator('#end-winner').count()) > 0) break;
    if (n > 0) await movable.first().tap({ timeout: 3000 }).then(() => taps++, () => {});
    await sleep(50);
  }
  assert.equal(await hr.locator('svg.ludo g.safe-star').count(), 8);
  await hr.locator('svg.ludo').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(hr, 'ludo-home-rules-phone.png');
  assert.deepEqual(errors, []);
});

// The shared screen on a television (1920x1080): its lobby (how to join, the seats filling), eight
// Spook boards while a player chooses, a monster waking, the end with the winners and places. At
// 1920x1080 and at 1280x720 the whole screen fits the window, and its smallest text is measured:
// at least 24 px at 1080p and 16 px at 720p (the README's host's guide gives the figures).
test('screenshots of the shared screen: lobby, decision, activation, end; its smallest text measured at 1080p and 720p', { timeout: 240000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const tv = await newPage(party.browser, { viewport: { width: 1920, height: 1080 } }, errors);
  await ann.emulateMedia({ reducedMotion: 'reduce' });
  await tv.emulateMedia({ reducedMotion: 'reduce' });
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.fill('#create-players', '8');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  await tv.goto(`${party.server.base}/tv/${code}`);
  for (let i = 0; i < 4; i++) await ann.click(`#bot-${['best', 'greedy', 'random', 'best'][i]}`);
  await until(async () => /Seats: 5 of 8 taken/.test(await tv.locator('.tv-seats h2').textContent()), 'five seated on the screen');
  const sizes = {};
  const measure = async (name) => {
    for (const [label, viewport] of [['1080p', { width: 1920, height: 1080 }], ['720p', { width: 1280, height: 720 }]]) {
      await tv.setViewportSize(viewport);
      const fits = await tv.evaluate(() => document.getElementById('screen').getBoundingClientRect().bottom <= window.innerHeight + 1 &&
        document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, `${name} at ${label}: the shared screen fits the window`);
      sizes[`${name} ${label}`] = await smallestText(tv);
    }
    await tv.setViewportSize({ width: 1920, height: 1080 });
  };
  await measure('lobby');
  await shot(tv, 'tv-lobby.png');
  for (let i = 0; i < 3; i++) await ann.click('#bot-best');
  await until(async () => /Seats: 8 of 8 taken/.test(await tv.locator('.tv-seats h2').textContent()), 'eight seated');
  await ann.selectOption('#set-pace', '1500');
  await until(async () => /1\.5 s between steps/.test(await ann.locator('#lobby-settings').textContent()), 'the pace set');
  await ann.click('#start');
  // Ann's decision: the screen shows whom the round waits for, and her time.
  await ann.locator('#decision button.option:not([disabled])').first().waitFor({ timeout: 60000 });
  await until(async () => /Still choosing \(\d+ s left\): Ann/.test(await tv.locator('#tv-choosing').textContent()), 'Ann choosing on the screen');
  await measure('decision');
  await shot(tv, 'tv-decision.png');
  await ann.locator('#decision button.option:not([disabled])').first().click();
  await tv.locator('#tv-activation').waitFor({ timeout: 20000 });
  await measure('activation');
  await shot(tv, 'tv-activation.png');
  // The rest at full speed: the game ended by the host, and a rematch played out.
  await ann.click('#end-game');
  await ann.click('#confirm-yes');
  await ann.locator('#end-close').click({ timeout: 10000 });
  await ann.selectOption('#set-pace', '0');
  await until(async () => /0 s between steps/.test(await ann.locator('#lobby-settings').textContent()), 'the pace set');
  await ann.click('#start');
  // Read in one step in the page: the ended game's end screen may still show a #tv-winner that the
  // new game's first step removes between a count and a read (a read that would wait 30 s for it).
  const won = async () => /wins|win together/.test(await tv.evaluate(() => document.getElementById('tv-winner')?.textContent ?? ''));
  // Ann's page runs with reduced motion (above), so a click need not wait for a button to hold
  // still: a loaded machine took over 60 s to click through an eight-seat game with the motion on.
  await answerDecisions(ann, won, { ms: 180000 });
  await measure('end');
  await shot(tv, 'tv-end.png');
  console.log(`the shared screen's smallest text: ${JSON.stringify(sizes)}`);
  for (const [what, { min, what: which }] of Object.entries(sizes)) {
    assert.ok(min >= (what.endsWith('1080p') ? 24 : 16), `${what}: ${min} px (${which})`);
  }
  assert.deepEqual(errors, []);
});
