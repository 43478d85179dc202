// The game (Spook & Werewolf Ludo or Classic Ludo): this page's decision (its options, hints and
// countdown), whom the step waits for, the monster that woke, the boards, the standings, the host's
// controls (pause, end, kick) and leaving; the keys that choose (1-9) and show the hints (?).
import { $, h } from './dom.js';
import { CHARACTERS, LETTER_NAMES } from './view.js';
import { spookBoard, chip, legend } from './spook.js';
import { ludoBoard, colourMark, describe } from './ludo.js';
import { geometry, COLOURS, YARD } from './ludo_geo.js';
import { view, now, send, leave, render, reactions } from './session.js';
import { badge } from './reactions.js';
import { confirmStep, positionsText } from './shared.js';
import { savedPaper, savePaper } from './store.js';
import { speakSwitch } from './announce.js';
import { hostTimeControls, askTimeButton } from './more_time.js';
import { t } from './i18n.js';

let showHints = true;

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
    hostTimeControls(view, send),
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
      h('span', { class: 'seat-name' }, view.seatName(r.seat)), ' ', badge(reactions, r.seat),
      h('span', { class: 'at' }, `at ${r.pieces.map((p) => (p >= 40 ? 'church' : p)).join(', ')}`),
      r.done ? h('span', { class: 'tag t-done' }, `done, round ${r.done}`) : null,
      h('span', { class: 'tags' }, view.seatTags(r.seat).filter((t) => t !== 'here').map((t) => h('span', { class: 'tag' }, t))),
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
        view.say('error', 'The printed boards could not be loaded from the server: try again.');
        render();
      });
    } }, 'Print boards'),
    h('label', { class: 'small' }, 'paper ',
      h('select', { id: 'print-paper', 'aria-label': 'Paper for the printed boards', onchange: (e) => savePaper(e.target.value) },
        h('option', { value: 'a4', selected: paper === 'a4' }, 'A4'),
        h('option', { value: 'letter', selected: paper === 'letter' }, 'US Letter'))),
    h('span', { class: 'small' }, 'one board a page, for playing with coins on the table'));
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
      h('h4', null, view.seatName(seat), ' ', badge(reactions, seat), h('span', { class: 'small' }, positionsText(seat)),
        view.spookFinished[seat] ? h('span', { class: 'tag t-done' }, `done r${view.spookFinished[seat]}`) : null),
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
    h('h3', { id: 'players-h' }, 'Players'),
    h('ol', { class: 'standings', id: 'standings' }, seats.map((seat) => {
      const progress = view.ludoProgress[seat];
      const home = progress.filter((p) => p >= g.home).length;
      const yard = progress.filter((p) => p === YARD).length;
      const c = view.ludoColour(seat);
      return h('li', { class: [seat === view.seat && 'mine', seat === view.currentSeat && 'turn'] },
        seat === view.currentSeat ? h('span', { class: 'turn-mark', 'aria-label': 'to play' }, '▶') : null,
        colourMark(c), ' ', h('span', { class: 'colour-name' }, COLOURS[c]), ' ',
        h('span', { class: 'seat-name' }, view.seatName(seat)), ' ', badge(reactions, seat),
        h('span', { class: 'at' }, `yard ${yard}, home ${home}`),
        h('span', { class: 'tags' }, view.seatTags(seat).filter((t) => t !== 'here').map((t) => h('span', { class: 'tag' }, t))),
        kickButton(seat));
    })),
    view.face ? h('p', { id: 'last-throw' }, 'Last throw: ', h('span', { class: 'die' }, String(view.face)),
      view.thrower !== null && view.thrower !== undefined ? ` (${view.seatName(view.thrower)})` : '') : null,
    last ? h('p', null, `Last move: ${view.seatName(last.seat)} piece ${last.piece + 1}, ${describe(last.from, g)} → ${describe(last.to, g)}`) : null));
  return els;
}

export function gameScreen() {
  if (!view.inGame) {
    return h('section', { class: 'card' }, h('h2', null, 'A game is starting'),
      h('p', null, 'The server has locked in its dice seed; every player adds one of their own. A moment…'));
  }
  const els = view.options.game === 'ludo' ? ludoGame() : spookGame();
  els.push(speakSwitch());
  els.push(hostGameControls());
  els.push(h('div', { class: 'row' }, askTimeButton(view, send, now(), render), h('button', { type: 'button', id: 'leave', onclick: () => {
    if (view.isSpectator) leave();
    else confirmStep('Leave the game? The server plays your seat to the end.', 'Leave', leave);
  } }, view.isSpectator ? 'Stop watching' : 'Leave the game')));
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
