// The page's own check of the dice where it matters: on a page that is not a secure context
// (http://<a name>:<port>/, as most parties open the server: no crypto.subtle there) it hashes with
// its own code and still says fair; and between the page and the real server (Playwright's
// WebSocket routing) one die changed on the way, or another server seed revealed, is named.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, DESKTOP, until } from './harness.js';
import { createRoom } from './tv_helpers.js';
import { diceVerdict, recordDice } from './dice_helpers.js';

let server;
let browser;
before(async () => {
  server = await startServer(['--decision-ms', '20000']);
  // spook.test is this machine: a page at http://spook.test:<port>/ is not a secure context.
  browser = await launch(['--host-resolver-rules=MAP spook.test 127.0.0.1', '--disable-features=HttpsUpgrades']);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// Ann's room of 3 Spook seats with one piece each (nothing to choose), two bots; its game played to the end.
async function playSpook(page, base) {
  await createRoom(page, base, { players: 3, pieces: 1 });
  await page.click('#bot-best');
  await page.click('#bot-random');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 3, 'the bots seated');
  await page.click('#start');
  await page.locator('#end-winner').waitFor({ timeout: 30000 });
}

test('a page that is not a secure context checks every die with its own SHA-256 and HMAC, and says fair', { timeout: 60000 }, async () => {
  const errors = [];
  const page = await newPage(browser, DESKTOP, errors);
  const base = `http://spook.test:${server.port}`;
  await playSpook(page, base);
  assert.deepEqual(await page.evaluate(() => [window.isSecureContext, typeof crypto.subtle, location.origin]), [false, 'undefined', base]);
  const dice = await recordDice(server, page);
  const r = await diceVerdict(page);
  assert.deepEqual([r.verdict, r.crypto, r.lines[0]], ['fair', 'js', `The boards and all ${dice} dice checked: fair.`]);
  assert.deepEqual(errors, []);
});

test('a die changed between the server and the page is named; so is a revealed seed that is not the committed one', { timeout: 60000 }, async () => {
  const errors = [];
  const page = await newPage(browser, DESKTOP, errors);
  let tamper = 'die';
  let changed = null;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const real = ws.connectToServer();
    ws.onMessage((m) => real.send(m));
    real.onMessage((text) => {
      const m = JSON.parse(text);
      if (tamper === 'die' && m.type === 'activation' && m.round === 2) {
        changed = { real: m.face, shown: (m.face % 6) + 1 };
        m.face = changed.shown;
      }
      if (tamper === 'seed' && m.type === 'game_over') m.server_seed = (m.server_seed[0] === '0' ? '1' : '0') + m.server_seed.slice(1);
      ws.send(JSON.stringify(m));
    });
  });
  await playSpook(page, server.base);
  let r = await diceVerdict(page);
  assert.ok(changed, 'round 2 was played');
  assert.equal(r.verdict, 'unfair');
  assert.equal(r.lines[0], `Round 2's activation die was ${changed.shown}, the seeds give ${changed.real}: this game's dice were not the fair stream.`);
  assert.match(r.lines[1], /^The dice were not the ones the server committed to before the seeds came in/);

  // The rematch: its dice come through untouched, the seed revealed at its end is changed.
  tamper = 'seed';
  await page.click('#end-close');
  await page.click('#start');
  await page.locator('#end-winner').waitFor({ timeout: 30000 });
  r = await diceVerdict(page);
  assert.equal(r.verdict, 'commitment');
  assert.equal(r.lines[0], 'The server seed revealed at the end does not match the commitment published at the start: the dice of this game cannot be trusted.');
  assert.deepEqual(errors, []);
});
