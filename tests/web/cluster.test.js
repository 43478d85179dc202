// A cluster (docs/cluster.md) in the browser: the page stays on the node it was loaded from and
// only its WebSocket goes where the room is. Two nodes and a real redis-server: node A has two
// rooms and B none, so the room Ann creates on A's page is made on B (a `redirect` the page
// follows); a terminal bot joins it through A; a refresh in the game takes the seat back through
// A; the game is played to the end in the page, whose address and stored seat stay A's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startRedis, freePort, launch, newPage, PHONE, roomCode, until, answerDecisions } from './harness.js';

let redis, a, b, browser;
const nodes = [];

async function node(id) {
  const port = await freePort();
  const s = await startServer(['--port', String(port), '--cluster', redis.url, '--node-id', id,
    '--public-url', `http://127.0.0.1:${port}`, '--pace-ms', '150']);
  nodes.push(s);
  return s;
}

async function clusterView(s) {
  const res = await fetch(`${s.base}/cluster`);
  return res.json();
}

before(async () => {
  redis = await startRedis();
  a = await node('node-a');
  b = await node('node-b');
  await until(async () => (await clusterView(a)).nodes.filter((n) => n.alive).length === 2 &&
    (await clusterView(b)).nodes.filter((n) => n.alive).length === 2, 'each node sees the other');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const s of nodes) await s.stop();
  await redis?.stop();
});

test("a room made from node A's page lives on the emptier node B; the page stays on A, plays the game through B and comes back after a refresh", { timeout: 150000 }, async () => {
  const errors = [];
  // Two waiting rooms on A (their hosts wait for a second player).
  const waiting = [a.bot('wait-1', ['--create', 'spook', '--players', '2', '--count', '1', '--start', '--fill-after', '600']),
    a.bot('wait-2', ['--create', 'spook', '--players', '2', '--count', '1', '--start', '--fill-after', '600'])];
  for (const w of waiting) await w.waitFor(/room [A-Z]{5}/);

  const page = await newPage(browser, PHONE, errors);
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(a.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.fill('#create-players', '2');
  await page.click('#create-go');
  const code = await roomCode(page).catch((e) => { throw new Error(`${e.message}; sockets: ${sockets.join(', ')}; errors: ${errors.join(' / ')}; page: ${page.url()}`); });
  // The room is B's; the page's address is still A's, and only its WebSocket went to B.
  const view = await clusterView(b);
  assert.equal(view.nodes.find((n) => n.id === 'node-b').url, b.base);
  await until(async () => (await clusterView(a)).nodes.find((n) => n.id === 'node-b').rooms === 1, "B's heartbeat counts the room");
  assert.ok(page.url().startsWith(a.base), `the page stays on A (${page.url()})`);
  assert.ok(sockets.includes(`${a.ws}/ws`) && sockets.includes(`${b.ws}/ws`), `the page's WebSockets: ${sockets.join(', ')}`);
  assert.equal(await page.evaluate((c) => typeof (JSON.parse(localStorage.getItem('spookludo.seats') || '{}')[c] || {}).token, code),
    'string', "the seat's token is kept by A's page");

  // A terminal bot joins through A: redirected to B as well.
  const bot = a.bot('guest', ['--room', code, '--count', '1', '--policy', 'best']);
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, "the bot's seat in Ann's lobby");
  await page.click('#start');
  // A refresh in the game: A's page takes the seat back through A, on B.
  await until(async () => /Round \d+/.test(await page.locator('#story').textContent()), 'the first round');
  await page.reload();
  await until(async () => /you: Ann/.test(await page.locator('#bar').textContent()) &&
    (await page.locator('#story').count()) > 0, 'Ann back in her seat after the refresh');
  const over = async () => (await page.locator('#end-winner').count()) > 0;
  await answerDecisions(page, over, { ms: 120000 });
  await bot.waitFor(/game_over (\S+) finished record (\S+)/, 20000);
  const gameId = /game_over (\S+) finished/.exec(bot.out)[1];
  // The end screen's record link is on A, and A serves the record B's room wrote (the history is the cluster's).
  const link = await page.locator('#end-record').getAttribute('href');
  assert.equal(link, `${a.base}/records/${gameId}`);
  await until(async () => (await fetch(link)).status === 200, 'A serves the record');
  const verified = await a.verify(link);
  assert.equal(verified.code, 0, verified.out);
  for (const w of waiting) w.kill();
  assert.deepEqual(errors, []);
});
