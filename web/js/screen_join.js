// The first screen (body[data-screen="home"]): joining a room with a name, or watching it, by its
// code (or by the /r/CODE link the page came from); creating a room with its game's options; the
// seats this browser can take back; why the page came back here; and, once the server has stopped
// for good, the last game's record this page kept.
import { $, h } from './dom.js';
import * as store from './store.js';
import { homeMessage, serverGone, savedRecord, leftRoom, codeFromPath, enter } from './session.js';
import { recordDownload } from './shared.js';
import { t } from './i18n.js';

const ROOM_CODE = /^[A-HJKMNP-Z]{5}$/;

export function joinScreen() {
  const linked = codeFromPath();
  const name = store.savedName();
  const els = [];
  els.push(h('h1', null, t('SpookLudo')));
  els.push(h('p', { class: 'lead' }, t('Spook & Werewolf Ludo and Classic Ludo, for a party on phones, laptops and terminals.')));
  if (homeMessage) els.push(h('p', { class: 'alert', role: 'alert', id: 'home-message' }, homeMessage));
  if (serverGone && savedRecord) {
    els.push(h('section', { class: 'card', id: 'home-record', 'aria-labelledby': 'home-record-h' },
      h('h2', { id: 'home-record-h' }, t("The last game's record")),
      h('p', null, t("The server has stopped, and with it the record's address; this page kept a copy.")),
      ...recordDownload('home')));
  }

  // Seats this browser holds a token for.
  const held = Object.entries(store.seats()).filter(([room]) => ROOM_CODE.test(room));
  if (held.length) {
    els.push(h('section', { class: 'card', 'aria-labelledby': 'back-h' },
      h('h2', { id: 'back-h' }, t('Your seats')),
      h('ul', { class: 'plain' }, held.map(([room, seat]) => h('li', null,
        h('button', { class: 'wide', 'data-fk': `back-${room}`, onclick: () => enter({ type: 'resume', room, token: seat.token }) },
          seat.name ? t('Take your seat back in room {code} ({name})', { code: room, name: seat.name }) : t('Take your seat back in room {code}', { code: room })))))));
  }

  const nameInput = (id) => h('input', { id, name: 'name', autocomplete: 'nickname', maxlength: 48, required: true, value: name, spellcheck: 'false' });
  const codeInput = h('input', { id: 'join-code', name: 'room', autocomplete: 'off', autocapitalize: 'characters', maxlength: 5,
    required: true, pattern: '[A-Za-z]{5}', value: linked || leftRoom, spellcheck: 'false', inputmode: 'text' });
  const joinError = h('p', { class: 'field-error', id: 'join-error', 'aria-live': 'polite' });
  const readJoin = () => {
    const n = $('join-name').value;
    const room = codeInput.value.trim().toUpperCase();
    if (!n.trim()) {
      joinError.textContent = t('Type your name.');
      return null;
    }
    if (!ROOM_CODE.test(room)) {
      joinError.textContent = t('A room code is 5 letters (no I, L or O), such as KQZTM.');
      return null;
    }
    store.saveName(n);
    return { n, room };
  };
  const joinForm = h('form', { class: 'card', id: 'join', 'aria-labelledby': 'join-h', onsubmit: (e) => {
    e.preventDefault();
    const j = readJoin();
    if (!j) return;
    const held1 = store.seatFor(j.room);
    if (held1 && held1.name === j.n) enter({ type: 'resume', room: j.room, token: held1.token });
    else enter({ type: 'join_room', room: j.room, name: j.n });
  } },
  h('h2', { id: 'join-h' }, linked ? t('Join room {code}', { code: linked }) : t('Join a room')),
  h('label', { for: 'join-name' }, t('Your name')), nameInput('join-name'),
  h('div', { class: linked ? 'hidden' : '' }, h('label', { for: 'join-code' }, t('Room code')), codeInput),
  joinError,
  h('div', { class: 'row' },
    h('button', { type: 'submit', class: 'primary', id: 'join-go' }, t('Take a seat')),
    h('button', { type: 'button', id: 'watch-go', onclick: () => {
      const room = codeInput.value.trim().toUpperCase();
      if (!ROOM_CODE.test(room)) {
        joinError.textContent = t('A room code is 5 letters (no I, L or O), such as KQZTM.');
        return;
      }
      enter({ type: 'watch', room });
    } }, t('Watch'))),
  h('p', { class: 'small' }, t('After the start, a newcomer watches the game as a spectator, and can take a free seat in the lobby when it is over.')));
  els.push(joinForm);
  els.push(createForm(nameInput));
  return els;
}

function createForm(nameInput) {
  const game = h('select', { id: 'create-game', name: 'game', onchange: () => sync() },
    h('option', { value: 'spook' }, t('Spook & Werewolf Ludo (1-8 players)')), h('option', { value: 'ludo' }, t('Classic Ludo (2-4 players)')));
  const players = h('input', { id: 'create-players', type: 'number', min: 1, max: 8, value: 4, inputmode: 'numeric', oninput: () => sync() });
  const pieces = h('select', { id: 'create-pieces' }, h('option', { value: 1 }, t('1 piece (all luck)')), h('option', { value: 2, selected: true }, t('2 pieces')), h('option', { value: 3 }, t('3 pieces, 2 must reach the church')));
  const arm = h('select', { id: 'create-arm' }, h('option', { value: 8 }, t('arms of 8 (68 squares, as the text says)')), h('option', { value: 6 }, t('arms of 6 (52 squares, the modern board)')));
  const entry = h('select', { id: 'create-entry' }, h('option', { value: 'text' }, t('a 6 brings a piece 6 squares out (the text)')), h('option', { value: 'start_square' }, t('a 6 puts a piece on its start square')));
  const threeSixes = h('input', { id: 'create-three-sixes', type: 'checkbox' });
  // The house rules (docs/rules.md): a checkbox each, and the Home rules preset in one tap.
  const rule = (id) => h('input', { id, type: 'checkbox', onchange: () => sync() });
  const safe = rule('create-safe-squares');
  const bonus = rule('create-bonus-throws');
  const captureFirst = rule('create-capture-to-home');
  const teams = rule('create-teams');
  const teamsWhy = h('span', { class: 'small why', id: 'create-teams-why' });
  const playOn = h('input', { id: 'create-play-on', type: 'checkbox', onchange: () => sync() });
  const hints = h('input', { id: 'create-hints', type: 'checkbox' });
  const decision = h('select', { id: 'create-decision' }, h('option', { value: '' }, t("the server's default")),
    [10, 20, 30, 60, 120].map((s) => h('option', { value: s * 1000 }, t('{n} s', { n: s }))));
  const spookOnly = h('div', { class: 'only-spook' }, h('label', { for: 'create-pieces' }, t('Pieces')), pieces);
  const ludoOnly = h('div', { class: 'only-ludo' },
    h('label', { for: 'create-arm' }, t('Board')), arm, h('label', { for: 'create-entry' }, t('Coming out')), entry,
    h('button', { type: 'button', id: 'create-home-rules', onclick: () => {
      arm.value = '6';
      entry.value = 'start_square';
      for (const box of [threeSixes, safe, bonus]) box.checked = true;
      sync();
    } }, t('Home rules')),
    h('label', { class: 'check' }, threeSixes, ' ', t('three 6s in a row end the turn')),
    h('label', { class: 'check' }, safe, ' ', t('safe squares (start squares and stars: no capture)')),
    h('label', { class: 'check' }, bonus, ' ', t('bonus throw for a capture or a piece home')),
    h('label', { class: 'check' }, captureFirst, ' ', t('a capture before a piece may go home')),
    h('label', { class: 'check' }, teams, ' ', t('teams: two against two, partners opposite')), teamsWhy);
  const error = h('p', { class: 'field-error', id: 'create-error', 'aria-live': 'polite' });
  function sync() {
    const ludo = game.value === 'ludo';
    spookOnly.hidden = ludo;
    ludoOnly.hidden = !ludo;
    players.max = ludo ? 4 : 8;
    players.min = ludo ? 2 : 1;
    if (ludo && Number(players.value) > 4) players.value = 4;
    if (ludo && Number(players.value) < 2) players.value = 2;
    // Teams are two against two, and end when the first team is home.
    const why = Number(players.value) !== 4 ? t('teams need 4 seats') : playOn.checked ? t('teams do not play on for places') : '';
    teams.disabled = Boolean(why);
    if (why) teams.checked = false;
    teamsWhy.textContent = why;
    teams.setAttribute('aria-describedby', 'create-teams-why');
  }
  sync();
  return h('details', { class: 'card', id: 'create' },
    h('summary', null, h('h2', null, t('Create a room'))),
    h('form', { onsubmit: (e) => {
      e.preventDefault();
      const name = $('create-name').value;
      if (!name.trim()) {
        error.textContent = t('Type your name.');
        return;
      }
      const ludo = game.value === 'ludo';
      const n = Math.round(Number(players.value));
      if (!(n >= (ludo ? 2 : 1) && n <= (ludo ? 4 : 8))) {
        error.textContent = ludo ? t('Ludo takes 2 to 4 players.') : t('Spook & Werewolf takes 1 to 8 players.');
        return;
      }
      store.saveName(name);
      const options = ludo
        ? { game: 'ludo', players: n, arm: Number(arm.value), entry: entry.value, three_sixes: threeSixes.checked, play_on: playOn.checked,
          safe_squares: safe.checked, bonus_throws: bonus.checked, capture_to_home: captureFirst.checked, teams: teams.checked }
        : { game: 'spook', players: n, pieces: Number(pieces.value), play_on: playOn.checked };
      const settings = { hints: hints.checked };
      if (decision.value) settings.decision_ms = Number(decision.value);
      enter({ type: 'create_room', options, name, settings });
    } },
    h('label', { for: 'create-name' }, t('Your name')), nameInput('create-name'),
    h('label', { for: 'create-game' }, t('Game')), game,
    h('label', { for: 'create-players' }, t('Seats (bots count)')), players,
    spookOnly, ludoOnly,
    h('label', { class: 'check' }, playOn, ' ', t('play on for places after the first finisher')),
    h('label', { class: 'check' }, hints, ' ', t('hints (the value of each move)')),
    h('label', { for: 'create-decision' }, t('Time to choose')), decision,
    error,
    h('button', { type: 'submit', class: 'primary', id: 'create-go' }, t('Create the room'))));
}
