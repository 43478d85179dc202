// What the page keeps in this browser (localStorage, never in a URL): the name last used, and
// per room the seat's secret token, so that a refresh, a tab opened again or a phone that slept
// takes the seat back with `resume`. The newest 16 rooms are kept.
const SEATS = 'spookludo.seats';
const NAME = 'spookludo.name';

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full: the seat just cannot be taken back after a refresh */
  }
}

export function savedName() {
  const name = read(NAME, '');
  return typeof name === 'string' ? name : '';
}

export function saveName(name) {
  write(NAME, name);
}

export function seats() {
  const all = read(SEATS, {});
  return all && typeof all === 'object' ? all : {};
}

export function seatFor(room) {
  const s = seats()[room];
  return s && typeof s.token === 'string' ? s : null;
}

export function saveSeat(room, entry) {
  const all = seats();
  all[room] = { ...entry, at: Date.now() };
  const keep = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 16);
  write(SEATS, Object.fromEntries(keep));
}

export function forgetSeat(room) {
  const all = seats();
  delete all[room];
  write(SEATS, all);
}

// The paper the boards are printed on ('a4' or 'letter'): the last one chosen, else US Letter
// where the browser speaks American or Canadian English, A4 elsewhere.
const PAPER = 'spookludo.paper';
export function savedPaper() {
  const paper = read(PAPER, '');
  if (paper === 'a4' || paper === 'letter') return paper;
  return /^en-(US|CA)$/i.test(navigator.language || '') ? 'letter' : 'a4';
}

export function savePaper(paper) {
  write(PAPER, paper === 'letter' ? 'letter' : 'a4');
}

// The language chosen with the page's switch ('' when none was: the browser's languages decide).
const LANG = 'spookludo.lang';
export function savedLanguage() {
  const tag = read(LANG, '');
  return typeof tag === 'string' && /^[A-Za-z][\w-]{0,34}$/.test(tag) ? tag : '';
}

export function saveLanguage(tag) {
  write(LANG, tag);
}

// The dice this tab saw of its newest games (dice_check.js), kept for the tab's life
// (sessionStorage): a page reloaded during a game still checks the dice it saw before.
const DICE = 'spookludo.dice';

function readDice() {
  try {
    const all = JSON.parse(sessionStorage.getItem(DICE) || '{}');
    return all && typeof all === 'object' ? all : {};
  } catch {
    return {};
  }
}

export function diceFor(gameId) {
  const g = readDice()[gameId];
  return g && typeof g === 'object' && g.gameId === gameId && g.dice && typeof g.dice === 'object' ? g : null;
}

export function saveDice(data) {
  const all = readDice();
  all[data.gameId] = { ...data, at: Date.now() };
  const keep = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 2);
  try {
    sessionStorage.setItem(DICE, JSON.stringify(Object.fromEntries(keep)));
  } catch {
    /* full or not allowed: a reload then checks only what it sees afterwards */
  }
}
