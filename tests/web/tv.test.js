// The shared screen (/tv/CODE) and the game announced aloud (issue 36, parts 1 and 2): a
// television page (1920x1080) and two phones play with a terminal bot to the end, Spook and Ludo,
// with the page's speech synthesis replaced by a recorder; what it said matches, in order, the
// rolls and activations (Spook) or the throws and captures (Ludo) of the game's record. A pause
// says nothing, a reload mid-game says nothing twice, a muted screen says nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, PHONE, answerDecisions, until, serverAndBrowser } from './harness.js';
import { TV_1080, TV_720, recordingPage, said, createRoom, joinRoom, smallestText, fitsWindow, spookWords, ludoWords } from './tv_helpers.js';

const party = serverAndBrowser(['--decision-ms', '4000']);

async function recordOf(bot) {
  const m = await bot.waitFor(/game_over (\S+) finished/, 30000);
  const file = party.server.recordFile(m[1]);
  await until(() => fs.existsSync(file), 'the record file');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

test('Spook on the shared screen: two phones and a terminal bot play to the end; the screen said every roll and activation of the record in order, nothing during a pause, nothing twice after a reload', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await recordingPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { players: 3 });
  // The lobby offers the shared screen.
  assert.equal(await ann.locator('#tv-open').getAttribute('href'), `/tv/${code}`);
  const tv = await recordingPage(party.browser, TV_1080, errors);
  await tv.goto(`${party.server.base}/tv/${code}`);
  // How to join: the code, the link and its QR code, the seats filling.
  await tv.locator('#tv-join').waitFor();
  assert.equal(await tv.locator('#tv-link').textContent(), `${party.server.base}/r/${code}`);
  assert.equal(await tv.locator('#tv-code').textContent(), code);
  assert.equal(await tv.locator('.tv-qr svg').count(), 1);
  assert.match(await tv.locator('.tv-seats h2').textContent(), /Seats: 1 of 3 taken/);
  const ben = await recordingPage(party.browser, PHONE, errors);
  await joinRoom(ben, party.server.base, code, 'Ben');
  // Ben's own page announces the game too: he turns it on.
  await ben.check('#speak');
  const bot = party.server.bot('bot', ['--room', code, '--count', '1', '--policy', 'best']);
  await until(async () => /Seats: 3 of 3 taken/.test(await tv.locator('.tv-seats h2').textContent()), 'the seats filled on the screen');
  assert.deepEqual(await said(tv), [], 'nothing said in the lobby');

  await ann.click('#start');
  await tv.locator('#tv-boards').waitFor({ timeout: 15000 });
  assert.equal(await tv.locator('#tv-boards .board').count(), 3, 'every seat\'s board at once');
  const stop = { value: false };
  const over = async () => stop.value || (await tv.locator('#tv-winner').count()) > 0;
  const players = Promise.all([answerDecisions(ann, over, { ms: 100000 }), answerDecisions(ben, over, { ms: 100000, pick: 1 })]);

  // Some rounds in, the host pauses; the screen shows it and says nothing more; a reload of the
  // screen during the pause says nothing at all (what it said before stays said).
  await until(async () => (await said(tv)).length >= 6, 'six announcements', 60000);
  await ann.click('#pause-game');
  await tv.locator('#tv-paused').waitFor({ timeout: 10000 });
  assert.ok(await tv.evaluate(() => window.__speech.cancels() > 0), 'the pause cancelled what was still to be said');
  const before = await said(tv);
  await tv.reload();
  await tv.locator('#tv-paused').waitFor({ timeout: 10000 });
  await tv.locator('#tv-boards').waitFor();
  assert.deepEqual(await said(tv), [], 'the reloaded screen said nothing of what its snapshot shows');
  assert.equal(await tv.locator('#tv-boards .board').count(), 3, 'the boards are back after the reload');
  await ann.click('#resume-game');
  await tv.locator('#tv-winner').waitFor({ timeout: 90000 });
  await players;
  const record = await recordOf(bot);
  const expected = spookWords(record);
  const words = [...before, ...(await said(tv))];
  assert.deepEqual(words, expected, 'the screen said every roll and activation of the record, in order, and the winners, once');
  assert.deepEqual(await said(ben), expected, "Ben's page, announcing, said the same");
  assert.deepEqual(await said(ann), [], "Ann's page, not announcing, said nothing");
  // The end: the winners and the places.
  const names = record.result.winners.map((w) => record.seats.find((s) => s.seat === w).name);
  for (const n of names) assert.ok((await tv.locator('#tv-winner').textContent()).includes(n));
  assert.equal(await tv.locator('#tv-places li').count(), 3);
  // The game's replay and analysis: its address, for the sofa to open later.
  const id = /game_over (\S+) finished/.exec(bot.out)[1];
  assert.equal(await tv.locator('#tv-replay a').getAttribute('href'), `/replay/${id}`);
  await bot.wait(10000);
  assert.deepEqual(errors, []);
});

test('Ludo on the shared screen: two phones and a terminal bot play to the end; the screen said every throw and capture of the record in order', { timeout: 150000 }, async (t) => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { game: 'ludo', players: 3, arm: 6 });
  const tv = await recordingPage(party.browser, TV_720, errors);
  await tv.goto(`${party.server.base}/tv/${code}`);
  await tv.locator('#tv-join').waitFor();
  const ben = await newPage(party.browser, PHONE, errors);
  await joinRoom(ben, party.server.base, code, 'Ben');
  const bot = party.server.bot('bot', ['--room', code, '--count', '1', '--policy', 'best']);
  await until(async () => /Seats: 3 of 3 taken/.test(await tv.locator('.tv-seats h2').textContent()), 'the seats filled on the screen');
  await ann.click('#start');
  await tv.locator('.tv-ludo svg.ludo').waitFor({ timeout: 15000 });
  // The cross fits a 1280x720 screen, its smallest text (the yards' names, the pieces' numbers) readable.
  assert.ok(await fitsWindow(tv), 'the Ludo screen fits 1280x720');
  const small = await smallestText(tv);
  assert.ok(small.min >= 16, `the smallest text at 720p is ${small.min} px: ${small.what}`);
  t.diagnostic(`Ludo at 720p: the smallest text is ${small.min} px (${small.what})`);
  if (process.env.SPOOKLUDO_TV_SHOT) await tv.screenshot({ path: process.env.SPOOKLUDO_TV_SHOT });
  const over = async () => (await tv.locator('#tv-winner').count()) > 0;
  await Promise.all([answerDecisions(ann, over, { ms: 130000 }), answerDecisions(ben, over, { ms: 130000, pick: 1 })]);
  const record = await recordOf(bot);
  const words = await said(tv);
  const first = /^(.+), (green|yellow|red|blue), starts\.$/.exec(words[0]);
  assert.ok(first, `the first words say who starts: "${words[0]}"`);
  const starter = record.seats.find((s) => s.name === first[1]).seat;
  const expected = ludoWords(record, starter);
  assert.deepEqual(words.slice(1), expected, 'the screen said every throw and capture of the record, in order, and the winner');
  t.diagnostic(`${expected.filter((w) => / throws /.test(w)).length} throws, ${expected.filter((w) => / captures /.test(w)).length} captures said`);
  await bot.wait(10000);
  assert.deepEqual(errors, []);
});

test("a streamer's shared screen (?hide=code) shows neither the code nor the QR code; muted it says nothing, also after a reload; a missing room is told; it comes back by itself after a server restart", { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { players: 3, pieces: 1 });
  await ann.click('#bot-best');
  await ann.click('#bot-greedy');
  const tv = await recordingPage(party.browser, TV_720, errors);
  await tv.goto(`${party.server.base}/tv/${code}?hide=code`);
  await tv.locator('#tv-hidden-note').waitFor();
  await until(async () => /Seats: 3 of 3 taken/.test(await tv.locator('.tv-seats h2').textContent()), 'the seats on the screen');
  const shows = async () => (await tv.evaluate(() => document.body.innerText + document.title)).includes(code);
  assert.equal(await shows(), false, 'the code is nowhere on the screen nor in its title');
  assert.equal(await tv.locator('.tv-qr, #tv-link, #tv-code').count(), 0, 'no QR code, no link');
  // The host's own page still invites by link.
  assert.equal(await ann.locator('#join-link').textContent(), `${party.server.base}/r/${code}`);
  // The switch shows the code and hides it again; the address keeps the choice for a reload.
  await tv.click('#tv-hide');
  assert.equal(await tv.locator('#tv-code').textContent(), code);
  assert.equal(await tv.evaluate(() => location.search), '');
  await tv.click('#tv-hide');
  assert.equal(await tv.evaluate(() => location.search), '?hide=code');
  assert.equal(await shows(), false);
  // Muted, and still muted after a reload.
  assert.equal(await tv.locator('#tv-sound').textContent(), 'Sound on');
  await tv.click('#tv-sound');
  assert.equal(await tv.locator('#tv-sound').textContent(), 'Muted');
  await tv.reload();
  await tv.locator('#tv-hidden-note').waitFor();
  assert.equal(await tv.locator('#tv-sound').textContent(), 'Muted');
  // A game of 1-piece Spook (nothing to choose: it plays itself) says nothing on a muted screen.
  await ann.click('#start');
  await tv.locator('#tv-winner').waitFor({ timeout: 60000 });
  assert.deepEqual(await said(tv), [], 'a muted screen says nothing');
  assert.equal(await shows(), false, 'nor does the game or its end show the code');
  // A shared screen of a room that is not there says so.
  const lost = await recordingPage(party.browser, TV_720, errors);
  await lost.goto(`${party.server.base}/tv/ZZZZZ`);
  await until(async () => /There is no room ZZZZZ/.test(await lost.locator('#tv-home').textContent().catch(() => '')), 'the missing room told');
  await lost.close();
  // The server restarts: the screen comes back to the room by itself, on a new connection.
  const sockets = [];
  tv.on('websocket', (ws) => sockets.push(ws));
  const joinedAgain = new Promise((resolve) => tv.on('websocket', (ws) => ws.on('framereceived', (f) => {
    if (/"type":"joined"/.test(String(f.payload))) resolve();
  })));
  await party.server.restart();
  await joinedAgain;
  assert.ok(sockets.length >= 1, 'a new connection');
  await until(async () => (await tv.locator('#conn').isHidden()) && (await tv.locator('.tv-seats, #tv-winner').count()) > 0, 'the screen back in its room', 30000);
  assert.equal(await shows(), false, 'nor after coming back');
  assert.deepEqual(errors, []);
});
