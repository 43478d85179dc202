// Coming back by the seat's token (kept in localStorage per room, never in the address): a
// refresh in the middle of a decision, and a tab closed and opened again, take the seat back and
// the decision that was open is still answerable: the server holds a dropped player's open
// decision for the drop grace (--drop-grace-ms, 10 s by default, a minute here) before it plays
// it as away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, roomCode, until, sleep, answerDecisions, serverAndBrowser } from './harness.js';

// A pace, so that the game does not run away from a refreshing page; a minute to choose and as
// long a drop grace, so that a reload on a loaded machine finds its decision still open.
const party = serverAndBrowser(['--decision-ms', '60000', '--drop-grace-ms', '60000', '--pace-ms', '200']);

// Counts the server's choice_accepted frames on a page's WebSockets, and keeps the ids of the
// decisions asked and accepted.
function acceptedCounter(page) {
  const counter = { accepted: 0, asked: [], acceptedIds: [] };
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    const text = String(f.payload);
    if (!text.includes('"choice_accepted"') && !text.includes('"decision"')) return;
    const m = JSON.parse(text);
    if (m.type === 'choice_accepted') {
      counter.accepted++;
      counter.acceptedIds.push(m.decision);
    } else if (m.type === 'decision') {
      counter.asked.push(m.decision);
    }
  }));
  return counter;
}

// Three pieces (a choice nearly every round) and play on (the game lasts until two of the
// three have finished): the game outlasts every step below.
async function createSpook(page, name, seats) {
  await page.goto(party.server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', name);
  await page.fill('#create-players', String(seats));
  await page.selectOption('#create-pieces', '3');
  await page.check('#create-play-on');
  await page.click('#create-go');
  return roomCode(page);
}

const option = (page) => page.locator('#decision button.option:not([disabled])').first();

test('a refresh in a decision and a tab closed and opened again take the seat back; the decisions are answered', { timeout: 150000 }, async () => {
  const errors = [];
  // Ben hosts on a laptop and answers his own decisions all along.
  const ben = await newPage(party.browser, DESKTOP, errors);
  const code = await createSpook(ben, 'Ben', 3);
  const context = await party.browser.newContext(PHONE);
  let page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  const counter = acceptedCounter(page);
  await page.goto(`${party.server.base}/r/${code}`);
  await page.fill('#join-name', 'Ann');
  await page.click('#join-go');
  await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann seated');
  await ben.click('#bot-best');
  await until(async () => (await ben.locator('#seats li:not(.free)').count()) === 3, 'three seated');
  // The token is in localStorage, and the address carries the code only.
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('spookludo.seats')));
  assert.ok(stored[code].token.length >= 16);
  assert.equal(new URL(page.url()).pathname, `/r/${code}`);
  assert.ok(!page.url().includes(stored[code].token));

  await ben.click('#start');
  const stop = { value: false };
  const benPlays = answerDecisions(ben, async () => stop.value, { ms: 140000 }).catch((e) => e);
  try {
    // 1. A refresh while a decision is open: the seat comes back, and that same decision is
    //    asked again and answered by the page.
    await option(page).waitFor({ timeout: 30000 });
    const open1 = counter.asked.at(-1);
    await page.reload();
    await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann back in her seat after the refresh');
    assert.match(await page.locator('#story').textContent(), /You are in room [A-Z]{5}, seat 2/);
    let base = counter.accepted;
    await option(page).waitFor({ timeout: 30000 });
    await option(page).click();
    await until(() => counter.accepted > base, 'the choice accepted after the refresh');
    assert.equal(counter.acceptedIds[base], open1, 'the decision open at the refresh is the one answered');

    // 2. The tab closed and opened again (the same browser profile): the same.
    await option(page).waitFor({ timeout: 30000 });
    const open2 = counter.asked.at(-1);
    await page.close();
    await sleep(300);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    const counter2 = acceptedCounter(page);
    await page.goto(`${party.server.base}/r/${code}`);
    await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann back after reopening the tab');
    await option(page).waitFor({ timeout: 30000 });
    await option(page).click();
    await until(() => counter2.accepted >= 1, 'the choice accepted after reopening the tab');
    assert.equal(counter2.acceptedIds[0], open2, 'the decision open when the tab closed is the one answered');

    // 3. A refresh while the game is paused: the seat comes back to a paused game (every
    //    countdown standing still), and play goes on when the host resumes.
    await option(page).waitFor({ timeout: 30000 });
    await ben.click('#pause-game');
    await until(async () => /Paused \(\d+ s left\)/.test(await page.locator('#cd-text').textContent()), 'the countdown paused');
    await page.reload();
    await until(async () => /PAUSED/.test(await page.locator('#bar').textContent()) && /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann back in the paused game');
    const benLeft = await ben.locator('#cd-text').count() ? await ben.locator('#cd-text').textContent() : '';
    await sleep(1200);
    if (benLeft) assert.equal(await ben.locator('#cd-text').textContent(), benLeft, "Ben's countdown stands still");
    base = counter2.accepted;
    await ben.click('#resume-game');
    await option(page).waitFor({ timeout: 30000 });
    await option(page).click();
    await until(() => counter2.accepted > base, 'a decision answered after the paused refresh');
    // 4. The same seat opened in a second tab: the seat moves there, and the first tab does not
    //    take it back by itself (which would send it back and forth): it says why.
    const second = await context.newPage();
    second.on('pageerror', (e) => errors.push(e.message));
    await second.goto(`${party.server.base}/r/${code}`);
    await until(async () => /you: Ann/.test(await second.locator('#bar').textContent()), 'Ann in the second tab');
    await page.locator('#home-message').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#home-message').textContent(), /Your seat is now played from another tab or device/);
    await sleep(1500);
    assert.match(await second.locator('#bar').textContent(), /you: Ann/, 'the second tab keeps the seat');
  } finally {
    stop.value = true;
  }
  const benResult = await benPlays;
  assert.ok(typeof benResult === 'number', `Ben's page played along: ${benResult}`);
  await context.close();
  assert.deepEqual(errors, []);
});
