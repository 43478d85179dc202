// The lobby (before a game, and after one for the rematch): the room's game and settings, its seats,
// the host's controls (bots, seats, options, settings, the automatic start), a spectator's form to
// take a free seat, the invitation (link, QR code, terminal command) and the countdown to the
// automatic start.
import { $, h } from './dom.js';
import * as store from './store.js';
import { qrCode } from './qr.js';
import { view, serverWelcome, now, send, leave, reactions } from './session.js';
import { badge } from './reactions.js';
import { copyButton, confirmStep } from './shared.js';
import { speakSwitch } from './announce.js';
import { tableLobbyControls } from './screen_table.js';
import { timeFactorSelect, timeFactorSummary } from './more_time.js';

let seatDraft = null; // a spectator's name for a seat, as typed (kept across redraws)

export function optionsText(o) {
  const seats = `${o.players} ${o.players === 1 ? 'seat' : 'seats'}`;
  let text;
  if (o.game === 'ludo') {
    text = `Classic Ludo: ${seats}, arms of ${o.arm || 8}, ${o.entry === 'start_square' ? 'a 6 puts a piece on its start square' : 'a 6 brings a piece 6 squares out'}` +
      (o.three_sixes ? ', three 6s end the turn' : '');
  } else {
    const p = o.pieces || 2;
    text = `Spook & Werewolf Ludo: ${seats}, ${p} ${p === 1 ? 'piece' : 'pieces'} (${p === 3 ? 2 : p} in the church wins)` +
      (o.balanced_boards === false ? ', random boards' : ', balanced boards');
  }
  if (o.table) return `${text.replace(/: \d+ seats?, /, ': ')} — a game at one table for ${(o.table_names || []).join(', ') || '(no names yet)'}`;
  return text + (o.play_on ? ', play on' : '');
}

function secondsText(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function settingsText(s) {
  return `${secondsText(s.decision_ms)} to choose, ${secondsText(s.pace_ms)} between steps, hints ${s.hints ? 'on' : 'off'}${s.spectator_reactions ? ', spectators may react' : ''}`;
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
    h('h2', { id: 'invite-h' }, 'Invite'),
    h('p', null, 'On a phone or laptop: ', h('a', { href: link, id: 'join-link' }, link),
      ' ', copyButton(link, 'Copy the link')),
    loopback(new URL(base).hostname)
      ? h('p', { class: 'small' }, `This address (${location.hostname}) works on this machine only: others use this machine's network address instead, with the same port and path.`)
      : null,
    qr ? h('div', { class: 'qr', role: 'img', 'aria-label': `QR code of ${link}` }, qr) : null,
    h('p', null, 'In a terminal:'),
    h('pre', { class: 'cmd', id: 'join-command' }, command), copyButton(command, 'Copy the command'),
    // The shared screen: the room on a television or a projector, in a tab of its own.
    h('p', { class: 'tv-open' }, 'On a television or a projector: ',
      h('a', { href: `/tv/${view.room}`, target: '_blank', rel: 'noopener', id: 'tv-open' }, 'Show on a big screen'),
      ' (or ', h('a', { href: `/tv/${view.room}?hide=code`, target: '_blank', rel: 'noopener', id: 'tv-open-hidden' }, 'without the code and QR code'),
      ', for a stream)'));
}

function loopback(host) {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}
export function lobbyScreen() {
  const s = view.snapshot;
  const host = view.amHost;
  const els = [];
  els.push(h('h2', { class: 'screen-title' }, `Room ${view.room}: ${s.state === 'lobby' ? 'waiting in the lobby' : s.state}`));
  els.push(h('p', { id: 'lobby-game' }, optionsText(s.options)));
  els.push(h('p', { id: 'lobby-settings' }, 'Settings: ', settingsText(s.settings)));
  els.push(h('p', { id: 'lobby-time-factor' }, timeFactorSummary(s.settings)));
  els.push(h('p', { id: 'autostart', class: 'autostart', 'aria-live': 'off' }));

  const seatItems = view.roomSeats().map((seat) => {
    const sv = view.seatView(seat);
    const mine = seat === view.seat;
    const row = [h('span', { class: 'seat-no' }, String(seat + 1))];
    if (!sv) {
      row.push(h('span', { class: 'seat-name free' }, '(free)'));
    } else {
      row.push(h('span', { class: 'seat-name' }, sv.name));
      row.push(badge(reactions, seat));
      row.push(h('span', { class: 'tags' }, view.seatTags(seat).map((t) => h('span', { class: ['tag', `t-${t.split(/[ :(,]/)[0]}`] }, t))));
      if (host && !mine) {
        row.push(h('button', { type: 'button', class: 'small-btn danger', 'data-fk': `rm-${seat}`,
          'aria-label': `Remove seat ${seat + 1} (${sv.name})`,
          onclick: () => confirmStep(`Remove ${sv.name} from seat ${seat + 1}?${sv.bot ? '' : ' They are told so.'}`, 'Remove', () => send({ type: 'remove_seat', seat })) }, 'Remove'));
      }
    }
    return h('li', { class: ['seat', mine && 'mine', !sv && 'free'], dataset: { seat } }, row);
  });
  els.push(h('section', { class: 'card', 'aria-labelledby': 'seats-h' },
    h('h3', { id: 'seats-h' }, 'Seats'),
    h('ol', { class: 'seats', id: 'seats' }, seatItems),
    s.spectators > 0 ? h('p', { class: 'small' }, `${s.spectators} ${s.spectators === 1 ? 'spectator' : 'spectators'}`) : null));

  if (host) els.push(hostLobbyControls(s), tableLobbyControls(s));
  else if (view.isSpectator) els.push(spectatorSeatForm(s));
  else els.push(h('p', { id: 'waiting' }, `Waiting for ${s.host >= 0 ? view.seatName(s.host) : 'the host'} (host) to start.`));
  els.push(inviteBlock());
  els.push(speakSwitch());
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', id: 'leave', onclick: leave }, 'Leave the room')));
  return els;
}

// A spectator in the lobby (before a game, or after one for the rematch) sits down with a name:
// `join_room` from the watching connection takes the lowest free seat.
function spectatorSeatForm(s) {
  const free = s.seats.some((seat) => seat.free);
  if (!free) {
    return h('p', { id: 'watching' }, 'You are watching. Every seat is taken: when the host adds one (+ seat), you can sit down here.');
  }
  if (seatDraft === null) seatDraft = store.savedName();
  const refused = view.lastError && view.lastError.ref === 'join_room' ? view.errorWords(view.lastError) : '';
  return h('form', { class: 'card', id: 'take-seat', 'aria-labelledby': 'take-seat-h', onsubmit: (e) => {
    e.preventDefault();
    const name = $('seat-name').value;
    if (!name.trim()) {
      $('seat-error').textContent = 'Type your name.';
      return;
    }
    store.saveName(name);
    view.lastError = null;
    send({ type: 'join_room', room: view.room, name });
  } },
  h('h3', { id: 'take-seat-h' }, 'You are watching: a seat is free'),
  h('label', { for: 'seat-name' }, 'Your name'),
  h('input', { id: 'seat-name', 'data-fk': 'seat-name', name: 'name', autocomplete: 'nickname', maxlength: 48, required: true,
    value: seatDraft, spellcheck: 'false', oninput: (e) => (seatDraft = e.target.value) }),
  h('p', { class: 'field-error', id: 'seat-error', 'aria-live': 'polite' }, refused),
  h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 'seat-go' }, 'Take a seat')));
}

function hostLobbyControls(s) {
  const o = s.options;
  const ludo = o.game === 'ludo';
  const setOptions = (change) => send({ type: 'set_options', options: { ...o, ...change } });
  const setSettings = (change) => send({ type: 'set_settings', settings: change });
  const select = (id, label, value, choices, onchange) => h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('select', { id, 'data-fk': id, onchange: (e) => onchange(e.target.value) },
      choices.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text))));
  const check = (id, label, value, onchange) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', id, 'data-fk': id, checked: value, onchange: (e) => onchange(e.target.checked) }), ' ', label);
  const withCurrent = (list, current, fmt) => (list.includes(current) ? list : [...list, current].sort((a, b) => a - b)).map((v) => [v, fmt(v)]);

  const optionFields = ludo
    ? [select('opt-arm', 'Board', o.arm || 8, [[8, 'arms of 8'], [6, 'arms of 6']], (v) => setOptions({ arm: Number(v) })),
      select('opt-entry', 'Coming out', o.entry || 'text', [['text', 'a 6: six squares out'], ['start_square', 'a 6: onto the start square']], (v) => setOptions({ entry: v })),
      check('opt-three-sixes', 'three 6s end the turn', Boolean(o.three_sixes), (v) => setOptions({ three_sixes: v }))]
    : [select('opt-pieces', 'Pieces', o.pieces || 2, [[1, '1 piece'], [2, '2 pieces'], [3, '3 pieces (2 to finish)']], (v) => setOptions({ pieces: Number(v) })),
      check('opt-balanced', 'balanced boards', o.balanced_boards !== false, (v) => setOptions({ balanced_boards: v }))];
  const armed = s.auto_start_at_ms ? 1 : 0;
  return h('section', { class: 'card host', 'aria-labelledby': 'host-h' },
    h('h3', { id: 'host-h' }, 'You are the host'),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary big', id: 'start', onclick: () => send({ type: 'start' }) }, 'Start the game')),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'bot-best', 'data-fk': 'bot-best', onclick: () => send({ type: 'add_bot', policy: 'best' }) }, 'Add a best bot'),
      h('button', { type: 'button', id: 'bot-greedy', 'data-fk': 'bot-greedy', onclick: () => send({ type: 'add_bot', policy: 'greedy' }) }, 'Add a greedy bot'),
      h('button', { type: 'button', id: 'bot-random', 'data-fk': 'bot-random', onclick: () => send({ type: 'add_bot', policy: 'random' }) }, 'Add a random bot')),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'seat-add', 'data-fk': 'seat-add', 'aria-label': 'One seat more', onclick: () => setOptions({ players: o.players + 1 }) }, '+ seat'),
      h('button', { type: 'button', id: 'seat-remove', 'data-fk': 'seat-remove', 'aria-label': 'One seat less (the highest free one)', onclick: () => setOptions({ players: o.players - 1 }) }, '− seat')),
    h('fieldset', null, h('legend', null, 'Game options'), optionFields,
      check('opt-play-on', 'play on for places', Boolean(o.play_on), (v) => setOptions({ play_on: v }))),
    h('fieldset', null, h('legend', null, 'Room settings'),
      select('set-decision', 'Time to choose', s.settings.decision_ms, withCurrent([10000, 20000, 30000, 60000, 120000], s.settings.decision_ms, secondsText), (v) => setSettings({ decision_ms: Number(v) })),
      timeFactorSelect('set-time-factor', s.settings, send),
      select('set-pace', 'Pause between steps', s.settings.pace_ms, withCurrent([0, 500, 1000, 1500, 2000, 3000], s.settings.pace_ms, secondsText), (v) => setSettings({ pace_ms: Number(v) })),
      check('set-hints', 'hints', Boolean(s.settings.hints), (v) => setSettings({ hints: v })),
      check('set-spectator-reactions', 'spectators may send reactions', Boolean(s.settings.spectator_reactions), (v) => setSettings({ spectator_reactions: v })),
      select('set-auto', 'Start by itself', armed ? 'armed' : 0,
        [[0, 'off'], ...(armed ? [['armed', 'counting down']] : []), [30000, 'in 30 s'], [60000, 'in 1 min'], [120000, 'in 2 min'], [300000, 'in 5 min']],
        (v) => v !== 'armed' && setSettings({ auto_start_ms: Number(v) }))));
}

// The countdown to the automatic start, between messages (app.js's tick).
export function tickLobby() {
  const auto = $('autostart');
  if (auto) {
    const left = view.autoStartLeft(now());
    const secs = left === null ? 0 : Math.ceil(left / 1000);
    auto.textContent = left === null ? '' : `Starts in ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')} (free seats get bots)`;
  }
}
