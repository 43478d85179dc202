// The web client served over https (issue #16): from a server given --tls-cert and --tls-key the
// same page opens its WebSocket over wss:// by itself and hosts a room there, a terminal bot joins
// that room over wss://, and plain http:// on that port is sent to https://. The certificates are
// made for the run in a temporary folder (a private CA and a server certificate for 127.0.0.1 and
// localhost, by the openssl command); Chromium trusts exactly that certificate's key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, newPage, DESKTOP, roomCode, until, makeCertificates, spkiHash } from './harness.js';

let dir;
let server;
let browser;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-https-'));
  makeCertificates(dir);
  const ca = fs.readFileSync(path.join(dir, 'ca.pem'));
  server = await startServer(['--tls-cert', path.join(dir, 'cert.pem'), '--tls-key', path.join(dir, 'key.pem')], { ca });
  // Chromium takes the server's certificate by its key's hash alone: the private CA is not made
  // trusted, and no other certificate error is let through (no ignoreHTTPSErrors).
  browser = await launch([`--ignore-certificate-errors-spki-list=${spkiHash(path.join(dir, 'cert.pem'))}`]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir && !process.env.SPOOKLUDO_KEEP) fs.rmSync(dir, { recursive: true, force: true });
});

// A page on the https:// address creating a room of three; the URLs of the WebSockets it opened.
async function hostRoom(errors) {
  const page = await newPage(browser, DESKTOP, errors);
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.fill('#create-players', '3');
  await page.click('#create-go');
  const code = await roomCode(page);
  return { page, sockets, code };
}

test('over https the page opens its WebSocket over wss:// by itself and hosts a room', { timeout: 60000 }, async () => {
  assert.equal(server.base, `https://127.0.0.1:${server.port}`);
  const errors = [];
  const { page, sockets, code } = await hostRoom(errors);
  assert.match(code, /^[A-HJKMNP-Z]{5}$/);
  assert.equal(await page.evaluate(() => location.protocol), 'https:');
  assert.ok(sockets.length > 0, 'the page opened a WebSocket');
  for (const url of sockets) assert.ok(url.startsWith(`wss://127.0.0.1:${server.port}/ws`), `a WebSocket over wss://: ${url}`);
  // The lobby shows the room, its https:// link and a terminal command with wss://.
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 1, "Ann's seat in the lobby");
  assert.match(await page.locator('.screen-title').textContent(), new RegExp(`^Room ${code}: waiting in the lobby$`));
  assert.equal(await page.locator('#join-link').textContent(), `${server.base}/r/${code}`);
  assert.equal(await page.locator('#join-command').textContent(), `spookludo play ${server.ws} --room ${code} --name YOUR_NAME`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a terminal bot joins the same room over wss:// and the page seats it', { timeout: 60000 }, async () => {
  const errors = [];
  const { page, sockets, code } = await hostRoom(errors);
  const bot = server.bot('bot', ['--room', code, '--ca-file', path.join(dir, 'ca.pem'), '--count', '1', '--policy', 'best', '--name', 'Wss']);
  try {
    await bot.waitFor(new RegExp(`room ${code}`));
    await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, "the bot's seat in Ann's lobby");
    assert.match(await page.locator('#seats').textContent(), /Wss-1/);
    assert.equal(bot.exit, null, `the bot is still in the room:\n${bot.out}`);
    for (const url of sockets) assert.ok(url.startsWith(`wss://127.0.0.1:${server.port}/ws`), url);
    assert.deepEqual(errors, []);
  } finally {
    bot.kill();
    await bot.wait(10000).catch(() => bot.kill('SIGKILL'));
    await page.context().close();
  }
});

test('plain http:// on the TLS port answers a 301 to the https:// address', { timeout: 20000 }, async () => {
  const get = (target) => new Promise((resolve, reject) => {
    const req = http.get(`http://127.0.0.1:${server.port}${target}`, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`no answer to http://127.0.0.1:${server.port}${target}`)));
  });
  for (const target of ['/', '/r/ABCDE']) {
    const res = await get(target);
    assert.equal(res.statusCode, 301, target);
    assert.equal(res.headers.location, `https://127.0.0.1:${server.port}${target}`);
  }
});
