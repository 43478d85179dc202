// A game's replay (/replay/<game id>) and the history's pages (/history, /history/player/<name>)
// in real Chromium, over games that terminal bots played to the end on the real server: the
// replay steps forward and back, by round or turn, with the keyboard and the slider; its last step
// shows the record's final positions and winners; a decision reads with its cost (the analysis
// route, GET /analysis/<id>), and while the server refuses the analysis (429) the replay works
// from the record alone and says why; the history lists the games with working replay links, a
// player's page their games and wins; an unknown game's replay says there is no such game. Pictures of the
// replay with an annotated decision on a desktop (written into docs/screenshots/ with
// SPOOKLUDO_UPDATE_SCREENSHOTS=1, like screenshots.test.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverAndBrowser, startServer, newPage, DESKTOP, PHONE, until, repo } from './harness.js';
import { unwrappedTexts } from './text_check.js';

const party = serverAndBrowser();
const out = process.env.SPOOKLUDO_UPDATE_SCREENSHOTS === '1' ? path.join(repo, 'docs', 'screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-replay-'));
after(() => {
  if (process.env.SPOOKLUDO_UPDATE_SCREENSHOTS !== '1') fs.rmSync(out, { recursive: true, force: true });
});

// A whole game of terminal bots (random: their choices cost something), its id and record.
async function botGame(label, args, server = party.server) {
  const bot = server.bot(label, [...args, '--policy', 'random', '--start', '--quiet']);
  const m = await bot.waitFor(/game_over (\S+) finished/, 30000);
  const file = server.recordFile(m[1]);
  await until(() => fs.existsSync(file), 'the record file');
  await bot.wait(10000);
  return { id: m[1], record: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

let spook;
let ludo;
async function games() {
  if (!spook) {
    [spook, ludo] = await Promise.all([
      botGame('spook', ['--create', 'spook', '--players', '2', '--count', '2', '--name', 'Ann']),
      // Four players on arms of 6: the chance to win is known there (docs/analysis.md).
      botGame('ludo', ['--create', 'ludo', '--players', '4', '--arm', '6', '--count', '4', '--name', 'Ben'])]);
  }
}

const text = async (page, sel) => (await page.locator(sel).textContent()).trim();
// Nothing sticks out sideways (a phone).
async function fits(page, what) {
  const [width, window] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(width <= window, `${what}: the page is ${width} px wide in a ${window} px window`);
}
const where = (page) => text(page, '#replay-where');

// Waits until the analysis has come (or the page says why it has not).
async function analysed(page) {
  await until(async () => page.locator('#replay-summary').count().then((n) => n > 0), 'the analysis on the page', 30000);
}

test('Spook: a finished bot game replays step by step, by round, with the keys and the slider; the last step shows the final positions and the winner; a costly decision reads with its cost in rounds', { timeout: 90000 }, async () => {
  await games();
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await page.goto(`${party.server.base}/replay/${spook.id}`);
  await page.locator('#replay-slider').waitFor();
  await analysed(page);
  const total = Number(await page.locator('#replay-slider').getAttribute('max')) + 1;
  assert.match(await where(page), new RegExp(`^Step 1 of ${total}: The start$`));
  assert.match(await text(page, '#replay-step'), /The boards are dealt/);
  // A step forward: round 1's movement roll, everyone's move told.
  await page.click('#replay-next');
  assert.match(await where(page), new RegExp(`^Step 2 of ${total}: Round 1$`));
  assert.match(await text(page, '#replay-step'), /^Round 1: the die shows \d\. Everyone moves one piece/);
  await page.click('#replay-back');
  assert.match(await where(page), /^Step 1 of/);
  // By round: the first step of round 1, then of round 2; back to round 1's first step.
  await page.click('#replay-next-group');
  await page.click('#replay-next-group');
  assert.match(await where(page), /Round 2$/);
  assert.match(await text(page, '#replay-step'), /^Round 2: the die shows/);
  await page.click('#replay-back-group');
  assert.match(await where(page), /^Step 2 of .*Round 1$/);
  // The keys: → a step, Shift+→ a round, End, Home.
  await page.locator('#replay-moment').click();
  await page.keyboard.press('ArrowRight');
  assert.match(await where(page), /^Step 3 of .*Round 1$/);
  await page.keyboard.press('Shift+ArrowRight');
  assert.match(await where(page), /Round 2$/);
  await page.keyboard.press('End');
  assert.match(await where(page), new RegExp(`^Step ${total} of ${total}`));
  await page.keyboard.press('Home');
  assert.match(await where(page), /^Step 1 of/);
  // The slider to the end: the record's final squares on every board, its winner named.
  await page.locator('#replay-slider').fill(String(total - 1));
  assert.match(await where(page), new RegExp(`^Step ${total} of ${total}: Round ${spook.record.result.length}$`));
  const final = spook.record.positions.at(-1).position.split(' ');
  const boards = page.locator('#replay-boards .other h4 .small');
  assert.equal(await boards.count(), final.length);
  for (let seat = 0; seat < final.length; seat++) {
    const squares = final[seat].split(',').map((s) => (Number(s) >= 40 ? 'church' : s)).join(', ');
    assert.equal(await boards.nth(seat).textContent(), `at ${squares}`);
  }
  // Every winner named (two pieces home in the same round is a shared win: "Ann-1 and Ann-2 win
  // together after 36 rounds.").
  const winners = spook.record.result.winners.map((w) => spook.record.seats[w].name);
  const result = await text(page, '#replay-result');
  const rounds = `after ${spook.record.result.length} round${spook.record.result.length === 1 ? '' : 's'}.`;
  if (winners.length === 1) assert.equal(result, `${winners[0]} wins ${rounds}`);
  else {
    assert.ok(result.endsWith(`win together ${rounds}`), result);
    for (const w of winners) assert.ok(result.includes(w), `${w} named in: ${result}`);
  }
  // The costliest choice of a player whose choices cost something: its step shows the decision,
  // its cost in rounds and what that means, its options marked on the board.
  const worst = page.locator('a.replay-worst').first();
  assert.ok(await worst.count(), 'random bots made a costly choice');
  await worst.click();
  const costly = page.locator('.replay-decision.is-costly').first();
  await costly.waitFor();
  assert.match(await costly.locator('.chose').textContent(), /^Ann-\d chose piece \d: \d+ → (\d+|church)\.$/);
  assert.match(await costly.locator('.cost').textContent(), /^Cost: \d+\.\d rounds\.$/);
  assert.match(await costly.locator('.meaning').textContent(), /rounds later than the best one would/);
  assert.ok(await page.locator('#replay-boards .sq.target').count() >= 1, 'the options are marked on the board');
  await page.screenshot({ path: path.join(out, 'replay-spook.png') });
  // Play runs by itself and stops at the end; space pauses.
  await page.selectOption('#replay-speed', '250');
  await page.locator('#replay-moment').click();
  await page.keyboard.press('Space');
  await until(async () => (await page.locator('#replay-play').getAttribute('aria-pressed')) === 'true', 'playing');
  const at = await where(page);
  await until(async () => (await where(page)) !== at, 'the replay moving by itself');
  await page.keyboard.press('Space');
  assert.equal(await page.locator('#replay-play').getAttribute('aria-pressed'), 'false');
  assert.deepEqual(errors, []);
});

test('Ludo: a finished bot game of four replays by throw and by turn; the last step shows the winner\'s four pieces home; a decision reads with its cost in percentage points', { timeout: 90000 }, async () => {
  await games();
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await page.goto(`${party.server.base}/replay/${ludo.id}`);
  await page.locator('#replay-slider').waitFor();
  await analysed(page);
  const total = Number(await page.locator('#replay-slider').getAttribute('max')) + 1;
  assert.match(await text(page, '#replay-step'), / starts\.$/);
  await page.click('#replay-next');
  assert.match(await where(page), /^Step 2 of .*: Throw 1$/);
  assert.match(await text(page, '#replay-step'), /throws a \d\./);
  // By turn: to the next player's first throw.
  await page.locator('#replay-moment').click();
  await page.keyboard.press('PageDown');
  const turn = await text(page, '#replay-step');
  const thrower = /^(\S+) \(/.exec(turn)[1];
  await page.keyboard.press('ArrowLeft');
  assert.notEqual(/^(\S+) \(/.exec(await text(page, '#replay-step'))[1], thrower, 'a turn back is the other player\'s throw');
  await page.locator('#replay-slider').fill(String(total - 1));
  const winner = ludo.record.seats[ludo.record.result.winners[0]].name;
  assert.match(await text(page, '#replay-result'), new RegExp(`^${winner} wins after`));
  const home = await page.locator('#replay-boards svg.ludo g.piece[aria-label$="the home triangle"]').count();
  assert.ok(home >= 4, `the winner's four pieces home (${home})`);
  // The costliest choice: its cost in percentage points of the chance to win, each option's chance.
  const worst = page.locator('a.replay-worst').first();
  assert.ok(await worst.count(), 'random bots made a costly choice');
  await worst.click();
  const costly = page.locator('.replay-decision.is-costly').first();
  await costly.waitFor();
  assert.match(await costly.locator('.cost').textContent(), /^Cost: \d+\.\d percentage points less chance to win\.$/);
  assert.match(await costly.locator('.replay-options li.chosen').textContent(), /\d+\.\d % chance to win/);
  assert.match(await text(page, '#replay-summary'), /At the start: \d+\.\d % chance to win\./);
  await page.screenshot({ path: path.join(out, 'replay-ludo.png') });
  assert.deepEqual(errors, []);
});

test('the history lists the games with working replay links, filters by game, a player\'s page their games and wins; an unknown game\'s replay says it does not exist; every text in the reader\'s language', { timeout: 60000 }, async () => {
  await games();
  const errors = [];
  const page = await newPage(party.browser, PHONE, errors);
  await page.goto(`${party.server.base}/history`);
  await page.locator('#history-games').waitFor();
  assert.equal(await page.locator('#history-games > li').count(), 2);
  await fits(page, 'the history on a phone');
  assert.match(await text(page, '#history-count'), /^2 games, newest first \(page 1 of 1\)\.$/);
  await page.locator(`#history-games > li[data-game="${spook.id}"] a.replay-link`).click();
  await page.waitForURL(`**/replay/${spook.id}`);
  await page.locator('#replay-slider').waitFor();
  await analysed(page);
  await fits(page, 'the replay on a phone');
  // A filter is an address of its own.
  await page.goto(`${party.server.base}/history`);
  await page.locator('.history-filters summary').click(); // folded on a phone
  await page.selectOption('#history-game', 'ludo');
  await page.click('#history-go');
  await page.waitForURL('**/history?game=ludo');
  await page.locator('#history-games').waitFor();
  assert.deepEqual(await page.locator('#history-games > li').evaluateAll((els) => els.map((e) => e.dataset.game)), [ludo.id]);
  // A player's page: their games, wins and places.
  const ann = spook.record.seats[spook.record.result.winners[0]].name;
  await page.locator('#bar-history').click();
  await page.locator(`#history-games > li[data-game="${spook.id}"] a.history-player`, { hasText: ann }).click();
  await page.waitForURL(`**/history/player/${ann}`);
  await page.locator('#player-total').waitFor();
  assert.equal(await text(page, '#player-total'), '1 game, 1 won.');
  assert.equal(await text(page, '#player-stats tbody th'), 'Spook & Werewolf Ludo');
  await fits(page, "a player's page on a phone");
  assert.deepEqual(await page.locator('#history-games > li').evaluateAll((els) => els.map((e) => e.dataset.game)), [spook.id]);
  await page.goto(`${party.server.base}/history/player/Nobody%20here`);
  await page.locator('#player-unknown').waitFor();
  assert.match(await text(page, '#player-unknown'), /No game of a player named Nobody here is kept/);
  // An unknown game.
  await page.goto(`${party.server.base}/replay/NOPE-1764489600000-00000000`);
  await page.locator('#replay-missing').waitFor();
  assert.match(await text(page, '#replay-missing'), /There is no game NOPE-1764489600000-00000000 on this server/);
  // The pseudo-language: nothing on these pages escapes the catalogue.
  const names = [...spook.record.seats, ...ludo.record.seats].map((s) => s.name);
  for (const address of [`/replay/${spook.id}?lang=qps`, `/replay/${ludo.id}?lang=qps`, '/history?lang=qps', `/history/player/${ann}?lang=qps`]) {
    await page.goto(party.server.base + address);
    await page.locator(address.startsWith('/replay') ? '#replay-slider' : '#history-games').waitFor();
    if (address.startsWith('/replay')) await analysed(page);
    assert.deepEqual(await unwrappedTexts(page, { allow: [...names, spook.id, ludo.id] }), [], address);
  }
  assert.deepEqual(errors, []);
});

test('while the server refuses the analysis for now (429), the replay works from the record alone and says why', { timeout: 60000 }, async () => {
  // One analysis a minute for an address: the first is made, the second refused.
  const server = await startServer(['--analyses-per-minute', '1']);
  try {
    const [first, second] = await Promise.all([
      botGame('first', ['--create', 'spook', '--players', '2', '--count', '2', '--name', 'Cid'], server),
      botGame('second', ['--create', 'spook', '--players', '2', '--count', '2', '--name', 'Dee'], server)]);
    assert.equal((await fetch(`${server.base}/analysis/${first.id}`)).status, 200);
    const errors = [];
    const page = await newPage(party.browser, DESKTOP, errors);
    await page.goto(`${server.base}/replay/${second.id}`);
    await page.locator('#replay-slider').waitFor();
    await until(async () => /refuses the analysis for now/.test(await text(page, '#replay-analysis')), 'the refusal said', 15000);
    assert.match(await text(page, '#replay-analysis'), /\(this address asked for 1 analys.*\); it is asked again in \d+ s\. Meanwhile the replay shows the position after each round\.$/);
    // A step a round, from the record: the boards and the end as the record has them.
    await page.click('#replay-next');
    assert.match(await where(page), /^Step 2 of \d+: Round 1$/);
    await page.keyboard.press('End');
    assert.equal(await page.locator('#replay-slider').getAttribute('max'), String(second.record.positions.length));
    const winner = second.record.seats[second.record.result.winners[0]].name;
    assert.match(await text(page, '#replay-result'), new RegExp(`^${winner} wins after`));
    assert.equal(await page.locator('#replay-summary').count(), 0);
    await page.close();
    assert.deepEqual(errors, []);
  } finally {
    await server.stop();
  }
});
