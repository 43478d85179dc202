// A server that stops for good after the game (issue #34, as the demo's does: --abandon-on-exit):
// the page is told so at once, keeps no seat, and offers the game's record, which it fetched at
// the game's end, as a download; the command it shows checks the downloaded file after the
// server has gone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { newPage, DESKTOP, roomCode, until, launch, startServer, CLIENT } from './harness.js';

let browser = null;
let server = null;
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the server stops for good after the game: the page says so and its record download verifies without the server', { timeout: 90000 }, async () => {
  server = await startServer(['--abandon-on-exit', '--decision-ms', '5000']);
  browser = await launch();
  const errors = [];
  const page = await newPage(browser, DESKTOP, errors);
  await page.goto(server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.selectOption('#create-game', 'spook');
  await page.fill('#create-players', '1');
  await page.selectOption('#create-pieces', '1');
  await page.click('#create-go');
  const code = await roomCode(page);
  await page.click('#start');
  await page.locator('#end-winner').waitFor({ timeout: 30000 });
  // The end screen offers the record, kept in the page, beside its address.
  await page.locator('#end-download').waitFor({ timeout: 10000 });
  const gameId = /\/records\/(\S+)$/.exec(await page.locator('#end-record').getAttribute('href'))[1];
  assert.equal(await page.locator('#end-verify-file').textContent(), `spookludo verify ${gameId}.json`);

  // The server stops for good.
  server.server.kill('SIGTERM');
  await server.server.wait(10000);
  await page.locator('#home-message').waitFor({ timeout: 10000 });
  assert.match(await page.locator('#home-message').textContent(), /^The server has stopped for good/);
  assert.equal(await page.evaluate((c) => c in JSON.parse(localStorage.getItem('spookludo.seats') || '{}'), code), false);
  const command = await page.locator('#home-verify-file').textContent();
  assert.equal(command, `spookludo verify ${gameId}.json`);

  // Downloaded, the file verifies with the command shown, run where it was saved.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-download-'));
  try {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#home-download')]);
    assert.equal(download.suggestedFilename(), `${gameId}.json`);
    await download.saveAs(path.join(folder, download.suggestedFilename()));
    const [, ...args] = command.split(' ');
    const v = spawnSync(CLIENT, args, { cwd: folder, encoding: 'utf8' });
    assert.equal(v.status, 0, v.stdout + v.stderr);
    assert.match(v.stdout, new RegExp(`^VERIFIED: ${gameId}\\.json`, 'm'));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  await until(async () => (await page.locator('#conn').isHidden()), 'no reconnecting status', 5000);
  assert.deepEqual(errors, []);
});
