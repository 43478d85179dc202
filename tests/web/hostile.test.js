// Names and every server string go into the page as text: a name made of HTML shows as those
// characters, in the lobby, the story and the game, and no element comes out of it. And a page of
// another site cannot open the game's WebSocket from a browser (the server checks the Origin).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, roomCode, until, otherSite, serverAndBrowser } from './harness.js';

const party = serverAndBrowser();

test('a hostile name renders as text, never as HTML', { timeout: 60000 }, async () => {
  const errors = [];
  const dialogs = [];
  const host = await newPage(party.browser, DESKTOP, errors);
  const guest = await newPage(party.browser, PHONE, errors);
  for (const p of [host, guest]) p.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  await host.goto(party.server.base + '/');
  await host.locator('#create summary').click();
  await host.fill('#create-name', 'Ann');
  await host.fill('#create-players', '3');
  await host.click('#create-go');
  const code = await roomCode(host);

  // Too long for the server (28 characters): the refusal names it, as text.
  await guest.goto(`${party.server.base}/r/${code}`);
  await guest.fill('#join-name', '<img src=x onerror=alert(1)>');
  await guest.click('#join-go');
  await guest.locator('#home-message').waitFor();
  assert.match(await guest.locator('#home-message').textContent(), /<img src=x onerror=alert\(1\)>/);

  // 23 characters: taken as it is.
  const hostile = '<img src=x onerror=a()>';
  await guest.fill('#join-name', hostile);
  await guest.click('#join-go');
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 2, 'the guest seated');
  for (const p of [host, guest]) {
    assert.ok((await p.locator('#seats').textContent()).includes(hostile), 'the seat list shows the name as text');
    assert.ok((await p.locator('#story').textContent()).includes(`${hostile} sits at seat 2`), 'the story shows the name as text');
    assert.equal(await p.evaluate(() => document.querySelectorAll('img').length), 0, 'no element came out of the name');
  }
  assert.ok((await guest.locator('#bar').textContent()).includes(`you: ${hostile}`));

  // In a game too (the standings, the boards' titles).
  await host.click('#bot-best');
  await until(async () => (await host.locator('#seats li:not(.free)').count()) === 3, 'the bot seated');
  await host.click('#start');
  await host.locator('#standings').waitFor({ timeout: 20000 });
  assert.ok((await host.locator('#standings').textContent()).includes(hostile));
  assert.ok((await host.locator('.others').textContent()).includes(hostile));
  assert.equal(await host.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});

test("a page of another site cannot open the server's WebSocket; the server's own page can", { timeout: 30000 }, async () => {
  const other = await otherSite();
  try {
    const errors = [];
    const page = await newPage(party.browser, DESKTOP, errors);
    const tryOpen = (url) => page.evaluate((u) => new Promise((resolve) => {
      const ws = new WebSocket(u);
      ws.onopen = () => {
        ws.close();
        resolve('open');
      };
      ws.onclose = () => resolve('refused');
    }), url);
    await page.goto(`http://127.0.0.1:${other.address().port}/`);
    assert.equal(await tryOpen(`${party.server.ws}/ws`), 'refused');
    await page.goto(`${party.server.base}/`);
    assert.equal(await tryOpen(`${party.server.ws}/ws`), 'open');
  } finally {
    other.close();
  }
});
