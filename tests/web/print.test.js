// The printed boards from the page (issue 36): in a Spook game the "Print boards" button lays out
// one board a page for every seat and opens the browser's print; Chromium's own print to PDF (A4
// and US Letter) read back with pdfinfo and pdftotext (Debian's poppler-utils) has one page a
// board, each with its player's name, the regions, squares 1 to 40, every square's character word
// and the legend, and the characters are the game's own: the record's boards, as assigned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { newPage, DESKTOP, until, serverAndBrowser, repo } from './harness.js';
import { createRoom } from './tv_helpers.js';

const party = serverAndBrowser(['--decision-ms', '60000', '--pace-ms', '50']);

const WORDS = { "Wizard's Hat": 'H', 'Black Cat': 'C', Spook: 'S', Werewolf: 'W', Witch: 'X', entrance: '.', church: '+' };

// A page's squares as board notation: the character words between the first region's name and
// the legend, in reading order.
function squaresRead(page) {
  const begin = page.indexOf('Haunted Orchard');
  const end = page.indexOf('Legend');
  if (begin < 0 || end < begin) return '(no board on the page)';
  const words = page.slice(begin, end).match(/Wizard's Hat|Black Cat|Spook|Werewolf|Witch|entrance|church/g) || [];
  return words.map((w) => WORDS[w]).join('');
}

function readPdf(file) {
  const info = execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' });
  const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const pages = text.split('\f').filter((p) => p.trim() !== '');
  return { info, pages };
}

function checkPages(pages, expected, what) {
  assert.equal(pages.length, expected.length, `${what}: one page a board`);
  pages.forEach((page, i) => {
    const { name, board } = expected[i];
    const head = page.slice(0, page.indexOf('Haunted Orchard'));
    assert.ok(head.includes(name), `${what} page ${i + 1} is headed by ${name}:\n${page}`);
    for (const region of ['Haunted Orchard', 'Creepy Cornfield', 'Gruesome Graveyard', 'Wild Wood'])
      assert.ok(page.includes(region), `${what} page ${i + 1} names ${region}`);
    const squares = page.slice(page.indexOf('Haunted Orchard'), page.indexOf('Legend'));
    for (let n = 1; n <= 40; n++) assert.match(squares, new RegExp(`(^|\\s)${n}(\\s|$)`), `${what} page ${i + 1} numbers square ${n}`);
    assert.equal(squaresRead(page), board, `${what} page ${i + 1}: ${name}'s board, square by square`);
    const legend = page.slice(page.indexOf('Legend'));
    for (const row of [/1 or 2\s+Wizard's Hat\s+moves forward 3 squares/, /3\s+Black Cat\s+moves back 6 squares/,
      /4\s+Spook\s+goes back to the entrance of its region/, /5\s+Werewolf\s+goes back to the entrance of its region/,
      /6\s+Witch\s+goes back to square 1/])
      assert.match(legend, row, `${what} page ${i + 1}'s legend`);
  });
}

test('the host prints the boards of a Spook game from the page: Chromium\'s PDF on A4 and on US Letter has one page a seat with its name, 40 squares, the game\'s characters and the legend', { timeout: 90000 }, async () => {
  const errors = [];
  // A browser in British English: A4 by default (American and Canadian English: US Letter).
  const ann = await newPage(party.browser, { ...DESKTOP, locale: 'en-GB' }, errors);
  const code = await createRoom(ann, party.server.base, { game: 'spook', players: 3 });
  await ann.click('#bot-greedy');
  await ann.click('#bot-greedy');
  await until(async () => (await ann.locator('#seats li:not(.free)').count()) === 3, 'two bots seated');
  await ann.click('#start');

  // The button is on the game's screen from its start (Ann does not choose: the game waits for her).
  await ann.locator('#print-boards-btn').waitFor({ timeout: 15000 });
  await ann.evaluate(() => {
    window.printed = 0;
    window.print = () => { window.printed += 1; };
  });
  assert.equal(await ann.locator('#print-paper').inputValue(), 'a4');
  await ann.click('#print-boards-btn');
  await until(async () => (await ann.evaluate(() => window.printed)) === 1, 'the button opens the browser\'s print');
  assert.equal(await ann.locator('#print-boards .print-page').count(), 3, 'a page for each seat');
  // On the screen nothing changes: the print section only prints.
  assert.equal(await ann.locator('#print-boards').isVisible(), false);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-web-print-'));
  await ann.emulateMedia({ media: 'print' });
  await ann.pdf({ path: path.join(dir, 'a4.pdf'), format: 'A4' });
  // US Letter, chosen next to the button (and remembered by the browser).
  await ann.emulateMedia({ media: 'screen' });
  await ann.selectOption('#print-paper', 'letter');
  await ann.click('#print-boards-btn');
  await until(async () => (await ann.evaluate(() => window.printed)) === 2, 'the second print');
  assert.equal(await ann.locator('#print-boards.paper-letter').count(), 1);
  await ann.emulateMedia({ media: 'print' });
  await ann.pdf({ path: path.join(dir, 'letter.pdf'), format: 'Letter' });
  await ann.emulateMedia({ media: 'screen' });
  assert.equal(await ann.evaluate(() => localStorage.getItem('spookludo.paper')), '"letter"');

  // The game's boards, from its record: end the game (the host's button) and read it.
  await ann.click('#end-game');
  await ann.click('#confirm-yes');
  await ann.locator('#end-record').waitFor({ timeout: 10000 });
  const link = await ann.locator('#end-record').getAttribute('href');
  const file = party.server.recordFile(link.split('/').pop());
  await until(() => fs.existsSync(file), 'the record');
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  const expected = record.seats.slice().sort((a, b) => a.seat - b.seat)
    .map((s) => ({ name: s.name, board: record.boards[record.assignment[s.seat]] }));
  assert.equal(expected.length, 3);
  assert.equal(expected[0].name, 'Ann');

  const a4 = readPdf(path.join(dir, 'a4.pdf'));
  assert.match(a4.info, /Page size:\s+595(\.\d+)? x 841(\.\d+)? pts \(A4\)|Page size:\s+595(\.\d+)? x 842(\.\d+)? pts \(A4\)/);
  checkPages(a4.pages, expected, 'A4');
  const letter = readPdf(path.join(dir, 'letter.pdf'));
  assert.match(letter.info, /Page size:\s+612 x 792 pts \(letter\)/);
  checkPages(letter.pages, expected, 'Letter');
  assert.ok(code);

  // The committed picture of a printed board (README's host's guide), when asked for.
  if (process.env.SPOOKLUDO_UPDATE_SCREENSHOTS) {
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', path.join(dir, 'a4.pdf'),
      path.join(repo, 'docs', 'screenshots', 'printed-board')]);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(errors, []);
});
