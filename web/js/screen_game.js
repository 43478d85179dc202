// The game (Spook & Werewolf Ludo or Classic Ludo): this page's decision (its options, hints and
// countdown), whom the step waits for, the monster that woke, the boards, the standings, the host's
// controls (pause, end, kick) and leaving; the keys that choose (1-9) and show the hints (?).
import { $, h } from './dom.js';
import { CHARACTERS } from './view.js';
import { spookBoard, chip, legend } from './spook.js';
import { ludoBoard, colourMark, describe, ludoOptionSentence } from './ludo.js';
import { geometry, YARD } from './ludo_geo.js';
import { t } from './i18n.js';
import { characterName, characterAction, letterName, colourName } from './game_words.js';
import { view, now, send, leave, render, reactions } from './session.js';
import { badge } from './reactions.js';
import { confirmStep, positionsText } from './shared.js';
import { savedPaper, savePaper } from './store.js';
import { speakSwitch } from './announce.js';
import { hostTimeControls, askTimeButton } from './more_time.js';

let showHints = true;
let focusedDecision = null; // the decision whose first option got the keyboard focus when it opened

// A decision that has just opened takes the keyboard focus to its first option (after this
// redraw), unless the player is typing somewhere.
function focusWhenOpened(p) {
  const id = p.decision.decision;
  if (focusedDecision === id || p.chosen !== null) return;
  focusedDecision = id;
  queueMicrotask(() => {
    const active = document.activeElement;
    const tag = active && active.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || $('confirm').open) return;
    const first = document.querySelector('#decision button.option:not([disabled])');
    if (first) first.focus();
  });
}

function choose(option) {
  const p = view.pending;
  if (!p || p.chosen !== null) return;
  if (view.paused) {
    view.say('error', t('The game is paused: choose when it resumes (your time is kept).'));
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
  const colour = spook ? -1 : view.ludoColour(d.seat);
  const buttons = d.options.map((o, i) => {
    const key = String(i + 1);
    let what;
    let sentence;
    const extra = [];
    if (spook) {
      const letter = o.to >= 40 ? '+' : board[o.to - 1];
      const square = o.to >= 40 ? letterName('+') : letter ? letterName(letter) : (o.square ? characterName(o.square, o.square) : '');
      what = [t('Piece {piece}: {from} → {to}', { piece: o.piece + 1, from: o.from, to: o.to >= 40 ? t('church') : o.to })];
      extra.push(h('span', { class: 'sqname' }, chip(letter || '?'), ' ', square));
      sentence = o.to >= 40
        ? t('piece {piece} from square {from} into the church', { piece: o.piece + 1, from: o.from })
        : letter === '.'
          ? t('piece {piece} from {from} to {to}, an entrance', { piece: o.piece + 1, from: o.from, to: o.to })
          : square
            ? t('piece {piece} from {from} to {to}, lands on a {character}', { piece: o.piece + 1, from: o.from, to: o.to, character: square })
            : t('piece {piece} from {from} to {to}', { piece: o.piece + 1, from: o.from, to: o.to });
      if (showHints && o.expected_rounds !== undefined) {
        const isBest = best !== null && o.expected_rounds === best && d.options.length > 1;
        const rounds = o.expected_rounds.toFixed(1);
        extra.push(h('span', { class: ['hint', isBest && 'best'] }, isBest ? t('{rounds} rounds, best', { rounds }) : t('{rounds} rounds', { rounds })));
        sentence = isBest ? t('{sentence}; about {rounds} rounds to go, the best', { sentence, rounds }) : t('{sentence}; about {rounds} rounds to go', { sentence, rounds });
      }
    } else {
      what = [t('Piece {piece}: {from} → {to}', { piece: o.piece + 1, from: describe(o.from, g), to: describe(o.to, g) })];
      sentence = ludoOptionSentence(view, o, g, colour);
      if (o.captures) extra.push(h('span', { class: 'captures' }, t('captures!')));
      if (showHints && o.best) {
        extra.push(h('span', { class: ['hint', 'best'] }, t('best')));
        sentence = t('{sentence}; the best', { sentence });
      }
    }
    return h('button', { type: 'button', class: ['option', p.chosen === o.piece && 'sent'], 'data-fk': `opt-${key}`,
      'aria-label': t('Option {key}: {sentence}', { key, sentence }), 'aria-keyshortcuts': key, disabled: p.chosen !== null, onclick: () => choose(o) },
    h('span', { class: 'key', 'aria-hidden': 'true' }, key), h('span', { class: 'what' }, what), extra);
  });
  focusWhenOpened(p);
  const hasHints = d.options.some((o) => o.expected_rounds !== undefined || o.best !== undefined);
  return h('section', { class: ['card', 'decision', view.paused && 'is-paused'], id: 'decision', 'aria-labelledby': 'decision-h' },
    h('h2', { id: 'decision-h' }, spook ? t('Your move: the die shows {face}', { face: view.roll ?? '?' }) : t('Your move: you threw {face}', { face: view.face ?? '?' })),
    h('div', { class: 'options' }, buttons),
    h('div', { class: 'countdown' }, h('div', { class: 'bar', 'aria-hidden': 'true' }, h('div', { class: 'fill', id: 'cd-fill' })),
      h('p', { id: 'cd-text', class: 'cd-text', role: 'timer', 'aria-live': 'off' })),
    hasHints ? h('label', { class: 'check small' }, h('input', { type: 'checkbox', checked: showHints, 'data-fk': 'hints', onchange: (e) => {
      showHints = e.target.checked;
      render();
    } }), ' ', t('show hints (key ?)')) : null);
}

// Whom the step waits for once this page has no choice of its own to make, and their time (tick).
function choosingLine() {
  return h('p', { id: 'choosing', class: 'choosing', role: 'timer', 'aria-live': 'off' }, view.choosingText(now()));
}

function activationPanel() {
  const a = view.activation;
  if (!a) return null;
  const c = CHARACTERS[a.character] || { letter: '?', name: a.name };
  const name = characterName(a.character, a.name);
  const moved = (a.moved || []).filter((x) => x.piece !== undefined);
  return h('section', { class: ['card', 'activation', `act-${c.letter}`], id: 'activation', 'aria-label': t('The monster') },
    h('p', { class: 'act-head' }, h('span', { class: 'die', 'aria-hidden': 'true' }, String(a.face)), ' ', chip(c.letter), ' ',
      t('The {character} wakes: any piece on a {character} {action}.', { character: name, action: characterAction(a.character) })),
    moved.length
      ? h('ul', { class: 'plain act-list' }, moved.map((x) => h('li', null,
        t("{name}'s piece {piece}: {from} → {to}", { name: view.seatName(x.seat), piece: x.piece + 1, from: x.from, to: x.to >= 40 ? letterName('+') : x.to }))))
      : h('p', { class: 'small' }, a.character === 'hat' ? t('Nobody stands on the {character}.', { character: name }) : t('Nobody stands on the {character}. Phew!', { character: name })));
}

function hostGameControls() {
  if (!view.amHost) return null;
  return h('section', { class: 'card host', 'aria-labelledby': 'hostg-h' },
    h('h3', { id: 'hostg-h' }, t('Host')),
    h('div', { class: 'row' },
      view.paused
        ? h('button', { type: 'button', id: 'resume-game', 'data-fk': 'pause', class: 'primary', onclick: () => send({ type: 'resume_game' }) }, t('Resume the game'))
        : h('button', { type: 'button', id: 'pause-game', 'data-fk': 'pause', onclick: () => send({ type: 'pause' }) }, t('Pause the game')),
      h('button', { type: 'button', id: 'end-game', class: 'danger', onclick: () => confirmStep(t('End the game now? It is abandoned, its seed revealed and its record written.'), t('End the game'), () => send({ type: 'end_game' })) }, t('End the game'))),
    hostTimeControls(view, send),
    h('p', { class: 'small' }, t('Kick a player from the list of players: a best bot plays their seat from then on.')));
}

function kickButton(seat) {
  const sv = view.seatView(seat);
  if (!view.amHost || seat === view.seat || !sv || sv.bot || sv.kicked) return null;
  return h('button', { type: 'button', class: 'small-btn danger', 'data-fk': `kick-${seat}`, 'aria-label': t('Kick {name} (seat {seat})', { name: sv.name, seat: seat + 1 }),
    onclick: () => confirmStep(t('Kick {name} (seat {seat})? A best bot plays the seat from then on, and they cannot come back to it.', { name: sv.name, seat: seat + 1 }), t('Kick'), () => send({ type: 'kick', seat })) }, t('Kick'));
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
    h('h3', { id: 'stand-h' }, t('Standings')),
    h('ol', { class: 'standings', id: 'standings' }, rows.map((r) => h('li', { class: r.seat === view.seat && 'mine' },
      h('span', { class: 'seat-name' }, view.seatName(r.seat)), ' ', badge(reactions, r.seat),
      h('span', { class: 'at' }, t('at {squares}', { squares: r.pieces.map((p) => (p >= 40 ? t('church') : p)).join(', ') })),
      r.done ? h('span', { class: 'tag t-done' }, t('done, round {round}', { round: r.done })) : null,
      h('span', { class: 'tags' }, view.seatTagWords(r.seat).filter((tag) => tag.kind !== 'here').map((tag) => h('span', { class: 'tag' }, tag.text))),
      kickButton(r.seat)))));
}

// "Print boards" and the paper beside it (A4 or US Letter, remembered): one board a page for every
// seat (print_boards.js, loaded on the first press: the page's first load stays as it was).
function printControls() {
  if (!view.playSeats.some((seat) => (view.spookBoards[seat] || '').length === 40)) return null;
  const paper = savedPaper();
  return h('div', { class: 'row print-row' },
    h('button', { type: 'button', id: 'print-boards-btn', onclick: () => {
      const chosen = $('print-paper').value;
      import('./print_boards.js').then((m) => m.printBoards(chosen)).catch(() => {
        view.say('error', t('The printed boards could not be loaded from the server: try again.'));
        render();
      });
    } }, t('Print boards')),
    h('label', { class: 'small' }, t('paper'), ' ',
      h('select', { id: 'print-paper', 'aria-label': t('Paper for the printed boards'), onchange: (e) => savePaper(e.target.value) },
        h('option', { value: 'a4', selected: paper === 'a4' }, t('A4')),
        h('option', { value: 'letter', selected: paper === 'letter' }, t('US Letter')))),
    h('span', { class: 'small' }, t('one board a page, for playing with coins on the table')));
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
      h('h3', { id: 'own-h' }, t('Your board'), ' ', h('span', { class: 'small' }, t('({name}: {where})', { name: view.seatName(view.seat), where: positionsText(view.seat) }))),
      spookBoard(view, view.seat, { big: true, targets, woken, moves: view.lastMoves })));
  }
  const others = view.playSeats.filter((s) => s !== view.seat || !mine);
  boards.push(h('section', { class: 'others', 'aria-label': mine ? t('The other boards') : t('The boards') },
    others.map((seat) => h('div', { class: 'other' },
      h('h4', null, view.seatName(seat), ' ', badge(reactions, seat), h('span', { class: 'small' }, positionsText(seat)),
        view.spookFinished[seat] ? h('span', { class: 'tag t-done' }, t('done, round {round}', { round: view.spookFinished[seat] })) : null),
      spookBoard(view, seat, { big: !mine && others.length <= 2, woken, moves: view.lastMoves })))));
  els.push(h('div', { class: 'boards' }, boards));
  els.push(legend());
  els.push(printControls());
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
    h('h3', { id: 'players-h' }, t('Players')),
    h('ol', { class: 'standings', id: 'standings' }, seats.map((seat) => {
      const progress = view.ludoProgress[seat];
      const home = progress.filter((p) => p === g.home).length;
      const yard = progress.filter((p) => p === YARD).length;
      const c = view.ludoColour(seat);
      return h('li', { class: [seat === view.seat && 'mine', seat === view.currentSeat && 'turn'] },
        seat === view.currentSeat ? h('span', { class: 'turn-mark', 'aria-label': t('to play') }, '▶') : null,
        colourMark(c), ' ', h('span', { class: 'colour-name' }, colourName(c)), ' ',
        h('span', { class: 'seat-name' }, view.seatName(seat)), ' ', badge(reactions, seat),
        h('span', { class: 'at' }, t('start {yard}, home {home}', { yard, home })),
        view.partnerOf(seat) >= 0 ? h('span', { class: 'partner' }, t('team with {name}', { name: view.seatName(view.partnerOf(seat)) })) : null,
        h('span', { class: 'tags' }, view.seatTagWords(seat).filter((tag) => tag.kind !== 'here').map((tag) => h('span', { class: 'tag' }, tag.text))),
        kickButton(seat));
    })),
    view.face ? h('p', { id: 'last-throw' }, view.thrower !== null && view.thrower !== undefined
      ? t('Last throw: {face} ({name})', { face: view.face, name: view.seatName(view.thrower) })
      : t('Last throw: {face}', { face: view.face })) : null,
    last ? h('p', null, t('Last move: {name}, piece {piece}, {from} → {to}', { name: view.seatName(last.seat), piece: last.piece + 1, from: describe(last.from, g), to: describe(last.to, g) })) : null));
  return els;
}

export function gameScreen() {
  if (!view.inGame) {
    return h('section', { class: 'card' }, h('h2', null, t('A game is starting')),
      h('p', null, t('The server has locked in its dice seed; every player adds one of their own. A moment…')));
  }
  const els = view.options.game === 'ludo' ? ludoGame() : spookGame();
  els.push(speakSwitch());
  els.push(hostGameControls());
  els.push(h('div', { class: 'row' }, askTimeButton(view, send, now(), render), h('button', { type: 'button', id: 'leave', onclick: () => {
    if (view.isSpectator) leave();
    else confirmStep(t('Leave the game? The server plays your seat to the end.'), t('Leave'), leave);
  } }, view.isSpectator ? t('Stop watching') : t('Leave the game'))));
  return els;
}

// The decision's countdown and whom the step waits for, between messages (app.js's tick).
export function tickGame() {
  const fill = $('cd-fill');
  const text = $('cd-text');
  if (fill && text && view.pending && view.pending.deadline === null) {
    // No limit (settings.time_factor 0): the bar stays full, nothing counts down.
    fill.style.width = '100%';
    fill.classList.remove('low');
    const words = view.pending.chosen !== null
      ? t('You chose piece {piece}; waiting for the server.', { piece: view.pending.chosen + 1 })
      : t('No time limit: take your time.');
    if (text.textContent !== words) text.textContent = words;
  } else if (fill && text && view.pending) {
    const left = view.timeLeft(now());
    const total = Math.max(1, view.pending.decision.time_left_ms + (view.pending.total_extra || 0));
    const full = view.snapshot && view.snapshot.settings ? view.snapshot.settings.decision_ms : total;
    fill.style.width = `${Math.max(0, Math.min(100, (100 * left) / Math.max(full, left, 1)))}%`;
    const secs = Math.ceil(left / 1000);
    fill.classList.toggle('low', secs <= 5);
    let words;
    if (view.pending.chosen !== null) words = t('You chose piece {piece}; waiting for the server.', { piece: view.pending.chosen + 1 });
    else if (view.paused) words = t('Paused ({secs} s left): choose when the game resumes.', { secs });
    else if (view.disconnected) words = t('No connection: the countdown is stopped ({secs} s left).', { secs });
    else if (left <= 0) words = t('Time is up: the server moves for you.');
    else words = t('Choose within {secs} s', { secs });
    if (text.textContent !== words) text.textContent = words;
  }
  const waiting = $('choosing');
  if (waiting) {
    const words = view.choosingText(now());
    if (waiting.textContent !== words) waiting.textContent = words;
  }
}

// The keys (the page's keydown): 1-9 choose an option, ? shows or hides the hints.
export function gameKeys(e) {
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
}
