// Coming back by the seat's token (kept in localStorage per room, never in the address): a
// refresh in the middle of a decision, and a tab closed and opened again, take the seat back and
// the game goes on with decisions that are answered. The server plays a seat whose connection
// drops at once ("away"), so the decision open at the moment of a refresh is answered again only
// when the game is paused (the server keeps it open then, with its time): both are checked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, PHONE, DESKTOP, roomCode, until, sleep } from './harness.js';

let server;
let browser;
before(async () => {
  server = await startServer(['--decision-ms', '30000']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// Counts the server's choice_accepted frames on a page's WebSockets.
function acceptedCounter(page) {
  const counter = { accepted: 0, frames: [] };
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    const text = String(f.payload);
    if (text.includes('"choice_accepted"')) counter.accepted++;
  }));
  return counter;
}

async function createSpook(page, name, seats) {
  await page.goto(server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', name);
  await page.fill('#create-players', String(seats));
  await page.click('#create-go');
  return roomCode(page);
}

const option = (page) => page.locator('#decision button.option:not([disabled])').first();

test('a refresh in a decision and a tab closed and opened again take the seat back; the decisions are answered', { timeout: 120000 }, async () => {
  const errors = [];
  const context = await browser.newContext(PHONE);
  let page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  const code = await createSpook(page, 'Ann', 2);
  // The token is in localStorage, and the address carries the code only.
  const stored = await page.evaluate(() => localStorage.getItem('spookludo.seats'));
  assert.ok(JSON.parse(stored)[code].token.length >= 16);
  assert.equal(new URL(page.url()).pathname, `/r/${code}`);
  assert.ok(!page.url().includes(JSON.parse(stored)[code].token));

  await page.click('#bot-best');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await page.click('#start');

  // 1. A refresh while a decision is open: the seat comes back, and the next decision is answered.
  await option(page).waitFor({ timeout: 30000 });
  await page.reload();
  await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann back in her seat after the refresh');
  assert.match(await page.locator('#story').textContent(), /You are in room [A-Z]{5}, seat 1/);
  let counter = acceptedCounter(page);
  await option(page).waitFor({ timeout: 30000 });
  await option(page).click();
  await until(() => counter.accepted >= 1, 'the choice accepted after the refresh');

  // 2. The tab closed and opened again (the same browser profile): the same.
  await option(page).waitFor({ timeout: 30000 });
  await page.close();
  await sleep(300);
  page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  counter = acceptedCounter(page);
  await page.goto(`${server.base}/r/${code}`);
  await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()), 'Ann back after reopening the tab');
  await option(page).waitFor({ timeout: 30000 });
  await option(page).click();
  await until(() => counter.accepted >= 1, 'the choice accepted after reopening the tab');

  // 3. A refresh during a paused decision: the same decision is asked again, its time kept, and
  //    answered once the game resumes.
  await option(page).waitFor({ timeout: 30000 });
  await page.click('#pause-game');
  await until(async () => /Paused \(\d+ s left\)/.test(await page.locator('#cd-text').textContent()), 'the countdown paused');
  const before = await page.locator('#cd-text').textContent();
  await page.reload();
  await until(async () => (await page.locator('#cd-text').count()) > 0 && /Paused \(\d+ s left\)/.test(await page.locator('#cd-text').textContent()), 'the paused decision back after the refresh');
  const left = (t) => Number(/(\d+) s left/.exec(t)[1]);
  const after1 = await page.locator('#cd-text').textContent();
  assert.ok(Math.abs(left(after1) - left(before)) <= 1, `the time was kept: ${before} / ${after1}`);
  await sleep(1500);
  assert.equal(await page.locator('#cd-text').textContent(), after1, 'the countdown stands still while paused');
  counter = acceptedCounter(page);
  await page.click('#resume-game');
  await until(async () => /Choose within \d+ s/.test(await page.locator('#cd-text').textContent()), 'the countdown running again');
  await option(page).click();
  await until(() => counter.accepted >= 1, 'the paused decision answered after the refresh');
  await context.close();
  assert.deepEqual(errors, []);
});
