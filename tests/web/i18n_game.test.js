// The game screens in the pseudo-language (?lang=qps, kept as the page's chosen language): every
// text a person reads is one the page translates, so each shows inside ⟦…⟧ (the rule:
// text_check.js). Spook: a decision and an activation on the player's page, and the shared screen
// (/tv/CODE) in the lobby and in the game; Ludo: a decision and a throw; a table game's host page.
// Left out: the players' names on their own (allowed by name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, newPage, until, untilDecision, sleep, serverAndBrowser, startServer } from './harness.js';
import { TV_720 } from './tv_helpers.js';
import { unwrappedTexts, pageIn, createIn } from './text_check.js';

const party = serverAndBrowser(['--decision-ms', '30000']);
const NAMES = ['Ann', 'best bot 1', 'Ben', 'Cid'];

async function noneUnwrapped(page, what, opts = {}) {
  const found = await unwrappedTexts(page, { root: '#screen', allow: NAMES, ...opts });
  assert.deepEqual(found, [], `${what}: texts outside ⟦…⟧`);
}

// Presses the first option of each decision until `done()` (the page's keyboard: the number 1).
async function playUntil(page, done, what, ms = 60000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    if ((await page.locator('#decision button.option:not([disabled])').count()) > 0) await page.keyboard.press('1').catch(() => {});
    await sleep(50);
  }
}

test('in the pseudo-language every text of a Spook decision, an activation and the shared screen is translated', { timeout: 120000 }, async (t) => {
  // A server with a pause between steps, as people play: the monster stays on the screen a moment.
  const server = await startServer(['--decision-ms', '30000', '--pace-ms', '1500']);
  t.after(() => server.stop());
  const errors = [];
  const ann = await pageIn(newPage, party.browser, DESKTOP, errors, 'qps');
  const code = await createIn(ann, server.base, { game: 'spook', players: 2, hints: true });
  const tv = await pageIn(newPage, party.browser, TV_720, errors, 'qps');
  await tv.goto(`${server.base}/tv/${code}`);
  await tv.locator('#tv-join').waitFor();
  await ann.click('#bot-best');
  await until(async () => (await tv.locator('#tv-seats li:not(.free)').count()) === 2, 'the bot on the shared screen');
  // The join link shows as itself (an address, not words).
  await noneUnwrapped(tv, 'the shared screen, lobby', { root: 'body', allow: [...NAMES, `${server.base}/r/${code}`] });

  await ann.click('#start');
  await ann.locator('#decision button.option').first().waitFor({ timeout: 20000 });
  await noneUnwrapped(ann, 'a Spook decision');
  // The options' names are sentences in the page's language too.
  const label = await ann.locator('#decision button.option').first().getAttribute('aria-label');
  assert.match(label, /^⟦Option 1: ⟦+piece 1 from \d+ to \d+, /);

  await playUntil(ann, async () => (await ann.locator('#activation').count()) > 0, 'an activation');
  await noneUnwrapped(ann, 'a Spook activation');
  await tv.locator('#tv-activation').waitFor();
  await noneUnwrapped(tv, 'the shared screen, a game', { root: 'body' });
  assert.deepEqual(errors, []);
});

test('in the pseudo-language every text of a Ludo decision and a throw is translated', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await pageIn(newPage, party.browser, DESKTOP, errors, 'qps');
  await createIn(ann, party.server.base, { game: 'ludo', players: 2, arm: 6 });
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await ann.click('#start');
  await ann.locator('svg.ludo').waitFor({ timeout: 20000 });
  await ann.locator('#last-throw').waitFor({ timeout: 30000 });
  await noneUnwrapped(ann, 'a Ludo throw');
  await untilDecision(ann);
  await noneUnwrapped(ann, 'a Ludo decision');
  const piece = ann.locator('svg.ludo g.piece.movable').first();
  // Read while the decision is open (a loaded machine's page may redraw between two reads).
  await until(async () => /^⟦Option \d: ⟦piece \d from /.test((await piece.getAttribute('aria-label', { timeout: 2000 }).catch(() => '')) || ''),
    'a movable piece named as an option sentence');
  assert.deepEqual(errors, []);
});

test("in the pseudo-language every text of a table game's host page is translated", { timeout: 90000 }, async () => {
  const errors = [];
  const host = await pageIn(newPage, party.browser, DESKTOP, errors, 'qps');
  await createIn(host, party.server.base, { name: 'Ann', game: 'spook', players: 3 });
  await host.fill('#table-names', 'Ann, Ben, Cid');
  await host.click('#table-on');
  await host.locator('#table-names-set').waitFor();
  await host.click('#start');
  await host.locator('#table-next').waitFor();
  // Next closes the seeds, then throws the first die.
  await until(async () => {
    if (/[1-6]/.test(await host.locator('#table-face').textContent())) return true;
    await host.click('#table-next');
    await sleep(300);
    return false;
  }, 'the first roll');
  await noneUnwrapped(host, 'a table game');
  await host.click('#table-big');
  await host.locator('#tv-table-last').waitFor();
  await noneUnwrapped(host, "a table game's big screen", { root: 'body' });
  assert.deepEqual(errors, []);
});
