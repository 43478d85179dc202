// A whole Spook & Werewolf game: two people in browsers (a phone, tapping the option buttons, and
// a desktop, choosing with the keyboard's number keys) and a terminal bot (`spookludo bot`); the
// record verifies, and both end screens name the record's winners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, PHONE, DESKTOP, roomCode, answerDecisions, until, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '15000']);

test('two browser players and a terminal bot play a whole Spook game; the record verifies; the end screens name its winners', { timeout: 150000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const ben = await newPage(party.browser, DESKTOP, errors);

  // Ann creates a room of three seats on her phone.
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.selectOption('#create-game', 'spook');
  await ann.fill('#create-players', '3');
  await ann.check('#create-hints');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  assert.match(code, /^[A-HJKMNP-Z]{5}$/);
  // The lobby shows the join link and the terminal command.
  assert.equal(await ann.locator('#join-link').textContent(), `${party.server.base}/r/${code}`);
  assert.match(await ann.locator('#join-command').textContent(), new RegExp(`^spookludo play ws://127\\.0\\.0\\.1:\\d+ --room ${code} --name YOUR_NAME$`));

  // Ben follows the link on his laptop.
  await ben.goto(`${party.server.base}/r/${code}`);
  await ben.fill('#join-name', 'Ben');
  await ben.click('#join-go');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, "Ben's seat in Ann's lobby");

  // A terminal bot takes the third seat.
  const bot = party.server.bot('bot', ['--room', code, '--count', '1', '--policy', 'best']);
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 3, "the bot's seat in Ann's lobby");
  assert.match(await ben.locator('#waiting').textContent(), /Waiting for Ann \(host\) to start/);

  await ann.click('#start');
  const over = async () => (await ann.locator('#end-winner').count()) > 0 && (await ben.locator('#end-winner').count()) > 0;
  const [a, b] = await Promise.all([answerDecisions(ann, over, { ms: 120000 }), answerDecisions(ben, over, { ms: 120000, pick: 1, keys: true })]);
  assert.ok(a + b > 0, 'the browsers were asked and answered at least once');

  // The bot saw the end; the record verifies.
  await bot.waitFor(/game_over (\S+) finished record (\S+)/, 20000);
  const gameId = /game_over (\S+) finished/.exec(bot.out)[1];
  const file = party.server.recordFile(gameId);
  await until(() => fs.existsSync(file), 'the record file');
  const verified = await party.server.verify(file);
  assert.equal(verified.code, 0, verified.out);
  assert.match(verified.out, /VERIFIED/);
  // Its address on the end screen verifies too.
  const link = await ann.locator('#end-record').getAttribute('href');
  assert.equal(link, `${party.server.base}/records/${gameId}`);
  assert.match(await ann.locator('#end-verify').textContent(), new RegExp(`^spookludo verify ${link.replace(/[.]/g, '\\.')}$`));
  // The game's replay and analysis, one link away on both end screens.
  for (const page of [ann, ben]) assert.equal(await page.locator('#end-replay').getAttribute('href'), `/replay/${gameId}`);

  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  const names = record.result.winners.map((w) => record.seats.find((s) => s.seat === w).name);
  for (const page of [ann, ben]) {
    const text = await page.locator('#end-winner').textContent();
    for (const n of names) assert.ok(text.includes(n), `"${text}" names the winner ${n}`);
    const others = record.seats.map((s) => s.name).filter((n) => !names.includes(n));
    for (const n of others) assert.ok(!text.includes(n), `"${text}" does not name ${n}`);
  }
  // The story told the game in words (its last 200 lines are kept).
  const story = await ben.locator('#story').textContent();
  assert.ok(/Round \d+: the die shows \d/.test(story), 'the rounds are told');
  assert.ok(/it's the (Wizard's Hat|Black Cat|Spook|Werewolf|Witch)!/.test(story), 'the monsters are told');
  assert.ok(/Game over! .* after \d+ rounds?\./.test(story), 'the end is told');
  // A page refreshed after the end (a phone that slept through it) still shows how it ended:
  // the lobby's snapshot carries the last game.
  await ben.reload();
  await ben.locator('#end-winner').waitFor({ timeout: 15000 });
  const again = await ben.locator('#end-winner').textContent();
  for (const n of names) assert.ok(again.includes(n), `after a refresh, "${again}" names the winner ${n}`);
  await bot.wait(10000);
  assert.deepEqual(errors, []);
});
