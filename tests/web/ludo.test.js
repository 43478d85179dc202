// Classic Ludo on arms of 6: a browser player on a phone chooses every move by tapping the piece
// on the SVG board, against a server bot, to the end; the record verifies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newPage, PHONE, roomCode, until, sleep, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '15000']);

test('a Ludo game (arm 6) with a browser player tapping pieces, to its end', { timeout: 150000 }, async () => {
  const errors = [];
  const page = await newPage(party.browser, PHONE, errors);
  await page.goto(party.server.base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', 'Ann');
  await page.selectOption('#create-game', 'ludo');
  await page.fill('#create-players', '2');
  await page.selectOption('#create-arm', '6');
  await page.click('#create-go');
  await roomCode(page);
  assert.match(await page.locator('#lobby-game').textContent(), /Classic Ludo: 2 seats, arms of 6/);
  await page.click('#bot-best');
  await until(async () => (await page.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await page.click('#start');
  await page.locator('svg.ludo').waitFor({ timeout: 20000 });
  // The board: 52 circuit squares, 4 home columns of 5.
  assert.equal(await page.locator('svg.ludo rect.cell').count(), 52 + 4 + 4 * 5);

  // A throw with one distinct move is played at once, so about one game in a hundred gives the
  // player no choice at all (no second piece out before the bot wins): such a game is followed by
  // a rematch, until one asked the player (a bound of four games).
  let taps = 0;
  const tapErrors = []; // taps that found the piece gone (answered, redrawn) or covered
  let sawTarget = false;
  let sawOut = false; // the story (its last 200 lines) told a piece coming out
  let story = '';
  for (let game = 1; ; game++) {
    const end = Date.now() + 130000;
    while ((await page.locator('#end-winner').count()) === 0) {
      assert.ok(Date.now() < end, `the game did not end in time (${taps} taps; failed taps: ${tapErrors.slice(-3).join(' | ')})`);
      const movable = page.locator('svg.ludo g.piece.movable');
      if ((await movable.count()) > 0) {
        try {
          sawTarget ||= (await page.locator('svg.ludo .target-num').count()) > 0;
          if (!sawOut) sawOut = /brings piece \d out/.test(await page.locator('#story').textContent());
          const label = await movable.first().getAttribute('aria-label');
          assert.match(label, /^Option \d: piece \d from (the start circle|the start square|square \d+( of the home column)?) to /);
          await movable.first().tap({ timeout: 1000 });
          taps++;
        } catch (e) {
          if (e.code === 'ERR_ASSERTION') throw e;
          tapErrors.push(String(e.message).split('\n').slice(0, 6).join(' / '));
        }
      }
      await sleep(40);
    }
    story = await page.locator('#story').textContent();
    if (taps > 0 || game === 4) break;
    await page.click('#end-close');
    await page.click('#start');
    await until(async () => (await page.locator('#end-winner').count()) === 0, 'the rematch started');
  }
  const ended = await page.locator('#end-winner').textContent();
  assert.ok(taps > 0, `the player chose by tapping pieces (the end: "${ended}"; failed taps: ${tapErrors.slice(-3).join(' | ')}; the story's end: ${story.slice(-1500)})`);
  assert.ok(sawTarget, "the options' target squares were marked");
  assert.ok(/throws a \d/.test(story), 'the throws are told');
  assert.ok(sawOut, 'a piece coming out was told');
  const link = await page.locator('#end-record').getAttribute('href');
  const id = link.split('/').pop();
  await until(() => fs.existsSync(party.server.recordFile(id)), 'the record file');
  const v = await party.server.verify(party.server.recordFile(id));
  assert.equal(v.code, 0, v.out);
  const record = JSON.parse(fs.readFileSync(party.server.recordFile(id), 'utf8'));
  const winner = record.seats.find((s) => s.seat === record.result.winners[0]).name;
  assert.ok((await page.locator('#end-winner').textContent()).startsWith(`${winner} wins`));
  assert.deepEqual(errors, []);
});
