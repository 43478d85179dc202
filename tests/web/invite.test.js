// The lobby's invitation when the host gave the server a --public-url (a name with a certificate,
// a forwarded port, a server in a container): the join link, its QR code and the terminal command
// all carry that address, not the one the host's page was opened at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { newPage, PHONE, roomCode, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--public-url', 'https://party.example.org']);

test("the invitation carries the server's --public-url: link, QR code and command", { timeout: 60000 }, async () => {
  const errors = [];
  const page = await newPage(party.browser, PHONE, errors);
  await page.goto(party.server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.click('#create-go');
  const code = await roomCode(page);
  const link = `https://party.example.org/r/${code}`;
  assert.equal(await page.locator('#join-link').textContent(), link);
  assert.equal(await page.locator('#join-command').textContent(), `spookludo play wss://party.example.org:443 --room ${code} --name YOUR_NAME`);
  // The QR code, as a phone's camera reads it from the screen.
  const qr = page.locator('.invite .qr');
  await qr.scrollIntoViewIfNeeded();
  const file = path.join(party.server.dir, 'invite-qr.png');
  await qr.screenshot({ path: file });
  const read = execFileSync('zbarimg', ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.equal(read.trim(), link);
  assert.deepEqual(errors, []);
});
