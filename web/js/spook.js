// Spook & Werewolf boards: 40 squares in the four regions, one row of ten each (entrances on 1,
// 11, 21, 31; the church on 40). A character is shown by its letter and its own colour and
// shape, never by colour alone. Pieces are numbered tokens; the squares the woken monster stands
// on are ringed and marked "!", and the decision's targets carry the option's number.
import { h } from './dom.js';
import { CHARACTERS } from './view.js';
import { t } from './i18n.js';
import { letterName, spookSquare } from './game_words.js';

// A square in words for a screen reader: "square 12, a Werewolf", "the church".
export function squareWords(board, square) {
  return spookSquare(board, square);
}

// A character chip: its letter on its colour (the legend and the decision's buttons).
export function chip(letter) {
  const name = letterName(letter);
  return h('span', { class: ['chip', `c-${letterClass(letter)}`], 'aria-hidden': 'true', title: name }, glyph(letter));
}

function letterClass(letter) {
  return letter === '.' ? 'E' : letter === '+' ? 'P' : letter;
}

function glyph(letter) {
  if (letter === '.') return '·';
  return letter;
}

export function legend() {
  return h('p', { class: 'legend' },
    ['H', 'C', 'S', 'W', 'X', '+'].map((l) => h('span', { class: 'legend-item' }, chip(l), ' ', letterName(l))));
}

// One seat's board. `opts`: {big, targets: Map square -> [option numbers], woken: letter or
// null, hit: Set of piece indexes moved by the monster, moves: the seat's last moves}.
export function spookBoard(view, seat, opts = {}) {
  const board = view.spookBoards[seat] || '';
  const pieces = view.spookPositions[seat] || [];
  const at = new Map();
  pieces.forEach((square, piece) => {
    if (!at.has(square)) at.set(square, []);
    at.get(square).push(piece);
  });
  const trail = new Set();
  const movedTo = new Set();
  for (const mv of opts.moves || []) {
    if (mv.seat !== seat || !(mv.to > mv.from)) continue;
    for (let s = mv.from; s < mv.to; s++) trail.add(s);
    movedTo.add(mv.to);
  }
  const hitFrom = new Map(); // square -> pieces knocked from it by the monster
  const hitTo = new Set();
  if (view.activation) {
    for (const x of view.activation.moved || []) {
      if (x.seat !== seat || x.piece === undefined) continue;
      if (!hitFrom.has(x.from)) hitFrom.set(x.from, []);
      hitFrom.get(x.from).push(x.piece);
      hitTo.add(x.to);
    }
  }
  const rows = [];
  for (let region = 0; region < 4; region++) {
    const cells = [];
    for (let i = 0; i < 10; i++) {
      const square = region * 10 + i + 1;
      const letter = board[square - 1] || '?';
      const here = at.get(square) || [];
      const targets = opts.targets ? opts.targets.get(square) || [] : [];
      const woken = opts.woken && letter === opts.woken;
      const cls = ['sq', `c-${letterClass(letter)}`, woken && 'woken', trail.has(square) && 'trail', movedTo.has(square) && 'moved',
        hitTo.has(square) && 'hit', targets.length && 'target', here.length && 'occupied'];
      cells.push(h('div', { class: cls },
        opts.big ? h('span', { class: 'num' }, String(square)) : null,
        h('span', { class: 'ch' }, glyph(letter)),
        woken ? h('span', { class: 'bang' }, '!') : null,
        hitFrom.has(square) ? h('span', { class: 'ghost' }, hitFrom.get(square).map((p) => String(p + 1)).join('')) : null,
        here.length ? h('span', { class: ['pcs', here.length > 1 && 'many'] }, here.map((p) => h('span', { class: 'pc' }, String(p + 1)))) : null,
        targets.length ? h('span', { class: 'tgt' }, targets.join(' ')) : null));
    }
    rows.push(h('div', { class: 'region' }, cells));
  }
  // The picture for a screen reader: where the pieces stand and on what.
  const where = pieces.map((square, piece) => t('piece {piece} on {square}', { piece: piece + 1, square: squareWords(board, square) }));
  let label = where.length
    ? t("{name}'s board: {pieces}", { name: view.seatName(seat), pieces: where.join('; ') })
    : t("{name}'s board: no pieces", { name: view.seatName(seat) });
  if (opts.woken) label += ' ' + t('The {character} squares are marked.', { character: letterName(opts.woken) });
  return h('div', { class: ['board', opts.big ? 'big' : 'small'], role: 'img', 'aria-label': label }, rows);
}

export function characterOf(id) {
  return CHARACTERS[id] || null;
}
