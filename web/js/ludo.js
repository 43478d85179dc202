// The Classic Ludo board as SVG: the cross (arms of 8 or 6), the four yards in the corners, the
// home columns and home in the middle, and the pieces. A colour is never shown by colour alone:
// every colour has its own piece shape (green circle, yellow square, red diamond, blue hexagon)
// and its name in its yard. During a decision the pieces that can move are ringed and can be
// tapped (or focused and chosen with Enter), and the square each option leads to carries the
// option's number.
import { svg } from './dom.js';
import { COLOURS, YARD, geometry } from './ludo_geo.js';
import { t } from './i18n.js';
import { colourName, ludoPlace } from './game_words.js';

const U = 10; // user units per cell

export const SHAPES = ['circle', 'square', 'diamond', 'hexagon'];

function shape(colour, cx, cy, r, extra = {}) {
  const cls = [`lp`, `lp-${COLOURS[colour]}`];
  switch (colour) {
    case 0: return svg('circle', { class: cls, cx, cy, r, ...extra });
    case 1: return svg('rect', { class: cls, x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, rx: r * 0.25, ...extra });
    case 2: return svg('polygon', { class: cls, points: `${cx},${cy - r * 1.15} ${cx + r * 1.15},${cy} ${cx},${cy + r * 1.15} ${cx - r * 1.15},${cy}`, ...extra });
    default: {
      const pts = [];
      for (let k = 0; k < 6; k++) {
        const a = (Math.PI / 3) * k + Math.PI / 6;
        pts.push(`${(cx + r * 1.05 * Math.cos(a)).toFixed(2)},${(cy + r * 1.05 * Math.sin(a)).toFixed(2)}`);
      }
      return svg('polygon', { class: cls, points: pts.join(' '), ...extra });
    }
  }
}

// A star on a safe square: a group with its label (role img, aria-label and a <title>), a
// five-pointed star drawn as a polygon.
function safeMark(cell, cls, label) {
  const cx = cell.col * U + U / 2;
  const cy = cell.row * U + U / 2;
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (Math.PI / 5) * k;
    const r = k % 2 === 0 ? U * 0.42 : U * 0.17;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  const g = svg('g', { class: cls, role: 'img', 'aria-label': label });
  g.appendChild(svg('title', null, label));
  g.appendChild(svg('polygon', { class: 'star', points: pts.join(' ') }));
  return g;
}

// A small legend mark (the player list, the buttons).
export function colourMark(colour) {
  const el = svg('svg', { class: 'mark', viewBox: '0 0 10 10', 'aria-hidden': 'true' });
  el.appendChild(shape(colour, 5, 5, 4));
  return el;
}

// `choose(option)` is called when a movable piece is tapped. `marks` ({ seat, options }): a
// decision's options marked on the board without being choices (the replay's analysis).
export function ludoBoard(view, choose, marks = null) {
  const arm = view.options.arm || 8;
  const g = geometry(arm);
  const size = g.size;
  const root = svg('svg', { class: 'ludo', viewBox: `0 0 ${size * U} ${size * U}`, role: 'group', 'aria-label': t('Ludo board, arms of {arm}', { arm }) });
  const seats = view.playSeats.filter((s) => s < view.ludoProgress.length);
  // Where every piece stands, for a screen reader: "Ann (green): piece 1: the start circle; ...".
  root.setAttribute('aria-description', seats.map((seat) => t('{name} ({colour}): {pieces}', {
    name: view.seatName(seat), colour: colourName(view.ludoColour(seat)),
    pieces: view.ludoProgress[seat].map((p, piece) => t('piece {piece}: {place}', { piece: piece + 1, place: ludoPlace(p, g) })).join(', '),
  })).join('; '));
  const colourSeat = new Map(seats.map((s) => [view.ludoColour(s), s]));
  const rect = (cell, cls) => svg('rect', { class: cls, x: cell.col * U, y: cell.row * U, width: U, height: U });

  // Yards.
  for (let c = 0; c < 4; c++) {
    const corner = g.yardCorner(c);
    const seat = colourSeat.get(c);
    const playing = seat !== undefined;
    const current = playing && seat === view.currentSeat;
    root.appendChild(svg('rect', { class: ['yard', `y-${COLOURS[c]}`, !playing && 'unused', current && 'turn'],
      x: corner.col * U + 1, y: corner.row * U + 1, width: arm * U - 2, height: arm * U - 2, rx: 4 }));
    if (playing) {
      const label = `${current ? '▶ ' : ''}${t('{colour}: {name}', { colour: colourName(c), name: view.seatName(seat) })}`;
      root.appendChild(svg('text', { class: 'yard-label', x: corner.col * U + (arm * U) / 2, y: corner.row * U + 9, 'text-anchor': 'middle' },
        label.length > 22 ? label.slice(0, 21) + '…' : label));
    }
  }
  // The circuit, the start squares, the home columns.
  for (const cell of g.circuit) root.appendChild(rect(cell, 'cell'));
  const safe = Boolean(view.options.safe_squares);
  for (let c = 0; c < 4; c++) {
    root.appendChild(rect(g.circuit[g.startSquare(c)], ['cell', 'start', `s-${COLOURS[c]}`]));
    const st = g.circuit[g.startSquare(c)];
    if (safe) root.appendChild(safeMark(st, ['start-mark', 'safe-star'], t('safe square: the start square of {colour}', { colour: colourName(c) })));
    else root.appendChild(svg('text', { class: 'start-mark', x: st.col * U + U / 2, y: st.row * U + U * 0.72, 'text-anchor': 'middle', 'aria-hidden': 'true' }, '★'));
    for (const cell of g.homeColumn(c)) root.appendChild(rect(cell, ['cell', 'column', `s-${COLOURS[c]}`]));
  }
  // The house rule safe_squares: a star on each arm's safe square (the start squares carry theirs),
  // as a shape with its own words for a screen reader and a tooltip, not a colour.
  if (safe) {
    for (let c = 0; c < 4; c++) {
      const cell = g.circuit[g.starSquare(c)];
      root.appendChild(rect(cell, ['cell', 'safe']));
      root.appendChild(safeMark(cell, ['star-mark', 'safe-star'], t('safe square: a star, no capture here')));
    }
  }
  // Home: four triangles meeting in the middle.
  const n = arm;
  const mid = (n + 1.5) * U;
  const corners = [[n, n], [n, n + 3], [n + 3, n + 3], [n + 3, n]].map(([r, c]) => [c * U, r * U]);
  // green (left): top-left, bottom-left; yellow (top): top-left, top-right; red (right); blue (bottom).
  const tri = [[corners[0], corners[3]], [corners[0], corners[1]], [corners[1], corners[2]], [corners[3], corners[2]]];
  for (let c = 0; c < 4; c++) {
    const [a, b] = tri[c];
    root.appendChild(svg('polygon', { class: ['home', `s-${COLOURS[c]}`], points: `${a[0]},${a[1]} ${b[0]},${b[1]} ${mid},${mid}` }));
  }

  // The decision: which of my pieces can move (by their progress), where each option leads.
  const pending = view.pending && !view.pending.chosen && view.ludoColour(view.pending.decision.seat) >= 0 ? view.pending : null;
  const myColour = pending ? view.ludoColour(pending.decision.seat) : -1;
  const marked = pending ? { colour: myColour, options: pending.decision.options }
    : marks && view.ludoColour(marks.seat) >= 0 ? { colour: view.ludoColour(marks.seat), options: marks.options } : null;
  if (marked) {
    marked.options.forEach((o) => {
      const cell = g.cellOf(marked.colour, o.to);
      if (!cell) return;
      root.appendChild(svg('rect', { class: 'target', x: cell.col * U + 0.8, y: cell.row * U + 0.8, width: U - 1.6, height: U - 1.6, rx: 1.5 }));
    });
  }
  // The options' numbers, drawn over the pieces (a capture's target holds a piece): in the
  // square's corner, or in its middle when it is empty.
  const targetNumbers = () => {
    if (!marked) return;
    marked.options.forEach((o, i) => {
      const cell = g.cellOf(marked.colour, o.to);
      if (!cell) return;
      const taken = groups.has(`${cell.row},${cell.col}`);
      root.appendChild(svg('text', { class: ['target-num', taken && 'corner'], x: cell.col * U + (taken ? 1.9 : U / 2),
        y: cell.row * U + (taken ? 3.9 : U * 0.7), 'text-anchor': 'middle' }, String(i + 1)));
    });
  };

  // The pieces, grouped by cell.
  const groups = new Map();
  const place = (key, x, y, item) => {
    if (!groups.has(key)) groups.set(key, { x, y, items: [] });
    groups.get(key).items.push(item);
  };
  for (const seat of seats) {
    const colour = view.ludoColour(seat);
    const progress = view.ludoProgress[seat];
    progress.forEach((p, piece) => {
      if (p === YARD) {
        const corner = g.yardCorner(colour);
        const slotX = corner.col * U + (arm * U) / 2 + (piece % 2 === 0 ? -1 : 1) * U * 0.9;
        const slotY = corner.row * U + (arm * U) / 2 + 2 + (piece < 2 ? -1 : 1) * U * 0.9;
        place(`y${colour}-${piece}`, slotX, slotY, { seat, colour, piece, p });
        return;
      }
      const cell = g.cellOf(colour, p);
      place(`${cell.row},${cell.col}`, cell.col * U + U / 2, cell.row * U + U / 2, { seat, colour, piece, p });
    });
  }
  const last = view.lastMoves[0];
  for (const { x, y, items } of groups.values()) {
    const offsets = items.length === 1 ? [[0, 0]] : [[-2.3, -2.3], [2.3, -2.3], [-2.3, 2.3], [2.3, 2.3]];
    const r = items.length === 1 ? 3.9 : 2.5;
    // Pieces of one colour on one square are one choice: the last of them (drawn on top) takes
    // the tap for the whole square, so that no piece's target covers another's.
    const optionOf = (it) => (pending && it.colour === myColour ? pending.decision.options.findIndex((o) => o.from === it.p) : -1);
    let tapped = -1;
    items.forEach((it, k) => {
      if (optionOf(it) >= 0) tapped = k;
    });
    items.forEach((it, k) => {
      const [dx, dy] = offsets[k % 4];
      const cx = x + dx;
      const cy = y + dy;
      const option = k === tapped ? optionOf(it) : -1;
      const moved = last && last.seat === it.seat && last.piece === it.piece && last.to === it.p;
      const grp = svg('g', { class: ['piece', option >= 0 && 'movable', moved && 'moved'] });
      if (option >= 0) {
        const o = pending.decision.options[option];
        grp.setAttribute('role', 'button');
        grp.setAttribute('tabindex', '0');
        grp.dataset.fk = `lp-${it.piece}`;
        grp.setAttribute('aria-label', t('Option {key}: {sentence}', { key: option + 1, sentence: ludoOptionSentence(view, o, g, myColour) }));
        const go = (e) => {
          e.preventDefault();
          choose(o);
        };
        grp.addEventListener('click', go);
        grp.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') go(e);
        });
        grp.appendChild(svg('circle', { class: 'hit-area', cx: x, cy: y, r: 4.9 }));
      } else {
        grp.setAttribute('aria-label', t('{colour} piece {piece}: {place}', { colour: colourName(it.colour), piece: it.piece + 1, place: ludoPlace(it.p, g) }));
        grp.setAttribute('role', 'img');
      }
      grp.appendChild(shape(it.colour, cx, cy, r));
      grp.appendChild(svg('text', { class: ['pn', `pn-${COLOURS[it.colour]}`], x: cx, y: cy + r * 0.42, 'text-anchor': 'middle', 'font-size': r * 1.25 }, String(it.piece + 1)));
      root.appendChild(grp);
    });
  }
  targetNumbers();
  return root;
}

// Where a piece is, short (a button's face): the yard, a square number, home.
export function describe(progress, g) {
  if (progress === YARD || progress < 0) return t('start');
  if (progress === g.behindStart) return t('behind the start');
  if (progress >= g.home) return t('home');
  return String(progress);
}

// Whose pieces a piece of `colour` reaching `to` captures: the names of the other seats with a
// piece on that square of the circuit (none past the circuit, none of a partner under teams).
function capturedNames(view, colour, to, g) {
  const square = g.squareOf(colour, to);
  if (square < 0) return [];
  const mover = view.playSeats.find((s) => view.ludoColour(s) === colour);
  const names = [];
  for (const seat of view.playSeats) {
    const c = view.ludoColour(seat);
    if (c === colour || c < 0 || !view.ludoProgress[seat] || (view.partnerOf && seat === view.partnerOf(mover))) continue;
    const hit = view.ludoProgress[seat].some((p) => g.squareOf(c, p) === square);
    if (hit && !names.includes(view.seatName(seat))) names.push(view.seatName(seat));
  }
  return names;
}

// A Ludo option as a sentence a screen reader says: "piece 2 from the start circle to square 5,
// captures Ben's piece".
export function ludoOptionSentence(view, o, g, colour) {
  const move = t('piece {piece} from {from} to {to}', { piece: o.piece + 1, from: ludoPlace(o.from, g), to: ludoPlace(o.to, g) });
  if (!o.captures) return move;
  const names = capturedNames(view, colour, o.to, g);
  if (names.length === 1) return t("{move}, captures {name}'s piece", { move, name: names[0] });
  return t('{move}, captures a piece', { move });
}
