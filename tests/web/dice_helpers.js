// What the dice-check tests share: the end screen's own check of the dice once it is done, and the
// count of a game's dice in its record (docs/fair-dice.md, "Your own client checks").
import fs from 'node:fs';
import { until } from './harness.js';

// The check (#end-dice, #tv-dice on the shared screen) once it is done: its verdict, the hashing
// it used (webcrypto or js) and its sentences.
export async function diceVerdict(page, id = 'end-dice') {
  const el = page.locator(`#${id}:not([data-verdict="checking"])`);
  await el.waitFor({ timeout: 30000 });
  return { verdict: await el.getAttribute('data-verdict'), crypto: await el.getAttribute('data-crypto'), lines: await el.locator('p').allTextContents() };
}

// The dice of the game whose end `page` shows (the record's draws but the boards' assignment),
// read from the record file `server` exported.
export async function recordDice(server, page) {
  const id = (await page.locator('#end-record').getAttribute('href')).split('/').pop();
  const file = server.recordFile(id);
  await until(() => fs.existsSync(file), 'the record file');
  return JSON.parse(fs.readFileSync(file, 'utf8')).draws.filter((d) => d.purpose !== 'assignment').length;
}
