// A room the server cannot take up again after a restart (its journal no longer matches the game
// engine, as after a change of the rules under a game) is not passed off as a room that closed:
// the page that comes back with its seat's token says that the room was lost on the restart and
// where the game's record up to its last checked step is, and forgets the seat; that record
// verifies, abandoned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { newPage, DESKTOP, roomCode, until, serverAndBrowser } from './harness.js';

// Ann's page does not answer: two 6s as her first throws (the first enters a piece at once, the
// second leaves two different moves) ask her to choose, and the game waits out her time before
// the third throw is told (with 30 s, past the test's wait once in CI).
const party = serverAndBrowser(['--decision-ms', '2000', '--pace-ms', '100']);

// The journal's last step made to show something else than the engine does.
function damageLastStep(dataDir) {
  const script = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
row = db.execute("""SELECT id, kind, data FROM journal_events
  WHERE kind = 'advance' OR (kind = 'pass' AND data LIKE '%["advance",%') ORDER BY id DESC LIMIT 1""").fetchone()
data = json.loads(row[2])
step = data if row[1] == "advance" else [e for e in data if e[0] == "advance"][-1][1]
step["shown"] = "0123456789abcdef"
db.execute("UPDATE journal_events SET data = ? WHERE id = ?", (json.dumps(data), row[0]))
db.commit()
`;
  const r = spawnSync('python3', ['-c', script, path.join(dataDir, 'spookludo.db')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test('a room lost on a restart: the page says so, names the kept record, and forgets the seat', { timeout: 90000 }, async () => {
  const errors = [];
  const page = await newPage(party.browser, DESKTOP, errors);
  await page.goto(party.server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.selectOption('#create-game', 'ludo');
  await page.fill('#create-players', '2');
  await page.click('#create-go');
  const code = await roomCode(page);
  await page.click('#bot-random');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await page.click('#start');
  await until(async () => ((await page.locator('#story').textContent()) || '').match(/throws a \d/g)?.length >= 3,
    'three throws told', 30000);
  await party.server.restart(damageLastStep);
  await page.locator('#home-message').waitFor({ timeout: 30000 });
  const told = await page.locator('#home-message').textContent();
  assert.match(told, new RegExp(`^Room ${code} was lost when the server restarted`));
  assert.doesNotMatch(told, /closes when everyone has left/);
  const record = /\/records\/([A-Z0-9-]+-[0-9a-f]+)/.exec(told);
  assert.ok(record, `the message names the record: ${told}`);
  // The seat is forgotten: the page does not try the token again.
  assert.equal(await page.evaluate((c) => c in JSON.parse(localStorage.getItem('spookludo.seats') || '{}'), code), false);
  const v = await party.server.verify(`${party.server.base}/records/${record[1]}`);
  assert.equal(v.code, 0, v.out);
  assert.match(v.out, /abandoned/);
  assert.deepEqual(errors, []);
});
