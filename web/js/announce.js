// The game announced aloud with the browser's own speech synthesis (nothing fetched, no audio
// files): on the shared screen (on unless muted) and, when its player turns it on, on a player's
// page. The words are speech_texts.js's. Only what happens while this page is connected is said:
// a room snapshot (a load, a reload, a reconnection) says nothing, an event already said in this
// tab is never said again, and during a pause nothing new is said (what was still queued is cancelled).
import { h } from './dom.js';
import { speech } from './speech_texts.js';
import { t } from './i18n.js';
import { colourName } from './game_words.js';

const KEYS = { tv: 'spookludo.speak.tv', player: 'spookludo.speak.player' };
const SAID = 'spookludo.said'; // sessionStorage: the keys of the last events said in this tab
let kind = 'player';
let on = false;
let paused = false;

function readFlag(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === '1';
  } catch {
    return fallback;
  }
}

// Which page this is ('tv' speaks unless muted; 'player' only when turned on), from app.js.
export function setup(pageKind) {
  kind = pageKind === 'tv' ? 'tv' : 'player';
  on = readFlag(KEYS[kind], kind === 'tv');
}

export function speaking() {
  return on;
}

export function setSpeaking(value) {
  on = Boolean(value);
  try {
    localStorage.setItem(KEYS[kind], on ? '1' : '0');
  } catch {
    /* private mode: the switch holds for this page only */
  }
  if (!on) cancel();
}

// The browser speaks only after the page has been clicked or typed in once (its autoplay rule).
export function needsGesture() {
  return on && typeof navigator !== 'undefined' && navigator.userActivation ? !navigator.userActivation.hasBeenActive : false;
}

function synth() {
  return typeof window !== 'undefined' && window.speechSynthesis && typeof SpeechSynthesisUtterance === 'function' ? window.speechSynthesis : null;
}

export const available = () => Boolean(synth());

function cancel() {
  const s = synth();
  if (s) s.cancel();
}

function said() {
  try {
    const list = JSON.parse(sessionStorage.getItem(SAID) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// Says `text` once for the event `key` (game, step and kind): never again in this tab.
function say(key, text) {
  const list = said();
  if (list.includes(key)) return;
  list.push(key);
  try {
    sessionStorage.setItem(SAID, JSON.stringify(list.slice(-64)));
  } catch {
    /* not kept: a reload could not repeat it anyway, the server sends no past events */
  }
  const s = synth();
  if (!s) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = speech.lang;
  s.speak(u);
}

// Every server message, after the View took it in (session.js).
export function hear(m, view) {
  if (m.type === 'room') {
    if (m.paused && !paused) cancel();
    paused = Boolean(m.paused);
    return;
  }
  if (m.type === 'notice' && (m.kind === 'paused' || m.kind === 'resumed')) {
    paused = m.kind === 'paused';
    if (paused) cancel();
    return;
  }
  if (!on || paused) return;
  const game = view.gameId || view.room;
  const colourOf = (seat) => colourName(view.ludoColour(seat));
  const who = (seat) => t('{name}, {colour}', { name: view.seatName(seat), colour: colourOf(seat) });
  switch (m.type) {
    case 'roll':
      say(`${game}/r${m.round}/roll`, speech.roll(m.face));
      break;
    case 'activation':
      say(`${game}/r${m.round}/act`, speech.activation(m.character, m.name));
      break;
    case 'roll_off': {
      if (m.table) { // a table game: seats are the table's names
        const names = (view.snapshot && view.snapshot.table && view.snapshot.table.names) || [];
        if (names[m.starts]) say(`${game}/start`, speech.tableStarts(names[m.starts]));
        break;
      }
      const s = (m.events || []).find((e) => e.kind === 'starts');
      if (s) say(`${game}/start`, speech.starts(view.seatName(s.seat), colourOf(s.seat)));
      break;
    }
    case 'throw':
      if (m.table) {
        say(`${game}/t${m.turn}/throw`, speech.tableThrow(m.name, m.face, m.next === m.seat));
        break;
      }
      say(`${game}/t${m.turn}/throw`, speech.ludoThrow(view.seatName(m.seat), colourOf(m.seat), m.face));
      captures(m, `${game}/t${m.turn}/throw`, who);
      break;
    case 'move':
      captures(m, `${game}/t${m.turn}/move`, who);
      break;
    case 'game_over': {
      const names = (m.winners || []).map((w) => (m.names && m.names[w]) || view.seatName(w));
      say(`${m.game_id || game}/over`, m.status !== 'finished' ? speech.abandoned() : view.options.teams && names.length === 2 ? speech.team(names) : speech.winners(names));
      break;
    }
    default:
      break;
  }
}

function captures(m, key, who) {
  let mover = -1;
  (m.events || []).forEach((e, i) => {
    if (e.kind === 'entered' || e.kind === 'moved') mover = e.seat;
    if (e.kind === 'captured') say(`${key}/c${i}`, speech.capture(mover >= 0 ? who(mover) : '', who(e.seat)));
    if (e.kind === 'safe_square') say(`${key}/s${i}`, speech.safe(who(e.seat)));
    if (e.kind === 'circles') say(`${key}/o${i}`, speech.circles(who(e.seat)));
    if (e.kind === 'extra_throw' && (e.reason === 'capture' || e.reason === 'home')) say(`${key}/b${i}`, speech.bonus(who(e.seat), e.reason));
  });
}

// The switch on a player's page: "Announce the dice aloud".
export function speakSwitch() {
  if (!available()) return null;
  return h('label', { class: 'check small speak-switch' },
    h('input', { type: 'checkbox', id: 'speak', 'data-fk': 'speak', checked: on, onchange: (e) => setSpeaking(e.target.checked) }),
    ' ', t('announce the dice aloud on this device'));
}
