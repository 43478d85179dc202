// More time for slower hands in a browser: the host sets x2 in the lobby (every page says so), a
// player asks for more time mid-game (the host's story says so), the host lifts the limit (the
// player's countdown says "no time limit"), then hurries the player (a countdown again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, roomCode, until, sleep, answerDecisions, serverAndBrowser } from './harness.js';

// 15 s to choose: each step below fits in a hurried decision's time on a loaded machine too.
const party = serverAndBrowser(['--decision-ms', '15000']);

test('the host gives x2 in the lobby, a player asks for more time, the host lifts the limit and then hurries them', { timeout: 150000 }, async () => {
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
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'Ben seated');

  // The lobby: x2, shown on Ben's page; Ben has no host controls.
  await ann.selectOption('#set-time-factor', '2');
  await until(async () => /More time to choose: x2/.test(await ben.locator('#lobby-time-factor').textContent()), 'x2 on Ben\'s page');
  assert.equal(await ben.locator('#set-time-factor').count(), 0, 'only the host sets it');
  assert.match(await ann.locator('#story').textContent(), /Ann gave everyone more time to choose: x2/);

  await ann.click('#start');
  const stop = { value: false };
  const annPlays = answerDecisions(ann, async () => stop.value, { ms: 120000 }).catch((e) => e);
  await ben.locator('#decision button.option').first().waitFor({ timeout: 60000 });
  // x2 of 15 s.
  await until(async () => {
    const m = /Choose within (\d+) s/.exec(await ben.locator('#cd-text').textContent());
    return m && Number(m[1]) > 15 && Number(m[1]) <= 30;
  }, 'Ben\'s countdown counts from 30 s');

  // Ben asks; the host's page shows it; Ben's button waits.
  await ben.click('#ask-time');
  await until(async () => /Ben asks for more time to choose/.test(await ann.locator('#story').textContent()), 'the host sees the ask');
  assert.ok(await ben.locator('#ask-time').isDisabled(), 'asked once: the button waits');
  assert.doesNotMatch(await ben.locator('#story').textContent(), /Ben asks for more time/, 'the ask goes to the host only');

  // No limit: Ben's decision stays, with no countdown.
  await ann.selectOption('#time-factor-game', '0');
  await until(async () => /No time limit/.test(await ben.locator('#cd-text').textContent()), 'no limit on Ben\'s page');
  assert.match(await ben.locator('#story').textContent(), /Ann lifted the time limit/);

  // The host hurries Ben: a countdown again, of the room's decision time.
  const hurry = ann.locator('#hurry-1');
  await hurry.waitFor({ timeout: 10000 });
  assert.match(await hurry.getAttribute('aria-label'), /Hurry Ben \(seat 2\)/);
  await hurry.click();
  await until(async () => /the host hurries Ben: 15 s left to choose/.test(await ben.locator('#story').textContent()), 'Ben is told');
  await until(async () => {
    const m = /Choose within (\d+) s/.exec(await ben.locator('#cd-text').textContent());
    return m && Number(m[1]) <= 15;
  }, 'Ben\'s countdown from 15 s');
  await ben.locator('#decision button.option:not([disabled])').first().click();
  // Chosen in time: the countdown is gone (his choice sent, or his next decision, without a limit again).
  await until(async () => !/Choose within/.test((await ben.locator('#cd-text').textContent().catch(() => '')) || ''), 'Ben chose');
  assert.doesNotMatch(await ben.locator('#story').textContent(), /Time's up/);

  stop.value = true;
  await annPlays;
  await sleep(100);
  assert.deepEqual(errors, []);
});
