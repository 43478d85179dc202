// The page installable as an app (issue #40), in Chromium over https:// from the real server (a
// certificate of a private CA made for the run, which Chromium takes by its key's hash: a service
// worker needs a certificate the browser accepts, and gets one). The manifest is linked and valid
// and Chromium finds the page installable; the service worker registers and takes the page over;
// with the network cut, and with the server stopped, a reload starts the page from its copy and
// shows the offline screen; a server whose files differ (--web-dir, a changed copy of web/) on the
// same address replaces them at the next load and the old copy is deleted. On a non-secure origin
// (http:// under a name, spookludo.test, which Chromium resolves to 127.0.0.1 by
// --host-resolver-rules: any address but the machine's own is not secure) the page plays as
// before, without a service worker and without an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launchProfile, watched, PHONE, until, roomCode, untilDecision, makeCertificates, spkiHash, repo } from './harness.js';

// Playwright cuts a service worker's own network too when a context goes offline only with this
// set (read when the worker starts): without it the worker would still reach the server.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';

let dir;
let tls; // the server's --tls-cert and --tls-key
let ca;
let server; // over https://
let context; // a browser with a profile of its own: an incognito one cannot install
let page;
const errors = [];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-installable-'));
  makeCertificates(dir);
  ca = fs.readFileSync(path.join(dir, 'ca.pem'));
  tls = ['--tls-cert', path.join(dir, 'cert.pem'), '--tls-key', path.join(dir, 'key.pem')];
  server = await startServer(tls, { ca });
  context = await launchProfile(path.join(dir, 'profile'), PHONE, [`--ignore-certificate-errors-spki-list=${spkiHash(path.join(dir, 'cert.pem'))}`,
    '--host-resolver-rules=MAP spookludo.test 127.0.0.1']);
  page = watched(await context.newPage(), errors);
});
after(async () => {
  await context?.close();
  await server?.stop();
  if (dir && !process.env.SPOOKLUDO_KEEP) fs.rmSync(dir, { recursive: true, force: true });
});

// What the page's service worker keeps: its caches' names, and the addresses in each.
const kept = (p) => p.evaluate(async () => {
  const out = {};
  for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
  return out;
});
// The build the server's service worker names (its first line: const BUILD = {...};).
const buildOf = (p) => p.evaluate(async () => {
  const text = await (await fetch('/sw.js', { cache: 'no-store' })).text();
  return JSON.parse(/^const BUILD = (.*);\n/.exec(text)[1]);
});

test('the manifest is linked and valid, its icons answer as PNGs of their sizes, and Chromium finds the page installable', { timeout: 30000 }, async () => {
  await page.goto(server.base + '/');
  await page.locator('#join').waitFor();
  const linked = await page.evaluate(() => ({
    manifest: document.querySelector('link[rel="manifest"]')?.href,
    theme: document.querySelector('meta[name="theme-color"]')?.content,
    apple: document.querySelector('link[rel="apple-touch-icon"]')?.href,
  }));
  assert.equal(linked.manifest, `${server.base}/manifest.webmanifest`);
  const manifest = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return { type: res.headers.get('content-type'), json: await res.json() };
  }, linked.manifest);
  assert.equal(manifest.type, 'application/manifest+json');
  const m = manifest.json;
  assert.equal(m.name, 'SpookLudo');
  assert.equal(m.short_name, 'SpookLudo');
  assert.equal(m.start_url, '/');
  assert.equal(m.scope, '/');
  assert.equal(m.display, 'standalone');
  assert.equal(m.theme_color, linked.theme);
  assert.match(m.background_color, /^#[0-9a-f]{6}$/);
  // Each icon drawn by the browser at the size the manifest says.
  const icons = [...m.icons, { src: new URL(linked.apple).pathname, sizes: '180x180', type: 'image/png' }];
  for (const icon of icons) {
    const got = await page.evaluate(async (src) => {
      const res = await fetch(src);
      const bitmap = await createImageBitmap(await res.blob());
      return { status: res.status, type: res.headers.get('content-type'), size: `${bitmap.width}x${bitmap.height}` };
    }, icon.src);
    assert.deepEqual(got, { status: 200, type: icon.type, size: icon.sizes }, icon.src);
  }
  assert.deepEqual(m.icons.map((i) => `${i.sizes} ${i.purpose}`).sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
  // Chromium's own reading of it: no error, and nothing that keeps the page from being installed.
  const cdp = await context.newCDPSession(page);
  const read = await cdp.send('Page.getAppManifest');
  assert.equal(read.url, linked.manifest);
  assert.deepEqual(read.errors, []);
  assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
  await cdp.detach();
  assert.deepEqual(errors, []);
});

test('over https the service worker registers, takes the page over and keeps this build\'s files, nothing of a room', { timeout: 30000 }, async () => {
  const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active.scriptURL);
  assert.equal(script, `${server.base}/sw.js`);
  await until(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'the service worker controls the page');
  const build = await buildOf(page);
  const caches = await kept(page);
  assert.deepEqual(Object.keys(caches), [`spookludo-${build.version}`]);
  const files = caches[`spookludo-${build.version}`];
  for (const f of build.files) assert.ok(files.includes(f), `kept: ${f}`);
  for (const f of files) assert.ok(build.files.includes(f) || build.catalogues.includes(f), `nothing else kept: ${f}`);
  assert.ok(files.some((f) => /^\/v\/[0-9a-f]{12}\/js\/app\.js$/.test(f)));
  assert.deepEqual(errors, []);
});

test('a reload with the network cut starts the page from its copy, at a room\'s link too, and shows the offline screen; it comes back by itself', { timeout: 40000 }, async () => {
  await context.setOffline(true);
  // Cut for the service worker too: a file it does not keep cannot be fetched.
  assert.match(await page.evaluate(() => fetch('/v/000000000000/none.js').then((r) => `answered ${r.status}`, (e) => e.name)), /^TypeError$/);
  await page.reload();
  await page.locator('#offline-h').waitFor({ timeout: 15000 });
  assert.equal(await page.locator('#offline-h').textContent(), 'The game server cannot be reached');
  assert.equal(await page.locator('#offline-retry').textContent(), 'Try again now');
  assert.match(await page.locator('#offline-status').textContent(), /^(Trying again in \d+ s…|Asking the server…)$/);
  assert.equal(await page.locator('#join').count(), 0, 'not the first screen of a page that cannot play');
  // A room's link starts the same page from the copy (the page, not a copy of one room).
  await page.goto(`${server.base}/r/ABCDE`);
  await page.locator('#offline-h').waitFor({ timeout: 15000 });
  assert.equal(await page.evaluate(() => location.pathname), '/r/ABCDE');
  // The network back: the page asks the server again (the browser's online event) and loads.
  await context.setOffline(false);
  await page.locator('#join').waitFor({ timeout: 15000 });
  assert.equal(await page.locator('#offline-h').count(), 0);
  assert.deepEqual(errors, []);
});

test('with the server stopped the page says so; a server whose files differ on the same address replaces them at the next load, and the old copy goes', { timeout: 40000 }, async () => {
  const before = await buildOf(page);
  const port = server.port;
  await server.stop();
  server = null;
  await page.reload();
  await page.locator('#offline-h').waitFor({ timeout: 15000 });

  // The next version of the page: a copy of web/ with one change, served from --web-dir.
  const web = path.join(dir, 'web');
  fs.cpSync(path.join(repo, 'web'), web, { recursive: true });
  fs.appendFileSync(path.join(web, 'app.css'), '\n:root { --upgrade-mark: 2; }\n');
  server = await startServer(['--port', String(port), ...tls, '--web-dir', web], { ca });
  await page.click('#offline-retry');
  await page.locator('#join').waitFor({ timeout: 15000 });
  // The page is the new one at once (its files under their new names), not the kept copy.
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--upgrade-mark').trim()), '2');
  const stylesheet = await page.evaluate(() => new URL(document.querySelector('link[rel="stylesheet"]').href).pathname);
  assert.ok(!stylesheet.includes(before.files.find((f) => f.endsWith('/app.css')).split('/')[2]), stylesheet);
  const after = await buildOf(page);
  assert.notEqual(after.version, before.version);
  assert.ok(after.files.includes(stylesheet), `the new build keeps ${stylesheet}`);
  // The new service worker installs, takes over and deletes the old copy.
  await until(async () => {
    const caches = await kept(page);
    return Object.keys(caches).join() === `spookludo-${after.version}` && after.files.every((f) => caches[`spookludo-${after.version}`].includes(f));
  }, 'only the new version kept, all of it', 20000);
  assert.deepEqual(errors, []);
});

test('on a non-secure origin (http:// under a name) the page plays as before, with no service worker and no error', { timeout: 60000 }, async () => {
  const plain = await startServer([]);
  const insecure = [];
  const ann = watched(await context.newPage(), insecure);
  let bot = null;
  try {
    const base = `http://spookludo.test:${plain.port}`;
    await ann.goto(base + '/');
    assert.deepEqual(await ann.evaluate(() => ({ secure: isSecureContext, worker: 'serviceWorker' in navigator })), { secure: false, worker: false });
    await ann.locator('#create summary').click();
    await ann.fill('#create-name', 'Ann');
    await ann.selectOption('#create-game', 'spook');
    await ann.fill('#create-players', '2');
    await ann.click('#create-go');
    const code = await roomCode(ann);
    bot = plain.bot('bot', ['--room', code, '--count', '1', '--policy', 'best', '--name', 'Bo']);
    await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, "the bot's seat in Ann's lobby");
    await ann.click('#start');
    await untilDecision(ann);
    const moves = () => ann.locator('#story li', { hasText: 'moves piece' }).count();
    const earlier = await moves();
    await ann.locator('#decision button.option:not([disabled])').first().click();
    await until(async () => (await moves()) > earlier, 'the story tells the move');
    assert.deepEqual(insecure, []);
  } finally {
    bot?.kill();
    await ann.close();
    await plain.stop();
  }
});
