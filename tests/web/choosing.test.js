// Whom a Spook round waits for, on the page (issue 34): after choosing, the names of the players
// still choosing and their time left, counting down between messages, the list shrinking as each
// one chooses. Two slow players are terminal bots that think before answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, DESKTOP, roomCode, until, serverAndBrowser } from './harness.js';

const party = serverAndBrowser(['--decision-ms', '30000']);

test('after choosing, the page shows who is still choosing and their time left, and the list shrinks as they choose', { timeout: 90000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, DESKTOP, errors);
  await ann.goto(party.server.base + '/');
  await ann.locator('#create summary').click();
  await ann.fill('#create-name', 'Ann');
  await ann.selectOption('#create-game', 'spook');
  await ann.fill('#create-players', '3');
  await ann.click('#create-go');
  const code = await roomCode(ann);
  // Ben answers after 5 s, Cid after 12 s.
  // (Seated in this order: the line names them in seat order.)
  const ben = party.server.bot('ben', ['--room', code, '--count', '1', '--name', 'Ben', '--think', '5000']);
  let cid = null;
  try {
    await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'Ben seated');
    cid = party.server.bot('cid', ['--room', code, '--count', '1', '--name', 'Cid', '--think', '12000']);
    await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 3, 'Cid seated');
    await ann.click('#start');
    const line = ann.locator('#choosing');
    const text = async () => ((await line.count()) ? (await line.textContent()) : '');
    // Ann answers every choice at once, until a round asks both Ben and Cid (a round asks only the
    // players whose options differ): her page then says whom it waits for, and how long they have.
    const both = await until(async () => {
      const option = ann.locator('#decision button.option:not([disabled])');
      if (await option.count()) await option.first().click({ timeout: 1000 }).catch(() => {});
      return /^Still choosing \((\d+) s left\): Ben-1 and Cid-1$/.exec(await text());
    }, 'the line naming Ben and Cid once Ann has no choice to make', 60000);
    assert.ok(Number(both[1]) > 20 && Number(both[1]) <= 30, `"${both[0]}": about 30 s left`);
    // It counts down between messages.
    await until(async () => {
      const m = /^Still choosing \((\d+) s left\): Ben-1 and Cid-1$/.exec(await text());
      return m && Number(m[1]) < Number(both[1]);
    }, 'the seconds going down', 5000);
    // Ben answers: only Cid is left, with the same deadline.
    const cidOnly = await until(async () => /^Still choosing \((\d+) s left\): Cid-1$/.exec(await text()), 'the line shrunk to Cid', 15000);
    assert.ok(Number(cidOnly[1]) > 5 && Number(cidOnly[1]) < Number(both[1]), `"${cidOnly[0]}"`);
  } finally {
    ben.kill();
    cid?.kill();
  }
  assert.deepEqual(errors, []);
});
