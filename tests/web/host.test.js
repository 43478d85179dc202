// The host in a browser: seats and bots in the lobby, the start; in the game a pause that freezes
// every countdown, a kick (asked again first), and the end of the game (asked again first). A
// spectator's page follows the game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, PHONE, DESKTOP, roomCode, until, sleep, answerDecisions, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '30000']);

const taken = (page) => page.locator('#seats li:not(.free)').count();
const seatsShown = (page) => page.locator('#seats li').count();

test('the host adds bots and seats, starts, pauses (countdowns freeze), kicks and ends the game', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const ben = await newPage(party.browser, PHONE, errors);
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.fill('#create-players', '2');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  await ben.goto(`${party.server.base}/r/${code}`);
  await ben.fill('#join-name', 'Ben');
  await ben.click('#join-go');
  await until(async () => (await taken(ann)) === 2, 'Ben seated');

  // + and - seats, bots, removing a seat (asked again first).
  await ann.click('#seat-add');
  await until(async () => (await seatsShown(ann)) === 3, 'a third seat');
  await ann.click('#seat-add');
  await until(async () => (await seatsShown(ben)) === 4, 'a fourth seat, on Ben\'s page too');
  await ann.click('#seat-remove');
  await until(async () => (await seatsShown(ann)) === 3, 'back to three seats');
  await ann.click('#bot-greedy');
  await until(async () => (await taken(ann)) === 3, 'a greedy bot');
  assert.match(await ann.locator('#seats').textContent(), /greedy bot 1.*bot \(greedy\)/);
  await ann.click('#seat-add');
  await until(async () => (await seatsShown(ann)) === 4, 'a fourth seat again');
  await ann.click('#bot-best');
  await until(async () => (await taken(ann)) === 4, 'a best bot');
  await ann.locator('button[aria-label^="Remove seat 3"]').click();
  assert.ok(await ann.locator('#confirm').isVisible(), 'the page asks first');
  await ann.click('#confirm-no');
  assert.equal(await taken(ann), 4, '"No" removes nobody');
  await ann.locator('button[aria-label^="Remove seat 3"]').click();
  await ann.click('#confirm-yes');
  await until(async () => (await taken(ann)) === 3, 'seat 3 emptied');
  // The settings.
  await ann.selectOption('#set-decision', '20000');
  await until(async () => /20 s to choose/.test(await ben.locator('#lobby-settings').textContent()), 'the decision time on Ben\'s page');
  assert.equal(await ben.locator('#start').count(), 0, 'only the host has the controls');

  // A spectator joins before the start.
  const watcher = await newPage(party.browser, PHONE, errors);
  await watcher.goto(`${party.server.base}/r/${code}`);
  await watcher.click('#watch-go');
  await until(async () => /watching/.test(await watcher.locator('#bar').textContent()), 'the spectator in');

  await ann.click('#start');
  // Ann answers her own decisions until she kicks Ben (a round waits for everyone's choice).
  const stop = { value: false };
  const annPlays = answerDecisions(ann, async () => stop.value, { ms: 100000 }).catch((e) => e);
  // Pause while Ben has a decision: every countdown stands still.
  await ben.locator('#decision button.option').first().waitFor({ timeout: 30000 });
  await ann.click('#pause-game');
  await until(async () => /PAUSED/.test(await ben.locator('#bar').textContent()), 'Ben sees the pause');
  await until(async () => /Paused \(\d+ s left\)/.test(await ben.locator('#cd-text').textContent()), 'Ben\'s countdown says paused');
  const frozen = await ben.locator('#cd-text').textContent();
  const width = await ben.locator('#cd-fill').evaluate((e) => e.style.width);
  await sleep(1500);
  assert.equal(await ben.locator('#cd-text').textContent(), frozen);
  assert.equal(await ben.locator('#cd-fill').evaluate((e) => e.style.width), width);
  assert.match(await watcher.locator('#story').textContent(), /Ann paused the game/);
  await ann.click('#resume-game');
  await until(async () => !/PAUSED/.test(await ben.locator('#bar').textContent()), 'resumed');
  assert.match(await ben.locator('#story').textContent(), /Ann resumed the game/);

  stop.value = true;
  await annPlays;
  // Kick Ben (asked again first).
  await ann.locator('button[aria-label^="Kick Ben"]').click();
  await ann.click('#confirm-yes');
  await ben.locator('#home-message').waitFor({ timeout: 10000 });
  assert.equal(await ben.locator('#home-message').textContent(), `You were removed from room ${code} by the host.`);
  assert.equal(await ben.evaluate((c) => JSON.parse(localStorage.getItem('spookludo.seats') || '{}')[c], code), undefined, 'Ben\'s token is forgotten');
  await until(async () => /kicked/.test(await ann.locator('#standings').textContent()), 'the standings say kicked');

  // The spectator follows: boards, rounds, the kick.
  assert.ok((await watcher.locator('.others .board').count()) >= 3);
  await until(async () => /Ben \(seat 2\) was kicked: a best bot plays it/.test(await watcher.locator('#story').textContent()), 'the kick in the spectator\'s story');
  assert.equal(await watcher.locator('#decision').count(), 0, 'a spectator is never asked');

  // End the game: "No" carries on, "Yes" ends it.
  await ann.click('#end-game');
  await ann.click('#confirm-no');
  assert.equal(await ann.locator('#end-winner').count(), 0);
  await ann.click('#end-game');
  await ann.click('#confirm-yes');
  await ann.locator('#end-winner').waitFor({ timeout: 10000 });
  assert.match(await ann.locator('#end-winner').textContent(), /The game was abandoned/);
  await watcher.locator('#end-winner').waitFor({ timeout: 10000 });
  const link = await ann.locator('#end-record').getAttribute('href');
  const file = party.server.recordFile(link.split('/').pop());
  await until(() => fs.existsSync(file), 'the record of the abandoned game');
  const v = await party.server.verify(file);
  assert.equal(v.code, 0, v.out);
  // Back to the room's lobby for a rematch.
  await ann.click('#end-close');
  await ann.locator('#start').waitFor();
  assert.deepEqual(errors, []);
});

test('a spectator page follows a whole game to its end', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.fill('#create-players', '2');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  await ann.click('#bot-best');
  await until(async () => (await taken(ann)) === 2, 'the bot seated');
  await ann.click('#start');
  await ann.locator('#standings').waitFor({ timeout: 20000 });
  // A latecomer who asks for a seat after the start watches.
  const late = await newPage(party.browser, PHONE, errors);
  await late.goto(`${party.server.base}/r/${code}`);
  await late.fill('#join-name', 'Cid');
  await late.click('#join-go');
  await until(async () => /watching/.test(await late.locator('#bar').textContent()), 'the latecomer watching');
  assert.match(await late.locator('#story').textContent(), new RegExp(`You are watching room ${code}`));
  await late.locator('.others .board').first().waitFor();
  const over = async () => (await late.locator('#end-winner').count()) > 0;
  await answerDecisions(ann, over, { ms: 100000 });
  // One winner, or two together (both finished in the same round).
  assert.match(await late.locator('#end-winner').textContent(), /^(Ann|best bot 1)( and (Ann|best bot 1) win together| wins) after \d+ rounds?\.$/);
  assert.match(await late.locator('#story').textContent(), /Round \d+: the die shows/);
  assert.deepEqual(errors, []);
});
