// The host's own crash, at a party of a terminal and a page (issue #34): the host's
// `spookludo play URL --create ludo --name Hana`, killed with kill -9 and run again, takes the room,
// the host's seat and the host keys back; the guest's page sees the host away, never a new host;
// the guest refreshing the page (twice, half a second apart) does not move the host either. And the
// demo run to its end leaves each of them a verify command that works after its server is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { newPage, PHONE, until, sleep, serverAndBrowser, terminal, answerDecisions, freePort, Child, CLIENT, repo } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '60000']);

const seatText = (page, n) => page.locator('#seats li').nth(n).textContent();
const story = async (page) => ((await page.locator('#story').count()) ? page.locator('#story').textContent() : '');

test('a host killed with kill -9 takes the room and the host keys back by the same command, and a guest page refreshing moves nothing', { timeout: 90000 }, async () => {
  const errors = [];
  const home = fs.mkdtempSync(path.join(party.server.dir, 'hana-'));
  const create = ['play', party.server.ws, '--create', 'ludo', '--players', '3', '--name', 'Hana'];
  const hana = terminal('hana', create, { dir: party.server.dir, home });
  await hana.waitScreen('You are the host.');
  const code = /You are in room ([A-Z]{5})/.exec(hana.screen())[1];
  await hana.waitScreen('the same command takes the seat back');

  const bea = await newPage(party.browser, PHONE, errors);
  await bea.goto(`${party.server.base}/r/${code}`);
  await bea.fill('#join-name', 'Bea');
  await bea.click('#join-go');
  await until(async () => /Waiting for Hana \(host\) to start/.test(await bea.locator('#waiting').textContent().catch(() => '')), 'Bea waits for Hana');

  // kill -9 of the host's client: the page shows Hana away, and still the host.
  hana.killClient('SIGKILL');
  await hana.wait(10000);
  await until(async () => /Hana.*host.*away/.test(await seatText(bea, 0)), 'Hana shown as the host, away');
  assert.doesNotMatch(await story(bea), /is the host now/);
  assert.equal(await bea.locator('#start').count(), 0, 'Bea has no host controls');

  // The same command: the same room, the host's seat and keys.
  const back = terminal('hana-back', create, { dir: party.server.dir, home });
  await back.waitScreen(`You are back in room ${code}, the room you created, as its host.`);
  await back.waitScreen('You are the host. Keys:');
  await until(async () => !/away/.test(await seatText(bea, 0)), 'Hana here again on Bea\'s page');

  // Bea refreshes her page twice, half a second apart: Hana stays the host.
  for (let i = 0; i < 2; i++) {
    await bea.reload();
    await sleep(500);
  }
  await until(async () => /you: Bea/.test(await bea.locator('#bar').textContent()), 'Bea back in her seat');
  await until(async () => /Hana.*host/.test(await seatText(bea, 0)), 'Hana still the host on Bea\'s page');
  assert.equal(await bea.locator('#start').count(), 0, 'Bea still has no host controls');
  // The host's keys work: a bot, and the start.
  back.write('b');
  await until(async () => (await bea.locator('#seats li:not(.free)').count()) === 3, 'the host\'s bot seated');
  back.write('s');
  await back.waitScreen('Ludo');
  assert.doesNotMatch(back.screen(), /is the host now/);
  assert.doesNotMatch(await story(bea), /is the host now/);
  back.write('qy');
  assert.equal(await back.wait(10000), 0);
  assert.deepEqual(errors, []);
});

// The demo to its end (scripts/demo.sh, its programs from this build): a terminal player and a
// page join its room; after the game its server stops for good, and what each shows then checks
// the game without it: the terminal's saved copy, the page's download.
test('the demo run to its end: the terminal and the page each show a verify command that works after its server is gone', { timeout: 120000 }, async () => {
  const errors = [];
  const dir = fs.mkdtempSync(path.join(party.server.dir, 'demo-'));
  const port = await freePort();
  const demo = new Child('demo', ['env', 'DEMO_SKIP_BUILD=1', `DEMO_BUILD_DIR=${path.dirname(path.dirname(CLIENT))}`,
    `DEMO_PORT=${port}`, 'DEMO_WAIT=60', 'DEMO_PLAYERS=3', 'DEMO_PACE_MS=0', 'DEMO_DECISION_MS=1000', 'DEMO_LINGER=3', `DEMO_DATA_DIR=${dir}/data`,
    path.join(repo, 'scripts', 'demo.sh')], dir);
  const code = (await demo.waitFor(/== Room ([A-Z]{5}) is open/))[1];
  const home = fs.mkdtempSync(path.join(dir, 'ann-'));
  const ann = terminal('ann', ['play', `ws://127.0.0.1:${port}`, '--room', code, '--name', 'Ann'], { dir, home });
  const bea = await newPage(party.browser, PHONE, errors);
  await bea.goto(`http://127.0.0.1:${port}/r/${code}`);
  await bea.fill('#join-name', 'Bea');
  await bea.click('#join-go');
  await ann.waitScreen('You are in room');
  // Both play: the page by its buttons, the terminal by its keys.
  const over = { value: false };
  const playing = answerDecisions(bea, async () => over.value, { stop: over });
  const keys = setInterval(() => ann.exit === null && ann.write('1'), 300);
  try {
    assert.equal(await demo.wait(90000), 0, demo.out);
  } finally {
    over.value = true;
    clearInterval(keys);
  }
  await playing;
  assert.match(demo.out, /== The demo is over ==/);
  // The terminal: told at once, and its last words a command for the copy it saved.
  assert.equal(await ann.wait(15000), 1);
  const file = /check it with: spookludo verify (\S+\.json)/.exec(ann.screen());
  assert.ok(file, ann.screen().slice(-1500));
  const v = spawnSync(CLIENT, ['verify', file[1]], { encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  // The page: told so, with the record to download and the command that checks it.
  await bea.locator('#home-message').waitFor({ timeout: 15000 });
  assert.match(await bea.locator('#home-message').textContent(), /stopped for good/);
  const command = await bea.locator('#home-verify-file').textContent();
  const [download] = await Promise.all([bea.waitForEvent('download'), bea.click('#home-download')]);
  await download.saveAs(path.join(dir, download.suggestedFilename()));
  const w = spawnSync(CLIENT, command.split(' ').slice(1), { cwd: dir, encoding: 'utf8' });
  assert.equal(w.status, 0, w.stdout + w.stderr);
  assert.deepEqual(errors, []);
});
