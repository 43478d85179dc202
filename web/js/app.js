// SpookLudo in a browser: joins or creates a room on the server that served this page, and draws
// the room, the game and its story from the server's messages (protocol/PROTOCOL.md), as the
// terminal client does. Everything a player or the server named is inserted as text.
import { $, h, replace } from './dom.js';
import { CHARACTERS, LETTER_NAMES } from './view.js';
import * as store from './store.js';
import { spookBoard, chip, legend, squareWords } from './spook.js';
import { ludoBoard, colourMark, describe } from './ludo.js';
import { geometry, COLOURS, YARD } from './ludo_geo.js';
import { qrCode } from './qr.js';
import { renderBar, renderStory } from './frame.js';
import { view, intent, serverWelcome, savedRecord, now, drawWith, codeFromPath, enter, leave, send } from './session.js';
import { copyButton, recordDownload, positionsText, confirmStep } from './shared.js';
import { joinScreen } from './screen_join.js';

let showHints = true;
let seatDraft = null; // a spectator's name for a seat, as typed (kept across redraws)

// ---- Drawing ---------------------------------------------------------------------------------

function render() {
  renderBar(view);
  renderStory(view);
  const screen = $('screen');
  document.body.dataset.screen = screenName();
  switch (screenName()) {
    case 'home': replace(screen, joinScreen()); break;
    case 'connecting': replace(screen, h('p', { class: 'connecting' }, 'Connecting to the game server…')); break;
    case 'end': replace(screen, endScreen()); break;
    case 'game': replace(screen, gameScreen()); break;
    default: replace(screen, lobbyScreen());
  }
  $('story-wrap').hidden = screenName() === 'home' || screenName() === 'connecting';
  tick();
}
drawWith(render);

function screenName() {
  if (!intent && !view.room) return 'home';
  if (!view.room || !view.snapshot) return 'connecting';
  if (view.showingResult) return 'end';
  if (view.inGame || view.state === 'playing' || view.state === 'seeding') return 'game';
  return 'lobby';
}

// The countdowns (decision, the others' time to choose, automatic start) between messages.
function tick() {
  const fill = $('cd-fill');
  const text = $('cd-text');
  if (fill && text && view.pending) {
    const left = view.timeLeft(now());
    const total = Math.max(1, view.pending.decision.time_left_ms + (view.pending.total_extra || 0));
    const full = view.snapshot && view.snapshot.settings ? view.snapshot.settings.decision_ms : total;
    fill.style.width = `${Math.max(0, Math.min(100, (100 * left) / Math.max(full, left, 1)))}%`;
    const secs = Math.ceil(left / 1000);
    fill.classList.toggle('low', secs <= 5);
    let words;
    if (view.pending.chosen !== null) words = `You chose piece ${view.pending.chosen + 1}; waiting for the server.`;
    else if (view.paused) words = `Paused (${secs} s left): choose when the game resumes.`;
    else if (view.disconnected) words = `No connection: the countdown is stopped (${secs} s left).`;
    else if (left <= 0) words = 'Time is up: the server moves for you.';
    else words = `Choose within ${secs} s`;
    if (text.textContent !== words) text.textContent = words;
  }
  const waiting = $('choosing');
  if (waiting) {
    const words = view.choosingText(now());
    if (waiting.textContent !== words) waiting.textContent = words;
  }
  const auto = $('autostart');
  if (auto) {
    const left = view.autoStartLeft(now());
    const secs = left === null ? 0 : Math.ceil(left / 1000);
    auto.textContent = left === null ? '' : `Starts in ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')} (free seats get bots)`;
  }
}
setInterval(tick, 200);

// ---- The lobby ---------------------------------------------------------------------------------

function optionsText(o) {
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
  return text + (o.play_on ? ', play on' : '');
}

function secondsText(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function settingsText(s) {
  return `${secondsText(s.decision_ms)} to choose, ${secondsText(s.pace_ms)} between steps, hints ${s.hints ? 'on' : 'off'}`;
}

// Where guests reach the server: the host's --public-url; on the server's own machine (a
// loopback address) its network address; otherwise the address this page came from.
function joinBase() {
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
    h('pre', { class: 'cmd', id: 'join-command' }, command), copyButton(command, 'Copy the command'));
}

function loopback(host) {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

function lobbyScreen() {
  const s = view.snapshot;
  const host = view.amHost;
  const els = [];
  els.push(h('h2', { class: 'screen-title' }, `Room ${view.room}: ${s.state === 'lobby' ? 'waiting in the lobby' : s.state}`));
  els.push(h('p', { id: 'lobby-game' }, optionsText(s.options)));
  els.push(h('p', { id: 'lobby-settings' }, 'Settings: ', settingsText(s.settings)));
  els.push(h('p', { id: 'autostart', class: 'autostart', 'aria-live': 'off' }));

  const seatItems = view.roomSeats().map((seat) => {
    const sv = view.seatView(seat);
    const mine = seat === view.seat;
    const row = [h('span', { class: 'seat-no' }, String(seat + 1))];
    if (!sv) {
      row.push(h('span', { class: 'seat-name free' }, '(free)'));
    } else {
      row.push(h('span', { class: 'seat-name' }, sv.name));
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

  if (host) els.push(hostLobbyControls(s));
  else if (view.isSpectator) els.push(spectatorSeatForm(s));
  else els.push(h('p', { id: 'waiting' }, `Waiting for ${s.host >= 0 ? view.seatName(s.host) : 'the host'} (host) to start.`));
  els.push(inviteBlock());
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
      select('set-pace', 'Pause between steps', s.settings.pace_ms, withCurrent([0, 500, 1000, 1500, 2000, 3000], s.settings.pace_ms, secondsText), (v) => setSettings({ pace_ms: Number(v) })),
      check('set-hints', 'hints', Boolean(s.settings.hints), (v) => setSettings({ hints: v })),
      select('set-auto', 'Start by itself', armed ? 'armed' : 0,
        [[0, 'off'], ...(armed ? [['armed', 'counting down']] : []), [30000, 'in 30 s'], [60000, 'in 1 min'], [120000, 'in 2 min'], [300000, 'in 5 min']],
        (v) => v !== 'armed' && setSettings({ auto_start_ms: Number(v) }))));
}

// ---- The game ----------------------------------------------------------------------------------

function choose(option) {
  const p = view.pending;
  if (!p || p.chosen !== null) return;
  if (view.paused) {
    view.say('error', 'The game is paused: choose when it resumes (your time is kept).');
    render();
    return;
  }
  if (send({ type: 'choose', decision: p.decision.decision, piece: option.piece })) {
    p.chosen = option.piece;
    render();
  }
}

function decisionPanel() {
  const p = view.pending;
  if (!p) return null;
  const d = p.decision;
  const spook = view.options.game === 'spook';
  const g = geometry(view.options.arm || 8);
  let best = null;
  for (const o of d.options) if (o.expected_rounds !== undefined && (best === null || o.expected_rounds < best)) best = o.expected_rounds;
  const board = view.spookBoards[d.seat] || '';
  const buttons = d.options.map((o, i) => {
    const key = String(i + 1);
    let what;
    let words;
    const extra = [];
    if (spook) {
      const letter = o.to >= 40 ? '+' : board[o.to - 1];
      const square = o.to >= 40 ? 'the church' : LETTER_NAMES[letter] || o.square || '';
      what = [`Piece ${o.piece + 1}: ${o.from} → ${o.to >= 40 ? 'church' : o.to}`];
      extra.push(h('span', { class: 'sqname' }, chip(letter || '?'), ` ${square}`));
      words = `Option ${key}: piece ${o.piece + 1} from ${o.from} to ${o.to >= 40 ? 'the church' : `${o.to}, ${square}`}`;
      if (showHints && o.expected_rounds !== undefined) {
        const isBest = best !== null && o.expected_rounds === best && d.options.length > 1;
        extra.push(h('span', { class: ['hint', isBest && 'best'] }, `${o.expected_rounds.toFixed(1)} rounds${isBest ? ', best' : ''}`));
        words += `, ${o.expected_rounds.toFixed(1)} expected rounds${isBest ? ', best' : ''}`;
      }
    } else {
      what = [`Piece ${o.piece + 1}: ${o.from === YARD ? 'yard' : o.from} → ${describe(o.to, g)}`];
      words = `Option ${key}: piece ${o.piece + 1} from ${describe(o.from, g)} to ${describe(o.to, g)}`;
      if (o.captures) {
        extra.push(h('span', { class: 'captures' }, 'captures!'));
        words += ', captures';
      }
      if (showHints && o.best) {
        extra.push(h('span', { class: ['hint', 'best'] }, 'best'));
        words += ', best';
      }
    }
    return h('button', { type: 'button', class: ['option', p.chosen === o.piece && 'sent'], 'data-fk': `opt-${key}`,
      'aria-label': words, 'aria-keyshortcuts': key, disabled: p.chosen !== null, onclick: () => choose(o) },
    h('span', { class: 'key', 'aria-hidden': 'true' }, key), h('span', { class: 'what' }, what), extra);
  });
  const hasHints = d.options.some((o) => o.expected_rounds !== undefined || o.best !== undefined);
  return h('section', { class: ['card', 'decision', view.paused && 'is-paused'], id: 'decision', 'aria-labelledby': 'decision-h' },
    h('h2', { id: 'decision-h' }, spook ? `Your move: the die shows ${view.roll ?? '?'}` : `Your move: you threw ${view.face ?? '?'}`),
    h('div', { class: 'options' }, buttons),
    h('div', { class: 'countdown' }, h('div', { class: 'bar', 'aria-hidden': 'true' }, h('div', { class: 'fill', id: 'cd-fill' })),
      h('p', { id: 'cd-text', class: 'cd-text', role: 'timer', 'aria-live': 'off' })),
    hasHints ? h('label', { class: 'check small' }, h('input', { type: 'checkbox', checked: showHints, 'data-fk': 'hints', onchange: (e) => {
      showHints = e.target.checked;
      render();
    } }), ' show hints (key ?)') : null);
}

// Whom the step waits for once this page has no choice of its own to make, and their time (tick).
function choosingLine() {
  return h('p', { id: 'choosing', class: 'choosing', role: 'timer', 'aria-live': 'off' }, view.choosingText(now()));
}

function activationPanel() {
  const a = view.activation;
  if (!a) return null;
  const c = CHARACTERS[a.character] || { letter: '?', name: a.name };
  const moved = (a.moved || []).filter((x) => x.piece !== undefined);
  return h('section', { class: ['card', 'activation', `act-${c.letter}`], id: 'activation', 'aria-label': 'The monster' },
    h('p', { class: 'act-head' }, h('span', { class: 'die', 'aria-hidden': 'true' }, String(a.face)), ' ', chip(c.letter),
      ` The ${a.name} wakes: any piece on the ${a.name} ${a.action}.`),
    moved.length
      ? h('ul', { class: 'plain act-list' }, moved.map((x) => h('li', null,
        `${view.seatName(x.seat)}'s piece ${x.piece + 1}: ${x.from} → ${x.to >= 40 ? 'the church' : x.to}`)))
      : h('p', { class: 'small' }, `Nobody stands on the ${a.name}${a.character === 'hat' ? '.' : '. Phew!'}`));
}

function hostGameControls() {
  if (!view.amHost) return null;
  return h('section', { class: 'card host', 'aria-labelledby': 'hostg-h' },
    h('h3', { id: 'hostg-h' }, 'Host'),
    h('div', { class: 'row' },
      view.paused
        ? h('button', { type: 'button', id: 'resume-game', 'data-fk': 'pause', class: 'primary', onclick: () => send({ type: 'resume_game' }) }, 'Resume the game')
        : h('button', { type: 'button', id: 'pause-game', 'data-fk': 'pause', onclick: () => send({ type: 'pause' }) }, 'Pause the game'),
      h('button', { type: 'button', id: 'end-game', class: 'danger', onclick: () => confirmStep('End the game now? It is abandoned, its seed revealed and its record written.', 'End the game', () => send({ type: 'end_game' })) }, 'End the game')),
    h('p', { class: 'small' }, 'Kick a player from the list of players: a best bot plays their seat from then on.'));
}

function kickButton(seat) {
  const sv = view.seatView(seat);
  if (!view.amHost || seat === view.seat || !sv || sv.bot || sv.kicked) return null;
  return h('button', { type: 'button', class: 'small-btn danger', 'data-fk': `kick-${seat}`, 'aria-label': `Kick ${sv.name} (seat ${seat + 1})`,
    onclick: () => confirmStep(`Kick ${sv.name} (seat ${seat + 1})? A best bot plays the seat from then on, and they cannot come back to it.`, 'Kick', () => send({ type: 'kick', seat })) }, 'Kick');
}

function spookStandings() {
  const seats = view.playSeats.filter((s) => s < view.spookPositions.length);
  const rows = seats.map((seat) => {
    const pieces = view.spookPositions[seat] || [];
    const need = (view.options.pieces || 2) === 3 ? 2 : pieces.length;
    const best = pieces.slice().sort((a, b) => b - a).slice(0, need);
    const score = best.reduce((a, b) => a + b, 0);
    return { seat, pieces, score, done: view.spookFinished[seat] };
  });
  rows.sort((a, b) => (a.done ?? 1e9) - (b.done ?? 1e9) || b.score - a.score);
  return h('section', { class: 'card', 'aria-labelledby': 'stand-h' },
    h('h3', { id: 'stand-h' }, 'Standings'),
    h('ol', { class: 'standings', id: 'standings' }, rows.map((r) => h('li', { class: r.seat === view.seat && 'mine' },
      h('span', { class: 'seat-name' }, view.seatName(r.seat)), ' ',
      h('span', { class: 'at' }, `at ${r.pieces.map((p) => (p >= 40 ? 'church' : p)).join(', ')}`),
      r.done ? h('span', { class: 'tag t-done' }, `done, round ${r.done}`) : null,
      h('span', { class: 'tags' }, view.seatTags(r.seat).filter((t) => t !== 'here').map((t) => h('span', { class: 'tag' }, t))),
      kickButton(r.seat)))));
}

function spookGame() {
  const els = [];
  const mine = view.seat >= 0 && !view.isSpectator && view.playSeats.includes(view.seat);
  const woken = view.activation && CHARACTERS[view.activation.character] ? CHARACTERS[view.activation.character].letter : null;
  const targets = new Map();
  if (view.pending && view.pending.chosen === null)
    view.pending.decision.options.forEach((o, i) => {
      const sq = Math.min(o.to, 40);
      if (!targets.has(sq)) targets.set(sq, []);
      targets.get(sq).push(i + 1);
    });
  els.push(decisionPanel());
  els.push(choosingLine());
  els.push(activationPanel());
  const boards = [];
  if (mine) {
    boards.push(h('section', { class: 'own', 'aria-labelledby': 'own-h' },
      h('h3', { id: 'own-h' }, 'Your board ', h('span', { class: 'small' }, `(${view.seatName(view.seat)}: ${positionsText(view.seat)})`)),
      spookBoard(view, view.seat, { big: true, targets, woken, moves: view.lastMoves })));
  }
  const others = view.playSeats.filter((s) => s !== view.seat || !mine);
  boards.push(h('section', { class: 'others', 'aria-label': mine ? 'The other boards' : 'The boards' },
    others.map((seat) => h('div', { class: 'other' },
      h('h4', null, view.seatName(seat), ' ', h('span', { class: 'small' }, positionsText(seat)),
        view.spookFinished[seat] ? h('span', { class: 'tag t-done' }, `done r${view.spookFinished[seat]}`) : null),
      spookBoard(view, seat, { big: !mine && others.length <= 2, woken, moves: view.lastMoves })))));
  els.push(h('div', { class: 'boards' }, boards));
  els.push(legend());
  els.push(spookStandings());
  return els;
}

function ludoGame() {
  const els = [];
  const g = geometry(view.options.arm || 8);
  els.push(decisionPanel());
  els.push(choosingLine());
  const seats = view.playSeats.filter((s) => s < view.ludoProgress.length);
  els.push(h('div', { class: 'ludo-wrap' }, ludoBoard(view, choose)));
  const last = view.lastMoves[0];
  els.push(h('section', { class: 'card', 'aria-labelledby': 'players-h' },
    h('h3', { id: 'players-h' }, 'Players'),
    h('ol', { class: 'standings', id: 'standings' }, seats.map((seat) => {
      const progress = view.ludoProgress[seat];
      const home = progress.filter((p) => p >= g.home).length;
      const yard = progress.filter((p) => p === YARD).length;
      const c = view.ludoColour(seat);
      return h('li', { class: [seat === view.seat && 'mine', seat === view.currentSeat && 'turn'] },
        seat === view.currentSeat ? h('span', { class: 'turn-mark', 'aria-label': 'to play' }, '▶') : null,
        colourMark(c), ' ', h('span', { class: 'colour-name' }, COLOURS[c]), ' ',
        h('span', { class: 'seat-name' }, view.seatName(seat)), ' ',
        h('span', { class: 'at' }, `yard ${yard}, home ${home}`),
        h('span', { class: 'tags' }, view.seatTags(seat).filter((t) => t !== 'here').map((t) => h('span', { class: 'tag' }, t))),
        kickButton(seat));
    })),
    view.face ? h('p', { id: 'last-throw' }, 'Last throw: ', h('span', { class: 'die' }, String(view.face)),
      view.thrower !== null && view.thrower !== undefined ? ` (${view.seatName(view.thrower)})` : '') : null,
    last ? h('p', null, `Last move: ${view.seatName(last.seat)} piece ${last.piece + 1}, ${describe(last.from, g)} → ${describe(last.to, g)}`) : null));
  return els;
}

function gameScreen() {
  if (!view.inGame) {
    return h('section', { class: 'card' }, h('h2', null, 'A game is starting'),
      h('p', null, 'The server has locked in its dice seed; every player adds one of their own. A moment…'));
  }
  const els = view.options.game === 'ludo' ? ludoGame() : spookGame();
  els.push(hostGameControls());
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', id: 'leave', onclick: () => {
    if (view.isSpectator) leave();
    else confirmStep('Leave the game? The server plays your seat to the end.', 'Leave', leave);
  } }, view.isSpectator ? 'Stop watching' : 'Leave the game')));
  return els;
}

// ---- The end -------------------------------------------------------------------------------------

function endScreen() {
  const { over, names } = view.result;
  const name = (seat) => names[seat] || view.seatName(seat);
  const spook = view.result.options.game !== 'ludo';
  const els = [h('h2', { class: 'screen-title' }, 'Game over')];
  if (over.status === 'finished') {
    const winners = (over.winners || []).map(name);
    els.push(h('p', { class: 'winner', id: 'end-winner' },
      `${winners.length ? winners.join(' and ') : 'Nobody'} ${winners.length > 1 ? 'win together' : 'wins'} after ${over.length} ${spook ? (over.length === 1 ? 'round' : 'rounds') : (over.length === 1 ? 'turn' : 'turns')}.`));
  } else {
    els.push(h('p', { class: 'winner abandoned', id: 'end-winner' }, `The game was abandoned${over.reason ? `: ${over.reason}` : ''}.`));
  }
  const order = [];
  (over.places || []).forEach((place, seat) => place > 0 && order.push([place, seat]));
  order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (order.length) {
    els.push(h('ol', { class: 'places', id: 'end-places' }, order.map(([place, seat]) => h('li', { value: place },
      `${place}. ${name(seat)} (seat ${seat + 1})`))));
  }
  if (over.server_seed) els.push(h('p', { class: 'seed' }, 'The server seed, revealed: ', h('code', { id: 'end-seed' }, over.server_seed)));
  if (over.record) {
    const url = `${location.origin}${over.record}`;
    const cmd = `spookludo verify ${url}`;
    els.push(h('p', null, "The game's record: ", h('a', { href: url, id: 'end-record', target: '_blank', rel: 'noopener' }, url)));
    els.push(h('p', null, 'Check the dice and every move with:'));
    els.push(h('pre', { class: 'cmd', id: 'end-verify' }, cmd), copyButton(cmd, 'Copy the command'));
    if (savedRecord && savedRecord.gameId === over.game_id) els.push(...recordDownload('end'));
  }
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', id: 'end-close', onclick: () => {
    view.resultDismissed = true;
    render();
  } }, 'Back to the room')));
  if (spook && view.spookBoards.length) {
    els.push(h('section', { class: 'others final', 'aria-label': 'The final boards' },
      view.playSeats.filter((s) => view.spookBoards[s]).map((seat) => h('div', { class: 'other' },
        h('h4', null, name(seat), ' ', h('span', { class: 'small' }, positionsText(seat))), spookBoard(view, seat, {})))));
  } else if (!spook && view.ludoProgress.length) {
    els.push(h('div', { class: 'ludo-wrap' }, ludoBoard(view, () => {})));
  }
  return h('section', { class: 'end', id: 'end', 'aria-labelledby': 'end-h' }, els);
}

// ---- Keys --------------------------------------------------------------------------------------------

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target && e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || $('confirm').open) return;
  if (/^[1-9]$/.test(e.key) && view.pending) {
    const o = view.pending.decision.options[Number(e.key) - 1];
    if (o) {
      e.preventDefault();
      choose(o);
    }
  } else if (e.key === '?') {
    showHints = !showHints;
    render();
  }
});

// ---- Start -------------------------------------------------------------------------------------------

(function start() {
  const room = codeFromPath();
  const held = room ? store.seatFor(room) : null;
  if (held) enter({ type: 'resume', room, token: held.token });
  else render();
})();
