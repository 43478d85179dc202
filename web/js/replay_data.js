// The timeline of a game's replay (screen_replay.js), without the DOM: the steps of a finished or
// abandoned game in order, each with the position after it in the live snapshot's `game` shape
// (PROTOCOL.md, `room`), so that the page's live drawing (view.js, spook.js, ludo.js) draws it.
// From the analysis (GET /analysis/<game id>, docs/analysis.md): every roll, throw and activation,
// the decisions with their cost and each player's summary. Without it (still being computed,
// refused for now, or a server without it), from the game's record (GET /games/<game id>,
// docs/game-record.md): the start, then one step per round (Spook) or throw (Ludo), with no
// analysis. Every seat number here is a room seat, as in the live game's messages.
import { YARD, COLOURS, colourOfPlayer, parsePosition } from './ludo_geo.js';

// The Spook character a face of the activation die wakes (docs/rules.md): 1-2 the Hat, 3 the
// Cat, 4 the Spook, 5 the Werewolf, 6 the Witch.
export const CHARACTER_OF_FACE = [null, 'hat', 'hat', 'cat', 'spook', 'werewolf', 'witch'];

const face = (draw) => (draw && Number.isInteger(draw.value) ? draw.value + 1 : null);
const byRoom = (length, fill) => Array.from({ length }, () => (typeof fill === 'function' ? fill() : fill));

// A replay's model from a game's record: { game, status, options, players (room seats in play
// order), names (by room seat), winners, places (by room seat), length, table, steps, decisions
// ([]), summary (null), source: 'record' }. A step: { kind, round, turn, seat, face, activation
// (Spook's fallback: the activation die), position, decisions ([]) }.
export function fromRecord(record) {
  const options = record.options || {};
  const seats = Array.isArray(record.seats) ? record.seats : [];
  const players = seats.map((s) => (Number.isInteger(s.room_seat) ? s.room_seat : s.seat));
  const length = Math.max(0, ...players.map((s) => s + 1));
  const names = byRoom(length, '');
  seats.forEach((s, i) => { names[players[i]] = String(s.name ?? ''); });
  const result = record.result || {};
  const places = byRoom(length, 0);
  (result.places || []).forEach((place, i) => { if (i < players.length) places[players[i]] = place; });
  const model = {
    game: options.game === 'ludo' ? 'ludo' : 'spook',
    status: result.status || 'abandoned',
    options,
    players,
    names,
    winners: (result.winners || []).map((w) => players[w]).filter((s) => s !== undefined),
    places,
    length: result.length || 0,
    table: Boolean(options.table),
    steps: [],
    decisions: [],
    summary: null,
    source: 'record',
  };
  if (model.table) return model; // a table game: the server never saw the coins
  const draws = Array.isArray(record.draws) ? record.draws : [];
  const positions = Array.isArray(record.positions) ? record.positions : [];
  if (model.game === 'spook') spookFromRecord(model, record, draws, positions, length);
  else ludoFromRecord(model, draws, positions);
  return model;
}

function spookFromRecord(model, record, draws, positions, length) {
  const pieces = model.options.pieces || 2;
  const need = pieces === 3 ? 2 : pieces;
  const boards = byRoom(length, '');
  model.players.forEach((seat, i) => { boards[seat] = (record.boards || [])[(record.assignment || [])[i]] || ''; });
  const movement = draws.filter((d) => d.purpose === 'movement');
  const activation = draws.filter((d) => d.purpose === 'activation');
  const finished = byRoom(length, null);
  const at = byRoom(length, () => []);
  for (const seat of model.players) at[seat] = Array(pieces).fill(1);
  const position = (round, roll) => ({ players: model.players.slice(), round, phase: 'done', ...(roll ? { roll } : {}), boards: boards.slice(),
    positions: at.map((p) => p.slice()), finished_round: finished.slice() });
  model.steps.push({ kind: 'assignment', round: 0, turn: null, seat: null, face: null, activation: null, position: position(0, null), decisions: [] });
  for (const entry of positions) {
    const round = Number(entry.step);
    const bySeat = String(entry.position || '').trim().split(/\s+/);
    model.players.forEach((seat, i) => {
      const squares = (bySeat[i] || '').split(',').map(Number).filter((n) => Number.isFinite(n));
      if (squares.length) at[seat] = squares;
      if (finished[seat] === null && at[seat].filter((s) => s >= 40).length >= need) finished[seat] = round;
    });
    const roll = face(movement[round - 1]);
    model.steps.push({ kind: 'round', round, turn: null, seat: null, face: roll, activation: face(activation[round - 1]),
      position: position(round, roll), decisions: [] });
  }
}

// The seat that starts a Ludo game, from the roll-off's throws: everyone throws in play order,
// the highest starts, those tied for it throw again.
export function rollOffStarter(players, draws) {
  const throws = draws.filter((d) => d.purpose === 'roll_off');
  let contenders = players.slice();
  let next = 0;
  while (contenders.length > 1 && next + contenders.length <= throws.length) {
    const faces = contenders.map(() => face(throws[next++]));
    const best = Math.max(...faces);
    contenders = contenders.filter((_, k) => faces[k] === best);
  }
  return contenders[0] ?? -1;
}

function ludoFromRecord(model, draws, positions) {
  const n = model.players.length;
  const starred = (text) => {
    const entries = String(text || '').trim().split(/\s+/);
    const k = entries.findIndex((e) => e.split(':')[0].endsWith('*'));
    return k >= 0 ? model.players[k] ?? -1 : -1;
  };
  const start = model.players.map((_, i) => `${COLOURS[colourOfPlayer(n, i)]}:Y,Y,Y,Y`).join(' ');
  const starter = rollOffStarter(model.players, draws);
  const throws = draws.filter((d) => d.purpose === 'throw');
  const position = (text, current, turn, die) => ({ players: model.players.slice(), position: text, phase: 'awaiting_throw',
    current_seat: current, turn, ...(die ? { face: die } : {}) });
  model.steps.push({ kind: 'roll_off', round: null, turn: 0, seat: starter, face: null, activation: null, position: position(start, starter, 0, null), decisions: [] });
  let thrower = starter;
  for (const entry of positions) {
    const turn = Number(entry.step);
    const die = face(throws[turn - 1]);
    const next = starred(entry.position);
    model.steps.push({ kind: 'throw', round: null, turn, seat: thrower, face: die, activation: null,
      position: position(String(entry.position || ''), next, turn, die), decisions: [] });
    if (next >= 0) thrower = next;
  }
}

// A replay's model from the analysis (its keys as docs/analysis.md gives them), the record's
// model `base` (names, places) filling in what it leaves out. A decision keeps its index (`index`).
export function fromAnalysis(analysis, base) {
  const decisions = (Array.isArray(analysis.decisions) ? analysis.decisions : []).map((d, index) => ({ ...d, index }));
  const players = Array.isArray(analysis.players) ? analysis.players : base.players;
  const names = base.names.slice();
  const listed = Array.isArray(analysis.names) ? analysis.names : [];
  // Names by room seat (a list as long as the seats), or else by play order.
  const bySeat = listed.length > Math.max(-1, ...players) || listed.length !== players.length;
  players.forEach((seat, i) => {
    const name = bySeat ? listed[seat] : listed[i];
    if (typeof name === 'string' && name) names[seat] = name;
  });
  const steps = (Array.isArray(analysis.steps) ? analysis.steps : []).map((s) => ({
    kind: s.kind, round: s.round ?? null, turn: s.turn ?? null, seat: s.seat ?? null, face: s.face ?? null, activation: null,
    character: s.character || null, partial: Boolean(s.partial),
    position: s.position || {}, decisions: (s.decisions || []).map((k) => decisions[k]).filter(Boolean),
  }));
  return {
    ...base,
    game: analysis.game === 'ludo' ? 'ludo' : analysis.game === 'spook' ? 'spook' : base.game,
    status: analysis.status || base.status,
    options: analysis.options || base.options,
    players,
    names,
    winners: Array.isArray(analysis.winners) ? analysis.winners : base.winners,
    steps: steps.length ? steps : base.steps,
    decisions,
    summary: Array.isArray(analysis.summary) ? analysis.summary : null,
    source: 'analysis',
  };
}

// The step of `steps` to show in place of step `at` of `old` (another model of the same game):
// the first one of the same round (Spook) or throw (Ludo), else the nearest before it.
export function sameMoment(old, at, steps, game) {
  const step = old[at];
  if (!step) return 0;
  const key = (s) => (game === 'spook' ? s.round : s.turn);
  if (at === old.length - 1) return steps.length - 1;
  let best = 0;
  for (let i = 0; i < steps.length; i++) {
    const k = key(steps[i]);
    if (k === key(step)) return i;
    if (k !== null && k <= key(step)) best = i;
  }
  return best;
}

// The first step of each group (a Spook round, a Ludo turn: one player's throws in a row), by step.
export function groups(steps, game) {
  const out = [];
  let group = -1;
  steps.forEach((s, i) => {
    const prev = steps[i - 1];
    const fresh = !prev || (game === 'spook' ? s.round !== prev.round : s.seat !== prev.seat || s.kind !== prev.kind || prev.kind === 'roll_off');
    if (fresh) group++;
    out.push(group);
  });
  return out;
}

// Where "by round" (Spook) or "by turn" (Ludo) goes from step `at`: forward, the first step of
// the next group (the last step at the end); back, the first step of this group, or of the one
// before when `at` is its first.
export function stepByGroup(steps, game, at, dir) {
  const g = groups(steps, game);
  if (dir > 0) {
    for (let i = at + 1; i < steps.length; i++) if (g[i] !== g[at]) return i;
    return steps.length - 1;
  }
  let first = at;
  while (first > 0 && g[first - 1] === g[at]) first--;
  if (first < at) return first;
  if (at === 0) return 0;
  let prev = at - 1;
  while (prev > 0 && g[prev - 1] === g[at - 1]) prev--;
  return prev;
}

// The pieces that changed square between two positions, Spook ([{ seat, piece, from, to }]).
export function spookMoves(before, after) {
  const out = [];
  for (const seat of after.players || []) {
    const was = (before && before.positions && before.positions[seat]) || [];
    (after.positions[seat] || []).forEach((to, piece) => {
      const from = was[piece];
      if (from !== undefined && from !== to) out.push({ seat, piece, from, to });
    });
  }
  return out;
}

// The same for Ludo: progress from the yard (YARD) to home, by the colours' order of play.
export function ludoMoves(before, after, arm) {
  const was = parsePosition(before && before.position, arm);
  const now = parsePosition(after.position, arm);
  const out = [];
  (after.players || []).forEach((seat, i) => {
    (now[i] || []).forEach((to, piece) => {
      const from = was[i] ? was[i][piece] : YARD;
      if (from !== to) out.push({ seat, piece, from, to });
    });
  });
  return out;
}

// A room snapshot (PROTOCOL.md `room`) holding a step's position, for view.js's View.onSnapshot.
export function snapshotOf(model, step) {
  return {
    type: 'room', room: '', state: 'playing', paused: false, options: model.options, host: -1,
    seats: model.players.map((seat) => ({ seat, name: model.names[seat] || '', bot: false })),
    game: step.position,
  };
}
