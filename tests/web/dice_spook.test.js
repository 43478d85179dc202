// Every page checks a Spook game's dice by itself at the end (docs/fair-dice.md, "Your own client
// checks"): an honest game played to its end with bots says "fair" with the record's count of dice
// on the player's page and the shared screen; a spectator who came in during the game says how
// many it saw and where the others come from; a player's page reloaded during the game still
// checks the dice it saw before the reload (the tab keeps them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, DESKTOP, until, answerDecisions, serverAndBrowser } from './harness.js';
import { createRoom, TV_720 } from './tv_helpers.js';
import { diceVerdict, recordDice } from './dice_helpers.js';

// No pause between steps: the game waits only for the player's choices (a minute each, and as
// long for a page that reloads: a loaded machine's reload must not cost Ann her choice).
const party = serverAndBrowser(['--decision-ms', '60000', '--drop-grace-ms', '60000']);

const storyRound = async (page) => Math.max(0, ...[...(await page.locator('#story').textContent()).matchAll(/Round (\d+): the die shows/g)].map((m) => Number(m[1])));

test("Spook: the player's page and the shared screen (a spectator from the start) say all the dice are fair; a spectator who came in late says how many it saw; a page reloaded mid-game keeps what it saw", { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  const code = await createRoom(ann, party.server.base, { players: 3 });
  await ann.click('#bot-best');
  await ann.click('#bot-greedy');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 3, 'the bots seated');
  const tv = await newPage(party.browser, TV_720, errors);
  await tv.goto(`${party.server.base}/tv/${code}`);
  await tv.locator('#tv-join').waitFor();
  await until(async () => /1 spectator/.test(await ann.locator('#screen').textContent()), 'the shared screen watching');

  // Ann answers every choice until one of round 2 or later, which the game then waits for: Lee
  // comes in, and Ann's page is reloaded (the same choice comes back); then she plays on to the end.
  await ann.click('#start');
  const open = ann.locator('#decision button.option:not([disabled])');
  await until(async () => {
    if ((await open.count()) === 0) return false;
    if ((await storyRound(ann)) >= 2) return true;
    await open.first().click({ timeout: 1000 }).catch(() => {});
    return false;
  }, "Ann's choice in round 2 or later", 30000);
  const lee = await newPage(party.browser, PHONE, errors);
  await lee.goto(`${party.server.base}/r/${code}`);
  await lee.click('#watch-go');
  await until(async () => (await lee.evaluate(() => document.body.dataset.screen)) === 'game', "Lee's page in the game");
  await ann.reload();
  await open.first().waitFor({ timeout: 15000 });
  await answerDecisions(ann, async () => (await ann.locator('#end-winner').count()) > 0, { ms: 60000, keys: true });

  const dice = await recordDice(party.server, ann);
  const want = `The boards and all ${dice} dice checked: fair.`;
  const onTv = await diceVerdict(tv, 'tv-dice');
  assert.deepEqual([onTv.verdict, onTv.lines[0], onTv.crypto], ['fair', want, 'webcrypto'], 'http://127.0.0.1 is a secure context');
  // Ann's page saw the start (and sent its seed) before its reload, no die while it reloaded (the
  // game waited for her), the rest after it.
  const onAnn = await diceVerdict(ann);
  assert.deepEqual(onAnn.lines, [want, 'Your own seed went into the dice.']);
  // Lee saw the game from that round on: the others are the record's, checked against the stream.
  const onLee = await diceVerdict(lee);
  assert.equal(onLee.verdict, 'fair', onLee.lines.join(' '));
  const m = /^(\d+) of (\d+) dice checked \(this page joined at round (\d+)\); all fair\.$/.exec(onLee.lines[0]);
  assert.ok(m, onLee.lines.join(' '));
  assert.equal(Number(m[2]), dice);
  assert.ok(Number(m[3]) >= 2, onLee.lines[0]);
  assert.deepEqual(onLee.lines.slice(1), [`The other ${dice - Number(m[1])} dice are in the game's record, which matches the commitment and every die this page saw; the seeds give them too.`,
    "This page did not see the game start: the players' seeds are the record's."]);
  assert.deepEqual(errors, []);
});
