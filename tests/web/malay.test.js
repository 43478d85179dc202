// The game in Bahasa Melayu: a phone whose browser speaks Malay (locale ms-MY) plays a Spook game
// until a monster wakes (then its host ends it) and a Ludo game to its first decisions, and the screens say it in the Malay rule
// text's words (dadu, keping, petak, giliran, balingan, bulatan permulaan; hijau, merah) and no
// English sentence. Pictures of the phone lobby, a Spook decision and the Ludo board in Malay are
// taken each run, written to docs/screenshots/ms-*.png with SPOOKLUDO_UPDATE_SCREENSHOTS=1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PHONE, newPage, until, untilDecision, repo, answerDecisions, serverAndBrowser, startServer } from './harness.js';
import { createIn } from './text_check.js';

const party = serverAndBrowser(['--decision-ms', '30000']);
const out = process.env.SPOOKLUDO_UPDATE_SCREENSHOTS === '1'
  ? path.join(repo, 'docs', 'screenshots')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-ms-'));
fs.mkdirSync(out, { recursive: true });
after(() => {
  if (process.env.SPOOKLUDO_UPDATE_SCREENSHOTS !== '1') fs.rmSync(out, { recursive: true, force: true });
});
const MALAY_PHONE = { ...PHONE, locale: 'ms-MY' };

// English words a Malay game screen must not show (the game screens' own texts: the player's
// names and the story, told by the server's words, are not looked at).
const ENGLISH = /\b(the|your|piece|square|throw|round|wins|option|leave|choose|board|players|home|start)\b/i;

// The game screen's text, the boards' and options' accessible names with it.
function screenWords(page) {
  return page.evaluate(() => {
    const screen = document.getElementById('screen');
    const names = [...screen.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
    const clone = screen.cloneNode(true);
    for (const el of clone.querySelectorAll('.seat-name, .tags')) el.remove();
    return [clone.innerText || clone.textContent, ...names].join('\n');
  });
}

function noEnglish(text, what) {
  const line = text.split('\n').find((l) => ENGLISH.test(l.replace(/best bot \d/g, '')));
  assert.equal(line, undefined, `${what}: an English line`);
}

test('a Spook game on a phone in Malay: the decision, the monster and the boards in the rule text\'s words', { timeout: 150000 }, async (t) => {
  // A server with a pause between steps, as people play: the monster stays on the screen a moment.
  const server = await startServer(['--decision-ms', '30000', '--pace-ms', '1500']);
  t.after(() => server.stop());
  const errors = [];
  const ann = await newPage(party.browser, MALAY_PHONE, errors);
  await ann.emulateMedia({ reducedMotion: 'reduce' });
  await createIn(ann, server.base, { name: 'Ann', game: 'spook', players: 2 });
  assert.equal(await ann.evaluate(() => document.documentElement.lang), 'ms');
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await ann.screenshot({ path: path.join(out, 'ms-lobby-phone.png') });
  await ann.click('#start');
  await ann.locator('#decision button.option').first().waitFor({ timeout: 20000 });
  assert.match(await ann.locator('#decision-h').textContent(), /^Giliran anda: dadu menunjukkan [1-6]$/);
  assert.match(await ann.locator('#decision button.option').first().getAttribute('aria-label'), /^Pilihan 1: keping \d dari \d+ ke \d+/);
  assert.match(await ann.locator('.own .board').getAttribute('aria-label'), /^Papan Ann: keping 1 di petak \d+/);
  noEnglish(await screenWords(ann), 'a Spook decision');
  await ann.screenshot({ path: path.join(out, 'ms-spook-decision-phone.png') });
  let sawMonster = false;
  await answerDecisions(ann, async () => {
    // The monster's panel and the screen read at once (the next roll takes the panel away).
    const [monster, words] = await Promise.all([ann.evaluate(() => document.getElementById('activation')?.textContent ?? null), screenWords(ann)]);
    if (monster !== null && words.includes('terjaga')) {
      assert.match(monster, /(Topi Ahli Nujum|Kucing Hitam|Hantu|Serigala Jadian|Ahli Sihir) terjaga: mana-mana keping di atas/);
      noEnglish(words, 'a monster');
      sawMonster = true;
    }
    return sawMonster;
  }, { ms: 60000 });
  // The story tells the rounds and the monsters in Malay too.
  const story = await ann.locator('#story').textContent();
  assert.match(story, /Pusingan \d+: dadu menunjukkan \d\. Semua orang menggerakkan satu keping \d petak\./);
  assert.match(story, /Dadu menunjukkan \d: (Topi Ahli Nujum|Kucing Hitam|Hantu|Serigala Jadian|Ahli Sihir)!/);
  // The host ends the game, asked in Malay first.
  await ann.click('#end-game');
  assert.match(await ann.locator('#confirm-text').textContent(), /^Tamatkan permainan sekarang\?/);
  await ann.click('#confirm-yes');
  await ann.locator('#end-winner').waitFor({ timeout: 20000 });
  assert.ok(sawMonster, 'a monster woke');
  assert.deepEqual(errors, []);
});

test('a Ludo game on a phone in Malay: the colours, the start circle and the throw in the rule text\'s words', { timeout: 120000 }, async () => {
  const errors = [];
  const ann = await newPage(party.browser, MALAY_PHONE, errors);
  await ann.emulateMedia({ reducedMotion: 'reduce' });
  await createIn(ann, party.server.base, { name: 'Ann', game: 'ludo', players: 2, arm: 6 });
  await ann.click('#bot-best');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 2, 'the bot seated');
  await ann.click('#start');
  await ann.locator('svg.ludo').waitFor({ timeout: 20000 });
  const players = await ann.locator('#standings').textContent();
  assert.match(players, /hijau/);
  assert.match(players, /merah/);
  assert.match(players, /bulatan permulaan \d, rumah \d/);
  assert.match(await ann.locator('svg.ludo').getAttribute('aria-label'), /^Papan Ludo, lengan 6 petak$/);
  // Until a decision: the keping that can move are named by where they go.
  await untilDecision(ann);
  assert.match(await ann.locator('#decision-h').textContent(), /^Giliran anda: balingan anda [1-6]$/);
  assert.match(await ann.locator('#last-throw').textContent(), /^Balingan terakhir: [1-6]/);
  const label = await ann.locator('#decision button.option').first().getAttribute('aria-label');
  assert.match(label, /^Pilihan 1: keping \d dari (bulatan permulaan|petak permulaan|petak \d+) ke (petak permulaan|petak \d+|segi tiga rumah)/);
  noEnglish(await screenWords(ann), 'a Ludo decision');
  await ann.screenshot({ path: path.join(out, 'ms-ludo-board-phone.png') });
  assert.deepEqual(errors, []);
});
