// Every page checks a Classic Ludo game's dice by itself at the end (docs/fair-dice.md, "Your own
// client checks"): an honest game played to its end with a bot says "fair" with the record's count
// of dice (the roll-off's throws and every throw) on the player's page and a spectator's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, PHONE, until, answerDecisions, serverAndBrowser } from './harness.js';
import { createRoom } from './tv_helpers.js';
import { diceVerdict, recordDice } from './dice_helpers.js';

// No pause between steps: the game waits only for the player's choices.
const party = serverAndBrowser(['--decision-ms', '20000']);

test("Ludo: the player's page and a spectator's say all the dice are fair, with the record's count", { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, PHONE, errors);
  const code = await createRoom(ann, party.server.base, { game: 'ludo', players: 2, arm: 6 });
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  const sam = await newPage(party.browser, PHONE, errors);
  await sam.goto(`${party.server.base}/r/${code}`);
  await sam.click('#watch-go');
  await until(async () => /1 spectator/.test(await ann.locator('#screen').textContent()), 'Sam watching');
  await ann.click('#start');
  await answerDecisions(ann, async () => (await ann.locator('#end-winner').count()) > 0, { ms: 80000, keys: true });

  const dice = await recordDice(party.server, ann);
  for (const page of [ann, sam]) {
    const r = await diceVerdict(page);
    assert.equal(r.verdict, 'fair', r.lines.join(' '));
    assert.equal(r.lines[0], `All ${dice} dice checked: fair.`);
  }
  assert.ok((await diceVerdict(ann)).lines.includes('Your own seed went into the dice.'));
  assert.deepEqual(errors, []);
});
