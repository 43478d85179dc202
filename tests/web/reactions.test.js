// Quick reactions on the page (issue 36, part 4): a player's reaction shows on the other players'
// pages beside the sender's name and in a bubble for a few seconds; the buttons wait the server's
// 2 s after each; a page that mutes reactions shows none, and remembers it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, until, sleep, serverAndBrowser } from './harness.js';
import { createRoom, joinRoom } from './tv_helpers.js';

const party = serverAndBrowser(['--decision-ms', '30000']);

const badge = (page, seat) => page.locator(`#seats li[data-seat="${seat}"] .reaction-badge`);
const bubbles = (page) => page.locator('#reaction-bubbles').textContent();

test('a reaction shows beside the sender\'s name and in a bubble on the other page, the buttons wait 2 s, and a muted page shows none', { timeout: 60000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const ben = await newPage(party.browser, PHONE, errors);
  // The pages run on Playwright's clock (as the wall clock, until the test stops it): the 2 s
  // the buttons wait and the 3 s a reaction shows are looked at on stopped clocks, which a loaded
  // machine's slow steps cannot outrun.
  await Promise.all([ann.clock.install(), ben.clock.install()]);
  const sent = []; // the reactions Ben's page sends
  ben.on('websocket', (ws) => ws.on('framesent', (f) => {
    if (String(f.payload).includes('"react"')) sent.push(JSON.parse(String(f.payload)).reaction);
  }));
  const code = await createRoom(ann, party.server.base, { players: 2 });
  await joinRoom(ben, party.server.base, code, 'Ben');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'Ben seated');
  // The room's shared screen (/tv/CODE) shows the reactions too.
  const tv = await newPage(party.browser, { viewport: { width: 1280, height: 720 } }, errors);
  await tv.clock.install();
  await tv.goto(`${party.server.base}/tv/${code}`);
  await until(async () => (await tv.locator('#tv-seats').count()) === 1, 'the shared screen\'s lobby');

  // Eight buttons, each named for a screen reader, reachable with the keyboard.
  const phew = ben.locator('#reactions button[data-reaction="phew"]');
  assert.equal(await ben.locator('#reactions button[data-reaction]').count(), 8);
  assert.equal(await phew.getAttribute('aria-label'), 'React: phew');
  // The clocks stop (a stopped clock may only go forward: a moment ahead of the wall clock).
  const stopAt = Date.now() + 1000;
  await Promise.all([ann, ben, tv].map((p) => p.clock.pauseAt(stopAt)));
  await phew.focus();
  await ben.keyboard.press('Enter');
  // Within 2 s the buttons say they wait, and a click sends nothing.
  assert.equal(await phew.getAttribute('aria-disabled'), 'true');
  await ben.click('#reactions button[data-reaction="nooo"]', { force: true }); // aria-disabled: forced, as a hurried thumb would
  await until(async () => (await badge(ann, 1).count()) === 1, 'the reaction beside Ben\'s name on Ann\'s page', 5000);
  const seen = Date.now(); // the server had taken it by then
  assert.equal(await badge(ann, 1).textContent(), 'phew');
  assert.match(await bubbles(ann), /Ben: phew/);
  assert.equal(await badge(ann, 0).count(), 0, 'nothing beside Ann\'s own name');
  await until(async () => /Ben: phew/.test(await tv.locator('#tv-reactions').textContent()), 'the reaction on the shared screen', 5000);
  // The shared screen's own switch hides them there.
  await tv.click('#tv-react-mute', { force: true });
  assert.equal(await tv.locator('#tv-reactions li').count(), 0);
  await tv.close();

  // Ben's 2 s pass: the buttons are back, and the forced click had sent nothing.
  await ben.clock.runFor(2100);
  await until(async () => (await phew.getAttribute('aria-disabled')) === 'false', 'the buttons back after 2 s', 5000);
  assert.deepEqual(sent, ['phew'], 'the click within 2 s sent nothing');
  assert.doesNotMatch(await bubbles(ann), /nooo/);
  // Ann's 3 s pass: the reaction is gone.
  await ann.clock.runFor(3100);
  await until(async () => (await badge(ann, 1).count()) === 0 && !/phew/.test(await bubbles(ann)), 'the reaction gone', 5000);
  await Promise.all([ann.clock.resume(), ben.clock.resume()]);
  // The server takes Ben's next one 2 s after the first by the wall clock.
  await sleep(Math.max(0, seen + 2000 - Date.now()));

  // Ann mutes reactions: Ben's next shows on his page, not on hers.
  await ann.check('#react-mute');
  await ben.click('#reactions button[data-reaction="good_luck"]');
  await until(async () => /Ben: good luck/.test(await bubbles(ben)), 'Ben sees his own reaction', 5000);
  // Whatever the room sent Ann before the answer to her next message has arrived by then.
  await ann.check('#set-hints');
  await until(async () => /hints on/.test(await ann.locator('#lobby-settings').textContent()), 'Ann\'s setting answered', 5000);
  assert.equal(await badge(ann, 1).count(), 0);
  assert.doesNotMatch(await bubbles(ann), /good luck/);
  // Remembered in this browser.
  await ann.reload();
  await until(async () => (await ann.locator('#react-mute').count()) === 1, 'the room again after a reload');
  assert.equal(await ann.locator('#react-mute').isChecked(), true);
  assert.deepEqual(errors, []);
});

test('a spectator may react only once the host allows it, and the players see it as a spectator\'s', { timeout: 60000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const sam = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { players: 2 });
  await sam.goto(`${party.server.base}/r/${code}`);
  await sam.click('#watch-go');
  await until(async () => /1 spectator/.test(await ann.locator('#screen').textContent()), 'Sam watching');
  // Not allowed: no buttons, a line that says why, and the mute box all the same.
  assert.equal(await sam.locator('#reactions button[data-reaction]').count(), 0);
  assert.match(await sam.locator('#reactions').textContent(), /Spectators may not send reactions here/);
  assert.equal(await sam.locator('#react-mute').count(), 1);
  // The host allows it: the buttons come.
  await ann.check('#set-spectator-reactions');
  await until(async () => (await sam.locator('#reactions button[data-reaction]').count()) === 8, 'Sam\'s buttons');
  assert.match(await ann.locator('#lobby-settings').textContent(), /spectators may react/);
  await sam.click('#reactions button[data-reaction="ghost"]');
  await until(async () => /a spectator: 👻/.test(await bubbles(ann)), 'Sam\'s reaction on Ann\'s page', 5000);
  assert.equal(await ann.locator('#seats .reaction-badge').count(), 0, 'beside no seat');
  assert.deepEqual(errors, []);
});
