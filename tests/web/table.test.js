// A game at one table (issue 36, part 3), Spook and Ludo: the host's page switches on the table game and enters
// the names, starts, throws every die with "Next roll" (the button and the key N), sees each
// announcement large, pauses (Next is refused), skips a turn in Ludo (the key S), and ends the game
// naming the winner; the game's record verifies, and the pages checked its dice themselves. A phone
// watching adds its seed before the first roll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, PHONE, DESKTOP, until, serverAndBrowser } from './harness.js';
import { createRoom, recordingPage, said, spookWords, TV_720 } from './tv_helpers.js';
import { diceVerdict } from './dice_helpers.js';

const party = serverAndBrowser(['--decision-ms', '30000']);

test('the host drives a Spook table game with Next roll to a declared winner whose record verifies', { timeout: 90000 }, async () => {
  const errors = [];
  const host = await recordingPage(party.browser, DESKTOP, errors);
  const phone = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(host, party.server.base, { name: 'Host', players: 3 });

  await host.fill('#table-names', 'Ann, Ben, Cid');
  await host.click('#table-on');
  await until(async () => /At the table: Ann, Ben, Cid/.test(await host.locator('#screen').textContent()), 'the names set');
  await phone.goto(`${party.server.base}/r/${code}`);
  await phone.click('#watch-go');
  await until(async () => /1 spectator/.test(await host.locator('#screen').textContent()), 'the phone watching');

  // The room's shared screen (/tv/CODE) shows each die and its announcement large, and says it aloud.
  const tv = await recordingPage(party.browser, TV_720, errors);
  await tv.goto(`${party.server.base}/tv/${code}`);
  await tv.locator('#tv-join').waitFor();

  await host.click('#start');
  // The phone adds its seed while the window is open; the host's page sent its own.
  await phone.click('#table-seed');
  await until(async () => /a phone at the table/.test(await host.locator('#table-last').textContent()), 'the phone\'s seed in');
  await host.click('#table-next'); // closes the seeds: the boards are assigned
  await until(async () => /first roll waits/.test(await host.locator('#table-last').textContent()), 'the game started');

  // The host's page, the table's own screen, says the dice aloud once switched on.
  await host.check('#speak');
  await host.click('#table-next');
  await until(async () => /Round 1: roll \d\. Everyone moves one piece/.test(await host.locator('#table-last').textContent()), 'the first roll');
  assert.match(await host.locator('#table-face').textContent(), /^[1-6]$/);
  await until(async () => /Round 1: roll/.test(await phone.locator('#table-last').textContent()), 'the phone shows the roll');
  await host.locator('body').press('n');
  await until(async () => /Round 1: activation \d\. The .* wakes/.test(await host.locator('#table-last').textContent()), 'the activation (key N)');
  // The host's page becomes the table's shared screen (the television's layout): N throws there.
  await host.click('#table-big');
  await host.locator('#tv-table-last').waitFor();
  await host.locator('body').press('n');
  await until(async () => /Round 2: roll/.test(await host.locator('#tv-table-last').textContent()), 'round 2 on the big screen');
  assert.equal(await host.locator('#tv-die').textContent(), (/roll (\d)/.exec(await host.locator('#tv-table-last').textContent()))[1]);
  await host.locator('body').press('Escape');
  await until(async () => /Round 2: roll/.test(await host.locator('#table-last').textContent()), 'the controls again');

  // Paused: Next is refused until the game resumes.
  await host.click('#pause-game');
  await host.locator('#resume-game').waitFor();
  await host.locator('body').press('n');
  await until(async () => /resume it first/.test(await host.locator('#story').textContent()), 'Next refused while paused');
  assert.match(await host.locator('#table-last').textContent(), /Round 2: roll/);
  await host.click('#resume-game');
  await host.locator('#pause-game').waitFor();
  await host.click('#table-next');
  await until(async () => /Round 2: activation/.test(await host.locator('#table-last').textContent()), 'round 2 activation');
  await until(async () => (await tv.locator('#tv-table-last').textContent()) === (await host.locator('#table-last').textContent()),
    'the shared screen shows the last announcement');
  assert.equal(await tv.locator('#tv-die').textContent(), await host.locator('#table-face').textContent());

  // The end: Ben is named the winner.
  await host.check('#winner-1');
  await host.click('#table-end');
  await host.click('#confirm-yes');
  await host.locator('#end-winner').waitFor({ timeout: 10000 });
  assert.match(await host.locator('#story').textContent(), /Ben wins/);
  const link = await host.locator('#end-record').getAttribute('href');
  const file = party.server.recordFile(link.split('/').pop());
  await until(() => fs.existsSync(file), 'the record');
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(record.options.table, true);
  assert.deepEqual(record.client_seeds.map((c) => c.by), ["host's page", 'a phone at the table']);
  assert.deepEqual(record.result.winners, [1]);
  assert.equal(record.announcements.length, 5);
  const v = await party.server.verify(file);
  assert.equal(v.code, 0, v.out);
  assert.match(v.out, /positions were never seen/);
  // The host's page and the phone checked every die themselves (the table's seeds, the boards' draw).
  const dice = record.draws.filter((d) => d.purpose !== 'assignment').length;
  for (const page of [host, phone]) assert.equal((await diceVerdict(page)).lines[0], `The boards and all ${dice} dice checked: fair.`);
  // The shared screen said every roll and activation of the record, in order, and the winner.
  await until(async () => (await said(tv)).length === 5, 'the shared screen said the winner', 5000);
  assert.deepEqual(await said(tv), spookWords(record));
  assert.deepEqual(await said(host), spookWords(record));
  assert.deepEqual(errors, []);
});

test('the host drives a Ludo table game: the roll-off, throws in turn, the key S skips a turn, and the declared winner\'s record verifies', { timeout: 90000 }, async () => {
  const errors = [];
  const host = await newPage(party.browser, DESKTOP, errors);
  await createRoom(host, party.server.base, { name: 'Host', game: 'ludo', players: 2 });
  await host.fill('#table-names', 'Ann, Ben');
  await host.click('#table-on');
  await until(async () => /a game at one table for Ann, Ben/.test(await host.locator('#lobby-game').textContent()), 'the names set');
  await host.click('#start');
  await until(async () => /host's page/.test(await host.locator('#table-last').textContent()), 'the host page\'s seed in');
  await host.click('#table-next');
  await until(async () => /first roll waits/.test(await host.locator('#table-last').textContent()), 'the game started');
  await host.locator('body').press('Space');
  await until(async () => /^Roll-off: .* starts\.$/.test(await host.locator('#table-last').textContent()), 'the roll-off');
  await host.click('#table-next');
  await until(async () => /^Throw 1: (Ann|Ben) throws [1-6]\./.test(await host.locator('#table-last').textContent()), 'throw 1');
  await host.locator('body').press('s');
  await until(async () => /turn is skipped\. Next: (Ann|Ben)\./.test(await host.locator('#table-last').textContent()), 'a skipped turn');
  await host.click('#table-next');
  await until(async () => /^Throw 2: /.test(await host.locator('#table-last').textContent()), 'throw 2');
  await host.check('#winner-0');
  await host.click('#table-end');
  await host.click('#confirm-yes');
  await host.locator('#end-winner').waitFor({ timeout: 10000 });
  const link = await host.locator('#end-record').getAttribute('href');
  const file = party.server.recordFile(link.split('/').pop());
  await until(() => fs.existsSync(file), 'the record');
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(record.announcements.map((a) => a.kind), ['roll_off', 'throw', 'skip', 'throw', 'winners']);
  const v = await party.server.verify(file);
  assert.equal(v.code, 0, v.out);
  // The roll-off's throws and the two throws, checked by the host's page itself.
  assert.equal((await diceVerdict(host)).lines[0], `All ${record.draws.length} dice checked: fair.`);
  assert.deepEqual(errors, []);
});
