// Classic Ludo's house rules on the page (docs/rules.md, "House rules"): the host sets the Home
// rules with one tap and a guest's lobby lists them; the game is played to its end with a star on
// every safe square (a shape with its words, not a colour), the story tells a bonus throw or a safe
// square, and the end screen's own check of the dice says fair. A teams game (four seats, bots)
// on the Home rules names the partners in the lobby and ends with the team's win; a refused
// change says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, until, answerDecisions, serverAndBrowser } from './harness.js';
import { createRoom, joinRoom } from './tv_helpers.js';
import { diceVerdict } from './dice_helpers.js';

// No pause between steps: the game waits only for the players' choices, answered at once.
const party = serverAndBrowser(['--decision-ms', '20000']);

const HOME = 'Home rules: safe squares, bonus throws, three 6s end the turn';

// The stars of the board on `page`: their count and labels.
const stars = (page) => page.locator('svg.ludo g.safe-star').evaluateAll((els) => els.map((e) => ({
  label: e.getAttribute('aria-label'), title: e.querySelector('title')?.textContent, star: Boolean(e.querySelector('polygon.star')) })));

test('the host taps Home rules, a guest sees them, and the game ends with stars on the safe squares, a bonus throw told and fair dice', { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { game: 'ludo', players: 2 });
  await ann.click('#opt-home-rules');
  await until(async () => (await ann.locator('#lobby-rules').textContent().catch(() => '')) === HOME, 'the Home rules set');
  assert.match(await ann.locator('#lobby-game').textContent(), /arms of 6, a 6 puts a piece on its start square/);
  assert.equal(await ann.locator('#opt-home-rules').getAttribute('aria-pressed'), 'true');
  assert.ok(await ann.locator('#opt-safe-squares').isChecked());
  // Teams need four seats: the box says why it cannot be ticked.
  assert.ok(await ann.locator('#opt-teams').isDisabled());
  assert.equal(await ann.locator('#opt-teams-why').textContent(), 'teams need 4 seats');

  const ben = await newPage(party.browser, PHONE, errors);
  await joinRoom(ben, party.server.base, code, 'Ben');
  assert.equal(await ben.locator('#lobby-rules').textContent(), HOME);
  await ann.click('#start');
  await ann.locator('svg.ludo').waitFor({ timeout: 20000 });
  for (const page of [ann, ben]) {
    const marks = await stars(page);
    assert.equal(marks.length, 8, 'four start squares and four stars');
    assert.equal(marks.filter((m) => m.label === 'safe square: a star, no capture here').length, 4);
    assert.ok(marks.every((m) => /^safe square/.test(m.label) && m.title === m.label && m.star), JSON.stringify(marks));
  }

  // Both play every choice as it comes; the story is read as it goes (it keeps its last lines).
  let told = '';
  const over = async (page) => (await page.locator('#end-winner').count()) > 0;
  const watch = async () => {
    if (!told) told = ((await ben.locator('#story').textContent().catch(() => '')).match(/[^.]*(a bonus throw for the (capture|piece home)|lands on a safe square)[^.]*\./) || [''])[0];
    return over(ben);
  };
  await Promise.all([answerDecisions(ann, () => over(ann), { ms: 80000, keys: true }), answerDecisions(ben, watch, { ms: 80000, keys: true })]);
  if (!told) told = ((await ben.locator('#story').textContent()).match(/a bonus throw for the (capture|piece home)|lands on a safe square/) || [''])[0];
  assert.ok(told, 'the story told a bonus throw or a landing on a safe square');
  assert.equal((await stars(ann)).length, 8, "the end screen's board has its stars");
  for (const page of [ann, ben]) assert.equal((await diceVerdict(page)).verdict, 'fair');
  assert.deepEqual(errors, []);
});

test('a teams game: the lobby names the partners, a seat less is refused with the reason, and the team wins together', { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.selectOption('#create-game', 'ludo');
  await ann.fill('#create-players', '3');
  assert.ok(await ann.locator('#create-teams').isDisabled());
  assert.equal(await ann.locator('#create-teams-why').textContent(), 'teams need 4 seats');
  await ann.fill('#create-players', '4');
  // The Home rules (the shorter board, bonus throws: a shorter game) and teams on top.
  await ann.click('#create-home-rules');
  await ann.check('#create-teams');
  await ann.click('#create-go');
  await until(async () => (await ann.locator('#lobby-rules').count()) > 0, 'the lobby');
  assert.equal(await ann.locator('#lobby-rules').textContent(), 'House rules: safe squares, bonus throws, three 6s end the turn, teams');
  // A seat less would leave three: the server refuses, and the page says why.
  await ann.click('#seat-remove');
  await until(async () => (await ann.locator('#opt-error').textContent()) === 'Teams are two against two: they need 4 seats.', 'the refusal told');
  for (let n = 2; n <= 4; n++) {
    await ann.click('#bot-best');
    await until(async () => (await ann.locator('#seats li:not(.free)').count()) === n, `bot ${n - 1} seated`);
  }
  const teams = await ann.locator('#lobby-teams').textContent();
  assert.match(teams, /^Teams: Ann \+ best bot \d against best bot \d \+ best bot \d$/);

  const sam = await newPage(party.browser, PHONE, errors);
  await sam.goto(`${party.server.base}/r/${await ann.locator('#bar-room').textContent()}`);
  await sam.click('#watch-go');
  await until(async () => /1 spectator/.test(await ann.locator('#screen').textContent()), 'Sam watching');
  await ann.click('#start');
  await ann.locator('#standings .partner').first().waitFor({ timeout: 20000 });
  assert.match(await ann.locator('#standings').textContent(), /team with best bot \d/);
  await answerDecisions(ann, async () => (await ann.locator('#end-winner').count()) > 0, { ms: 80000, keys: true });
  const partner = teams.match(/^Teams: Ann \+ (best bot \d)/)[1];
  for (const page of [ann, sam]) {
    await page.locator('#end-winner').waitFor({ timeout: 20000 });
    const winner = await page.locator('#end-winner').textContent();
    assert.match(winner, /^(Ann and best bot \d|best bot \d and best bot \d) win as a team after \d+ turns\.$/);
    if (winner.startsWith('Ann')) assert.ok(winner.startsWith(`Ann and ${partner}`), winner);
  }
  assert.match(await sam.locator('#story').textContent(), /win as a team!/);
  assert.deepEqual(errors, []);
});
