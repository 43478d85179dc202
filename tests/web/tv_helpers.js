// What the shared screen's tests share: a page whose speech synthesis is a recorder (the texts it
// was asked to say, in order), the room made by a host's page, the smallest text on the screen,
// and the words the rule sheet's host says, written out from a game's record.
import { newPage, roomCode, until } from './harness.js';

export const TV_1080 = { viewport: { width: 1920, height: 1080 } };
export const TV_720 = { viewport: { width: 1280, height: 720 } };

// A page whose window.speechSynthesis records instead of speaking (before the page's scripts run).
export async function recordingPage(browser, device, errors) {
  const page = await newPage(browser, device, errors);
  await page.addInitScript(() => {
    const said = [];
    let cancels = 0;
    window.__speech = { said, cancels: () => cancels };
    Object.defineProperty(window, 'speechSynthesis', {
      configurable: true,
      value: {
        speak(u) { said.push(u.text); },
        cancel() { cancels++; },
        pause() {}, resume() {}, getVoices() { return []; },
        speaking: false, pending: false, paused: false,
        addEventListener() {}, removeEventListener() {},
      },
    });
  });
  return page;
}

export const said = (page) => page.evaluate(() => window.__speech.said.slice());

// The host's page creates a room: `game` spook or ludo, `players` seats; returns its code.
export async function createRoom(page, base, { name = 'Ann', game = 'spook', players = 3, pieces, arm } = {}) {
  await page.goto(base + '/');
  await page.locator('#create summary').click();
  await page.fill('#create-name', name);
  await page.selectOption('#create-game', game);
  await page.fill('#create-players', String(players));
  if (pieces) await page.selectOption('#create-pieces', String(pieces));
  if (arm) await page.selectOption('#create-arm', String(arm));
  await page.click('#create-go');
  return roomCode(page);
}

export async function joinRoom(page, base, code, name) {
  await page.goto(`${base}/r/${code}`);
  await page.fill('#join-name', name);
  await page.click('#join-go');
  await until(async () => /you: /.test(await page.locator('#bar').textContent()), `${name} seated`);
}

// The smallest text shown on the screen, in CSS pixels as drawn (an SVG text scaled by its
// picture), and which it is; text not displayed (display: none, visibility: hidden) is left out.
export function smallestText(page) {
  return page.evaluate(() => {
    let min = Infinity;
    let what = '';
    const walk = document.createTreeWalker(document.getElementById('screen'), NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const text = walk.currentNode.textContent.trim();
      const el = walk.currentNode.parentElement;
      if (!text || !el || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement && el.getScreenCTM()) size *= Math.hypot(el.getScreenCTM().a, el.getScreenCTM().b);
      if (size < min) {
        min = size;
        what = `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} "${text.slice(0, 30)}"`;
      }
    }
    return { min: Math.round(min * 10) / 10, what };
  });
}

// Nothing of the screen is outside the window (a television cannot scroll).
export function fitsWindow(page) {
  return page.evaluate(() => {
    const screen = document.getElementById('screen').getBoundingClientRect();
    return screen.bottom <= window.innerHeight + 1 && document.documentElement.scrollWidth <= window.innerWidth;
  });
}

// ---- The words said aloud, written out from a record (docs/game-record.md) -------------------

const CHARACTER = ["wizard's hat", "wizard's hat", 'black cat', 'spook', 'werewolf', 'witch'];
const ACTION = ['must move forward 3 squares', 'must move forward 3 squares', 'must move back 6 squares',
  'must go back to the entrance of its region', 'must go back to the entrance of its region', 'must go back to square 1'];

function winners(record) {
  const names = record.result.winners.map((w) => record.seats.find((s) => s.seat === w).name);
  return names.length > 1 ? `Game over! ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} win together.` : `Game over! ${names[0]} wins.`;
}

// Spook: every movement roll and every activation, in order, then the winners.
export function spookWords(record) {
  const out = [];
  for (const d of record.draws) {
    const face = d.value + 1;
    if (d.purpose === 'movement') out.push(`The die shows ${face}. Everyone moves one piece ${face} ${face === 1 ? 'square' : 'squares'}.`);
    if (d.purpose === 'activation') out.push(`It's the ${CHARACTER[d.value]}. Any playing piece on a ${CHARACTER[d.value]} ${ACTION[d.value]}.`);
  }
  out.push(winners(record));
  return out;
}

// Ludo: each throw (who, in which colour, the face) and after it each capture it made, then the
// winners. Who throws: the seat marked * in the position before the throw (the first: `starter`).
export function ludoWords(record, starter) {
  const seatsOf = (position) => position.split(' ').map((p) => {
    const m = /^([a-z]+)(\*?):(.*)$/.exec(p);
    return { colour: m[1], turn: m[2] === '*', pieces: m[3].split(',') };
  });
  const name = (i) => record.seats.find((s) => s.seat === i).name;
  const throws = record.draws.filter((d) => d.purpose === 'throw');
  const out = [];
  let before = null;
  throws.forEach((d, k) => {
    const after = record.positions.find((p) => p.step === k + 1);
    const thrower = before ? before.findIndex((s) => s.turn) : starter;
    const now = after ? seatsOf(after.position) : null;
    const colour = (i) => (now || before)[i].colour;
    out.push(`${name(thrower)}, ${colour(thrower)}, throws ${d.value + 1}.`);
    const caught = [];
    if (now && before) {
      now.forEach((s, i) => s.pieces.forEach((p, j) => {
        if (i !== thrower && p === 'Y' && before[i].pieces[j] !== 'Y') caught.push(`${name(thrower)}, ${colour(thrower)} captures a piece of ${name(i)}, ${colour(i)}! It goes back to the yard.`);
      }));
    }
    out.push(...caught);
    if (now) before = now;
    else if (!before) before = null;
  });
  out.push(winners(record));
  return out;
}
