// A spectator's page: it watches a game to its end, then takes a free seat for the rematch with a
// name (join_room from the watching connection), and after leaving the first screen's room-code
// field holds the room's code (issue 34, item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, roomCode, until, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '30000']);

test('a spectator takes a free seat for the rematch, and after leaving the room code is still in the field', { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const sam = await newPage(party.browser, PHONE, errors);
  // Ann hosts 3 seats of 1-piece Spook (no choices: the game plays itself at pace 0) with a bot.
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.fill('#create-players', '3');
  await ann.selectOption('#create-pieces', '1');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');

  await sam.goto(`${party.server.base}/r/${code}`);
  await sam.click('#watch-go');
  await until(async () => /1 spectator/.test(await ann.locator('#screen').textContent()), 'Sam watching');
  await ann.click('#start');
  // The game ends; Sam's page shows the result, then the room's lobby for the rematch.
  await sam.locator('#end-close').click({ timeout: 60000 });
  await ann.locator('#end-close').click({ timeout: 10000 });
  await until(async () => (await sam.evaluate(() => document.body.dataset.screen)) === 'lobby', 'the rematch lobby');
  assert.match(await sam.locator('#bar').textContent(), /watching/);

  // Seat 3 is free: the page offers a seat with a name field.
  await sam.fill('#seat-name', 'Ann');
  await sam.click('#seat-go');
  await until(async () => /taken/.test(await sam.locator('#seat-error').textContent()), 'a taken name refused');
  assert.match(await sam.locator('#bar').textContent(), /watching/, 'refused, Sam still watches');
  await sam.fill('#seat-name', 'Sam');
  await sam.click('#seat-go');
  await until(async () => /you: Sam \(seat 3\)/.test(await sam.locator('#bar').textContent()), 'Sam seated at seat 3');
  await until(async () => /Sam/.test(await ann.locator('#seats li[data-seat="2"]').textContent()), 'Ann sees Sam at seat 3');
  assert.equal(await ann.locator('#screen').textContent().then((t) => /\d+ spectators?\b/.test(t)), false, 'no spectator left');
  assert.equal(await sam.locator('#take-seat').count(), 0);

  // Leaving: the first screen's room-code field holds the room's code.
  await sam.click('#leave');
  await sam.locator('#join-code').waitFor({ timeout: 10000 });
  assert.equal(await sam.locator('#join-code').inputValue(), code);
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'seat 3 free again');
  assert.deepEqual(errors, []);
});
