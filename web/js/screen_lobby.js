// The lobby (before a game, and after one for the rematch): the room's game and settings, its seats,
// the host's controls (bots, seats, options, settings, the automatic start), a spectator's form to
// take a free seat, the invitation (link, QR code, terminal command) and the countdown to the
// automatic start.
import { $, h, sentence } from './dom.js';
import * as store from './store.js';
import { qrCode } from './qr.js';
import { view, serverWelcome, now, send, leave, reactions } from './session.js';
import { badge } from './reactions.js';
import { copyButton, confirmStep } from './shared.js';
import { speakSwitch } from './announce.js';
import { tableLobbyControls } from './screen_table.js';
import { t, tn } from './i18n.js';
import { HOME_RULES, isHomeRules, houseRulesText, teamsText } from './game_words.js';
import { timeFactorSelect, timeFactorSummary } from './more_time.js';

let seatDraft = null; // a spectator's name for a seat, as typed (kept across redraws)

// The room's game and options in words: "Classic Ludo: 4 seats, arms of 8, ...". Each part is a
// phrase of its own, joined by the language's list separator (a comma in English and Malay).
export function optionsText(o) {
  const parts = [];
  if (!o.table) parts.push(tn('{n} seat', '{n} seats', o.players));
  if (o.game === 'ludo') {
    parts.push(t('arms of {n}', { n: o.arm || 8 }));
    parts.push(o.entry === 'start_square' ? t('a 6 puts a piece on its start square') : t('a 6 brings a piece 6 squares out'));
  } else {
    const p = o.pieces || 2;
    parts.push(tn('{n} piece ({win} in the church wins)', '{n} pieces ({win} in the church wins)', p, { win: p === 3 ? 2 : p }));
    parts.push(o.balanced_boards === false ? t('random boards') : t('balanced boards'));
  }
  if (!o.table && o.play_on) parts.push(t('play on'));
  const list = parts.join(t(', '));
  const text = o.game === 'ludo' ? t('Classic Ludo: {options}', { options: list }) : t('Spook & Werewolf Ludo: {options}', { options: list });
  if (o.table) {
    const names = (o.table_names || []).join(', ');
    return names ? t('{game} — a game at one table for {names}', { game: text, names }) : t('{game} — a game at one table (no names yet)', { game: text });
  }
  return text;
}

function secondsText(ms) {
  return t('{n} s', { n: ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1) });
}

function settingsText(s) {
  const parts = [t('{time} to choose', { time: secondsText(s.decision_ms) }), t('{time} between steps', { time: secondsText(s.pace_ms) }),
    s.hints ? t('hints on') : t('hints off')];
  if (s.spectator_reactions) parts.push(t('spectators may react'));
  return parts.join(t(', '));
}

// Where guests reach the server: the host's --public-url; on the server's own machine (a
// loopback address) its network address; otherwise the address this page came from.
export function joinBase() {
  const w = serverWelcome;
  if (w.public_url) return w.public_url;
  if (loopback(location.hostname) && w.lan_urls && w.lan_urls.length) return w.lan_urls[0];
  return location.origin;
}

function inviteBlock() {
  const base = joinBase();
  const link = `${base}/r/${view.room}`;
  // The terminal client needs the port even when it is the scheme's default (its own is 7777).
  const u = new URL(base);
  const ws = `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
  const command = `spookludo play ${ws} --room ${view.room} --name YOUR_NAME`;
  let qr = null;
  try {
    qr = qrCode(link);
  } catch {
    qr = null;
  }
  return h('section', { class: 'card invite', 'aria-labelledby': 'invite-h' },
    h('h2', { id: 'invite-h' }, t('Invite')),
    h('p', null, sentence(t('On a phone or laptop: {link}'), { link: h('a', { href: link, id: 'join-link' }, link) }),
      ' ', copyButton(link, t('Copy the link'))),
    loopback(new URL(base).hostname)
      ? h('p', { class: 'small' }, t("This address ({host}) works on this machine only: others use this machine's network address instead, with the same port and path.", { host: location.hostname }))
      : null,
    qr ? h('div', { class: 'qr', role: 'img', 'aria-label': t('QR code of {link}', { link }) }, qr) : null,
    h('p', null, t('In a terminal:')),
    h('pre', { class: 'cmd', id: 'join-command' }, command), copyButton(command, t('Copy the command')),
    // The shared screen: the room on a television or a projector, in a tab of its own.
    h('p', { class: 'tv-open' }, sentence(t('On a television or a projector: {show} (or {hidden}, for a stream)'), {
      show: h('a', { href: `/tv/${view.room}`, target: '_blank', rel: 'noopener', id: 'tv-open' }, t('Show on a big screen')),
      hidden: h('a', { href: `/tv/${view.room}?hide=code`, target: '_blank', rel: 'noopener', id: 'tv-open-hidden' }, t('without the code and QR code')),
    })));
}

function loopback(host) {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}
export function lobbyScreen() {
  const s = view.snapshot;
  const host = view.amHost;
  const els = [];
  els.push(h('h2', { class: 'screen-title' }, s.state === 'lobby' ? t('Room {code}: waiting in the lobby', { code: view.room }) : t('Room {code}', { code: view.room })));
  els.push(h('p', { id: 'lobby-game' }, optionsText(s.options)));
  const rules = houseRulesText(s.options);
  if (rules) els.push(h('p', { id: 'lobby-rules' }, rules));
  const teams = teamsText(s.options, view.roomSeats(), (seat) => view.seatName(seat));
  if (teams) els.push(h('p', { id: 'lobby-teams' }, teams));
  els.push(h('p', { id: 'lobby-settings' }, t('Settings: {settings}', { settings: settingsText(s.settings) })));
  els.push(h('p', { id: 'lobby-time-factor' }, timeFactorSummary(s.settings)));
  els.push(h('p', { id: 'autostart', class: 'autostart', 'aria-live': 'off' }));

  const seatItems = view.roomSeats().map((seat) => {
    const sv = view.seatView(seat);
    const mine = seat === view.seat;
    const row = [h('span', { class: 'seat-no' }, String(seat + 1))];
    if (!sv) {
      row.push(h('span', { class: 'seat-name free' }, t('(free)')));
    } else {
      row.push(h('span', { class: 'seat-name' }, sv.name));
      row.push(badge(reactions, seat));
      row.push(h('span', { class: 'tags' }, view.seatTagWords(seat).map((tag) => h('span', { class: ['tag', `t-${tag.kind}`] }, tag.text))));
      if (host && !mine) {
        row.push(h('button', { type: 'button', class: 'small-btn danger', 'data-fk': `rm-${seat}`,
          'aria-label': t('Remove seat {seat} ({name})', { seat: seat + 1, name: sv.name }),
          onclick: () => confirmStep(sv.bot ? t('Remove {name} from seat {seat}?', { name: sv.name, seat: seat + 1 }) : t('Remove {name} from seat {seat}? They are told so.', { name: sv.name, seat: seat + 1 }),
            t('Remove'), () => send({ type: 'remove_seat', seat })) }, t('Remove')));
      }
    }
    return h('li', { class: ['seat', mine && 'mine', !sv && 'free'], dataset: { seat } }, row);
  });
  els.push(h('section', { class: 'card', 'aria-labelledby': 'seats-h' },
    h('h3', { id: 'seats-h' }, t('Seats')),
    h('ol', { class: 'seats', id: 'seats' }, seatItems),
    s.spectators > 0 ? h('p', { class: 'small' }, tn('{n} spectator', '{n} spectators', s.spectators)) : null));

  if (host) els.push(hostLobbyControls(s), tableLobbyControls(s));
  else if (view.isSpectator) els.push(spectatorSeatForm(s));
  else els.push(h('p', { id: 'waiting' }, s.host >= 0 ? t('Waiting for {name} (host) to start.', { name: view.seatName(s.host) }) : t('Waiting for the host to start.')));
  els.push(inviteBlock());
  els.push(speakSwitch());
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', id: 'leave', onclick: leave }, t('Leave the room'))));
  return els;
}

// A spectator in the lobby (before a game, or after one for the rematch) sits down with a name:
// `join_room` from the watching connection takes the lowest free seat.
function spectatorSeatForm(s) {
  const free = s.seats.some((seat) => seat.free);
  if (!free) {
    return h('p', { id: 'watching' }, t('You are watching. Every seat is taken: when the host adds one (+ seat), you can sit down here.'));
  }
  if (seatDraft === null) seatDraft = store.savedName();
  const refused = view.lastError && view.lastError.ref === 'join_room' ? view.errorWords(view.lastError) : '';
  return h('form', { class: 'card', id: 'take-seat', 'aria-labelledby': 'take-seat-h', onsubmit: (e) => {
    e.preventDefault();
    const name = $('seat-name').value;
    if (!name.trim()) {
      $('seat-error').textContent = t('Type your name.');
      return;
    }
    store.saveName(name);
    view.lastError = null;
    send({ type: 'join_room', room: view.room, name });
  } },
  h('h3', { id: 'take-seat-h' }, t('You are watching: a seat is free')),
  h('label', { for: 'seat-name' }, t('Your name')),
  h('input', { id: 'seat-name', 'data-fk': 'seat-name', name: 'name', autocomplete: 'nickname', maxlength: 48, required: true,
    value: seatDraft, spellcheck: 'false', oninput: (e) => (seatDraft = e.target.value) }),
  h('p', { class: 'field-error', id: 'seat-error', 'aria-live': 'polite' }, refused),
  h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 'seat-go' }, t('Take a seat'))));
}

function hostLobbyControls(s) {
  const o = s.options;
  const ludo = o.game === 'ludo';
  const setOptions = (change) => {
    view.lastError = null;
    send({ type: 'set_options', options: { ...o, ...change } });
  };
  const setSettings = (change) => send({ type: 'set_settings', settings: change });
  const select = (id, label, value, choices, onchange) => h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('select', { id, 'data-fk': id, onchange: (e) => onchange(e.target.value) },
      choices.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text))));
  const check = (id, label, value, onchange) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', id, 'data-fk': id, checked: value, onchange: (e) => onchange(e.target.checked) }), ' ', label);
  const withCurrent = (list, current, fmt) => (list.includes(current) ? list : [...list, current].sort((a, b) => a - b)).map((v) => [v, fmt(v)]);

  const optionFields = ludo
    ? [select('opt-arm', t('Board'), o.arm || 8, [[8, t('arms of {n}', { n: 8 })], [6, t('arms of {n}', { n: 6 })]], (v) => setOptions({ arm: Number(v) })),
      select('opt-entry', t('Coming out'), o.entry || 'text', [['text', t('a 6: six squares out')], ['start_square', t('a 6: onto the start square')]], (v) => setOptions({ entry: v })),
      check('opt-three-sixes', t('three 6s end the turn'), Boolean(o.three_sixes), (v) => setOptions({ three_sixes: v })),
      ...houseRuleFields(o, setOptions)]
    : [select('opt-pieces', t('Pieces'), o.pieces || 2, [[1, t('1 piece')], [2, t('2 pieces')], [3, t('3 pieces (2 to finish)')]], (v) => setOptions({ pieces: Number(v) })),
      check('opt-balanced', t('balanced boards'), o.balanced_boards !== false, (v) => setOptions({ balanced_boards: v }))];
  const armed = s.auto_start_at_ms ? 1 : 0;
  return h('section', { class: 'card host', 'aria-labelledby': 'host-h' },
    h('h3', { id: 'host-h' }, t('You are the host')),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary big', id: 'start', onclick: () => send({ type: 'start' }) }, t('Start the game'))),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'bot-best', 'data-fk': 'bot-best', onclick: () => send({ type: 'add_bot', policy: 'best' }) }, t('Add a best bot')),
      h('button', { type: 'button', id: 'bot-greedy', 'data-fk': 'bot-greedy', onclick: () => send({ type: 'add_bot', policy: 'greedy' }) }, t('Add a greedy bot')),
      h('button', { type: 'button', id: 'bot-random', 'data-fk': 'bot-random', onclick: () => send({ type: 'add_bot', policy: 'random' }) }, t('Add a random bot'))),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'seat-add', 'data-fk': 'seat-add', 'aria-label': t('One seat more'), onclick: () => setOptions({ players: o.players + 1 }) }, t('+ seat')),
      h('button', { type: 'button', id: 'seat-remove', 'data-fk': 'seat-remove', 'aria-label': t('One seat less (the highest free one)'), onclick: () => setOptions({ players: o.players - 1 }) }, t('− seat'))),
    h('fieldset', null, h('legend', null, t('Game options')), optionFields,
      check('opt-play-on', t('play on for places'), Boolean(o.play_on), (v) => setOptions({ play_on: v })),
      h('p', { class: 'field-error', id: 'opt-error', 'aria-live': 'polite' }, view.lastError && view.lastError.ref === 'set_options' ? view.errorWords(view.lastError) : '')),
    h('fieldset', null, h('legend', null, t('Room settings')),
      select('set-decision', t('Time to choose'), s.settings.decision_ms, withCurrent([10000, 20000, 30000, 60000, 120000], s.settings.decision_ms, secondsText), (v) => setSettings({ decision_ms: Number(v) })),
      timeFactorSelect('set-time-factor', s.settings, send),
      select('set-pace', t('Pause between steps'), s.settings.pace_ms, withCurrent([0, 500, 1000, 1500, 2000, 3000], s.settings.pace_ms, secondsText), (v) => setSettings({ pace_ms: Number(v) })),
      check('set-hints', t('hints'), Boolean(s.settings.hints), (v) => setSettings({ hints: v })),
      check('set-spectator-reactions', t('spectators may send reactions'), Boolean(s.settings.spectator_reactions), (v) => setSettings({ spectator_reactions: v })),
      select('set-auto', t('Start by itself'), armed ? 'armed' : 0,
        [[0, t('off')], ...(armed ? [['armed', t('counting down')]] : []), [30000, t('in {n} s', { n: 30 })], [60000, tn('in {n} min', 'in {n} min', 1)], [120000, tn('in {n} min', 'in {n} min', 2)], [300000, tn('in {n} min', 'in {n} min', 5)]],
        (v) => v !== 'armed' && setSettings({ auto_start_ms: Number(v) }))));
}

// The countdown to the automatic start, between messages (app.js's tick).
export function tickLobby() {
  const auto = $('autostart');
  if (auto) {
    const left = view.autoStartLeft(now());
    const secs = left === null ? 0 : Math.ceil(left / 1000);
    auto.textContent = left === null ? '' : t('Starts in {time} (free seats get bots)', { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` });
  }
}

// The house rules in the host's lobby (Ludo, not at a table): the Home rules preset in one tap, and
// a checkbox per rule; teams only with 4 seats and without play on (the reason beside it).
function houseRuleFields(o, setOptions) {
  if (o.table) return [];
  const box = (id, key, label, disabled = '') => h('div', { class: 'field' },
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id, 'data-fk': id, checked: Boolean(o[key]), disabled: Boolean(disabled),
      'aria-describedby': disabled ? `${id}-why` : null, onchange: (e) => setOptions({ [key]: e.target.checked }) }), ' ', label),
    disabled ? h('span', { class: 'small why', id: `${id}-why` }, disabled) : null);
  const teamsWhy = o.teams ? '' : o.players !== 4 ? t('teams need 4 seats') : o.play_on ? t('teams do not play on for places') : '';
  return [
    h('button', { type: 'button', id: 'opt-home-rules', 'data-fk': 'opt-home-rules', 'aria-pressed': String(isHomeRules(o)),
      onclick: () => setOptions({ ...HOME_RULES, preset: 'home_rules' }) }, t('Home rules')),
    box('opt-safe-squares', 'safe_squares', t('safe squares (start squares and stars: no capture)')),
    box('opt-bonus-throws', 'bonus_throws', t('bonus throw for a capture or a piece home')),
    box('opt-capture-to-home', 'capture_to_home', t('a capture before a piece may go home')),
    box('opt-teams', 'teams', t('teams: two against two, partners opposite'), teamsWhy),
  ];
}
