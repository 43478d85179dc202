// The replay's words in the page's language (i18n.js): what each step did (the sentences the live
// story uses, where it has them), a decision's analysis (who chose what, the best choice, the
// cost in its unit and what that means) and a player's summary (the start, the choices' cost, the
// worst moment, luck, the finish). The units are docs/analysis.md's: `rounds` (Spook: expected
// rounds to finish), `points` (Ludo: percentage points of the chance to win) and `rank` (Ludo
// where no chance to win is known: the move's rank among the options, 1 the best).
import { t, tn } from './i18n.js';
import { characterName, characterAction, letterName } from './game_words.js';
import { describe } from './ludo.js';
import { ludoEventText } from './ludo_story.js';
import { geometry } from './ludo_geo.js';
import { CHARACTER_OF_FACE, spookMoves, ludoMoves } from './replay_data.js';

// A number with one decimal ("1.4"); a cost or luck is never shown as "-0.0".
export const one = (x) => {
  const v = Math.abs(Number(x)) < 0.05 ? 0 : Number(x);
  return Number.isFinite(v) ? v.toFixed(1) : '?';
};

// "1st", "2nd", "11th" (each language words its own: Malay "ke-1"); the terminal's words too.
export function ordinal(n) {
  if (n % 100 >= 11 && n % 100 <= 13) return t('{n}th', { n });
  if (n % 10 === 1) return t('{n}st', { n });
  if (n % 10 === 2) return t('{n}nd', { n });
  if (n % 10 === 3) return t('{n}rd', { n });
  return t('{n}th', { n });
}

// Where the replay stands, short: "Round 4", "Throw 57", "The start".
export function momentText(model, step) {
  if (!step) return '';
  if (step.kind === 'assignment' || step.kind === 'roll_off') return t('The start');
  if (model.game === 'spook') return t('Round {n}', { n: step.round ?? 0 });
  return t('Throw {n}', { n: step.turn ?? 0 });
}

// ---- What a step did -----------------------------------------------------------------------------

function spookMoveLine(view, m) {
  const args = { name: view.seatName(m.seat), piece: m.piece + 1, from: m.from, to: m.to };
  return m.to >= 40 ? t('{name} moves piece {piece} from square {from} into the church.', args)
    : t('{name} moves piece {piece} from square {from} to {to}.', args);
}

function activationLines(view, die, moved, finishedNow, woken) {
  const character = woken || CHARACTER_OF_FACE[die];
  if (!character) return [];
  const name = characterName(character);
  const lines = [t("The die shows {face}: it's the {character}! Any piece on a {character} {action}.", { face: die, character: name, action: characterAction(character) })];
  if (moved && !moved.length) lines.push(character === 'hat' ? t('Nobody stands on the {character}.', { character: name }) : t('Nobody stands on the {character}. Phew!', { character: name }));
  for (const m of moved || []) {
    lines.push(t("{name}'s piece {piece}: {from} → {to}", { name: view.seatName(m.seat), piece: m.piece + 1, from: m.from, to: m.to >= 40 ? letterName('+') : m.to }));
  }
  for (const seat of finishedNow) lines.push(t('{name} has reached the church!', { name: view.seatName(seat) }));
  return lines;
}

// Who finished at this step: a finished_round that the step before did not have.
function finishedAt(before, after) {
  const was = (before && before.finished_round) || [];
  return (after.players || []).filter((seat) => after.finished_round && after.finished_round[seat] && !was[seat]);
}

// A throw's lines, from the positions before and after it (the record keeps no events): the move,
// a capture, a piece home, and under the house rules a landing beside another side on a safe
// square, a piece going round again, a bonus throw (the same seat throws next, not after a 6) and
// the team's win at the end.
function ludoLines(model, view, before, step, next) {
  const o = model.options;
  const arm = o.arm || 8;
  const g = geometry(arm);
  const who = (seat) => t('{name} ({colour})', { name: view.seatName(seat), colour: view.ludoColourName(seat) });
  const lines = [t('{who} throws a {face}.', { who: who(step.seat), face: step.face ?? '?' })];
  const moves = ludoMoves(before, step.position, arm);
  const own = moves.filter((m) => m.seat === step.seat);
  const said = (e) => lines.push(ludoEventText(view, { seat: step.seat, ...e }, g, step.seat, -1));
  for (const m of own) {
    if (m.from < 0) lines.push(t('{who} brings piece {piece} out.', { who: who(m.seat), piece: m.piece + 1 }));
    else said({ kind: 'moved', piece: m.piece, from: m.from, to: m.to });
    if (m.from >= 0 && g.onCircuit(m.to) && g.onCircuit(m.from) && (m.to === g.behindStart || (m.from !== g.behindStart && m.to < m.from))) said({ kind: 'circles', piece: m.piece });
  }
  const mover = own[0];
  const captured = moves.filter((x) => x.seat !== step.seat && x.to < 0);
  for (const m of captured) {
    const args = { who: who(step.seat), name: view.seatName(m.seat), piece: m.piece + 1, colour: view.ludoColourName(m.seat), square: mover ? mover.to : '?' };
    lines.push(mover ? t("{who} captures {name}'s piece {piece} ({colour}) on {square}: it goes back to the yard.", args)
      : t("{who} captures {name}'s piece {piece} ({colour}): it goes back to the yard.", args));
  }
  const square = mover ? g.squareOf(view.ludoColour(step.seat), mover.to) : -1;
  if (o.safe_squares && g.isSafeSquare(square) && !captured.length) {
    const beside = view.playSeats.find((s) => s !== step.seat && s !== view.partnerOf(step.seat)
      && (view.ludoProgress[s] || []).some((p) => g.squareOf(view.ludoColour(s), p) === square));
    if (beside !== undefined) said({ kind: 'safe_square', piece: mover.piece, with: beside });
  }
  const home = own.some((m) => m.to === g.home);
  if (!own.length) lines.push(t('{who} cannot move; play passes on.', { who: who(step.seat) }));
  else if (home) lines.push(t("{who}'s piece {piece} is home.", { who: who(step.seat), piece: own[0].piece + 1 }));
  if (o.bonus_throws && step.face !== 6 && next && next.kind === 'throw' && next.seat === step.seat && (captured.length || home)) {
    said({ kind: 'extra_throw', reason: captured.length ? 'capture' : 'home' });
  }
  if (!next && o.teams && model.status === 'finished' && model.winners.length === 2) {
    said({ kind: 'team_finished', seat: model.winners[0], with: model.winners[1] });
  }
  return lines;
}

// The sentences of step `at` of `model`, drawn in `view` (the View of that step).
export function stepLines(model, at, view) {
  const step = model.steps[at];
  const before = at > 0 ? model.steps[at - 1].position : null;
  if (!step) return [];
  switch (step.kind) {
    case 'assignment': return [t('The boards are dealt: every player races on a board of their own.')];
    case 'roll_off': return [t('{who} starts.', { who: t('{name} ({colour})', { name: view.seatName(step.seat), colour: view.ludoColourName(step.seat) }) })];
    case 'movement': {
      const lines = [tn('Round {round}: the die shows {n}. Everyone moves one piece {n} square.', 'Round {round}: the die shows {n}. Everyone moves one piece {n} squares.', step.face ?? 0, { round: step.round })];
      return lines.concat(spookMoves(before, step.position).map((m) => spookMoveLine(view, m)));
    }
    case 'activation': return activationLines(view, step.face, spookMoves(before, step.position), finishedAt(before, step.position), step.character);
    case 'round': {
      // From the record alone: the round's two dice and where everyone stands after it.
      const lines = [tn('Round {round}: the die shows {n}. Everyone moves one piece {n} square.', 'Round {round}: the die shows {n}. Everyone moves one piece {n} squares.', step.face ?? 0, { round: step.round })];
      return lines.concat(activationLines(view, step.activation, null, finishedAt(before, step.position)));
    }
    case 'throw': return ludoLines(model, view, before, step, model.steps[at + 1]);
    default: return [];
  }
}

// ---- A decision ----------------------------------------------------------------------------------

function squareOf(model, progress) {
  if (model.game === 'spook') return progress >= 40 ? t('church') : String(progress);
  return describe(progress, geometry(model.options.arm || 8));
}

export function moveWords(model, m) {
  return t('Piece {piece}: {from} → {to}', { piece: (m.piece ?? 0) + 1, from: squareOf(model, m.from), to: squareOf(model, m.to) });
}

const same = (a, b) => a && b && a.piece === b.piece && a.from === b.from && a.to === b.to;

// Whether a decision's choice was the best one (no cost, or rank 1).
export function wasBest(d) {
  if (d.unit === 'rank') return (d.rank ?? 1) <= 1;
  return Math.abs(Number(d.cost) || 0) < 0.05 || same(d.chosen, d.best);
}

// The lines of a decision's analysis: [who chose what, the best choice, the cost, what it means].
export function decisionLines(model, d, name) {
  const c = d.chosen || {};
  const lines = [t('{name} chose piece {piece}: {from} → {to}.', { name, piece: (c.piece ?? 0) + 1, from: squareOf(model, c.from), to: squareOf(model, c.to) })];
  if (d.by === 'timeout') lines.push(t('Time ran out: the server chose the best move for them.'));
  else if (d.by === 'away') lines.push(t('They were away: the server played it.'));
  const of = d.of ?? (d.options || []).length;
  if (d.counted === false) lines.push(t('This step was never played out: the choice counts in no sum.'));
  if (wasBest(d)) {
    lines.push(d.unit === 'rank' ? t('The best of {of} moves, as the best bot sees them.', { of }) : t('The best choice: no cost.'));
    return { lines, cost: '', meaning: '' };
  }
  const b = d.best || {};
  lines.push(t('The best: piece {piece}: {from} → {to}.', { piece: (b.piece ?? 0) + 1, from: squareOf(model, b.from), to: squareOf(model, b.to) }));
  const cost = one(d.cost);
  if (d.unit === 'rounds') {
    return { lines, cost: t('Cost: {cost} rounds.', { cost }),
      meaning: t('On average this choice brings the finish {cost} rounds later than the best one would.', { cost }) };
  }
  if (d.unit === 'points') {
    return { lines, cost: t('Cost: {cost} percentage points less chance to win.', { cost }),
      meaning: t('With the best move the chance to win would have been {cost} percentage points higher.', { cost }) };
  }
  return { lines, cost: t('The {rank} best of {of} moves.', { rank: ordinal(d.rank ?? 2), of }),
    meaning: t('No chance to win is known for this game, so the moves are ranked by the best bot\'s own evaluation: 1 is the move it would make.') };
}

// An option's value in its unit: "29.8 rounds", "31 % chance to win", "rank 2".
export function optionValue(d, o) {
  if (o.value === undefined || o.value === null) return o.rank ? t('rank {rank}', { rank: o.rank }) : '';
  if (d.unit === 'rounds') return t('{rounds} rounds', { rounds: one(o.value) });
  // xgettext:no-javascript-format
  if (d.unit === 'points') return t('{percent} % chance to win', { percent: one(o.value) });
  return t('rank {rank}', { rank: o.rank ?? '?' });
}

// ---- A player's summary --------------------------------------------------------------------------

export function startText(s) {
  const start = s.start || {};
  if (start.expected_rounds !== undefined) return t('At the start: {rounds} rounds expected to finish.', { rounds: one(start.expected_rounds) });
  // xgettext:no-javascript-format
  if (start.win_chance !== undefined) return t('At the start: {percent} % chance to win.', { percent: one(start.win_chance * 100) });
  return '';
}

export function costText(s, best) {
  const n = s.decisions || 0;
  if (!n) return t('No real choice to make.');
  const cost = one(s.cost);
  if (s.unit === 'rounds') return tn('{n} choice, costing {cost} rounds in all.', '{n} choices, costing {cost} rounds in all.', n, { cost });
  if (s.unit === 'points') return tn('{n} choice, costing {cost} percentage points in all.', '{n} choices, costing {cost} percentage points in all.', n, { cost });
  return tn('{n} choice, {best} of them the best.', '{n} choices, {best} of them the best.', n, { best });
}

export function worstText(model, s) {
  const w = s.worst;
  if (!w) return '';
  const step = model.steps[w.step] || {};
  const cost = one(w.cost);
  if (model.game === 'spook') return t('Costliest choice: round {round} ({cost} rounds)', { round: w.round ?? step.round ?? '?', cost });
  const turn = w.turn ?? step.turn ?? '?';
  if (s.unit === 'points') return t('Costliest choice: throw {turn} ({cost} percentage points)', { turn, cost });
  return t('Weakest choice: throw {turn}', { turn });
}

// Luck (docs/analysis.md): how the dice went against expectation, in the summary's unit; a
// positive value is a gain (fewer rounds than expected, more chance to win).
export function luckText(s, name) {
  if (s.luck === undefined || s.luck === null || s.unit === 'rank') return '';
  const v = Number(s.luck);
  const amount = one(Math.abs(v));
  if (amount === '0.0') return t('Luck: the dice went as expected for {name}.', { name });
  if (s.unit === 'rounds') {
    return v > 0 ? t('Luck: the dice gave {name} {rounds} rounds against expectation.', { name, rounds: amount })
      : t('Luck: the dice cost {name} {rounds} rounds against expectation.', { name, rounds: amount });
  }
  return v > 0 ? t('Luck: the dice gave {name} {points} percentage points of chance to win.', { name, points: amount })
    : t('Luck: the dice cost {name} {points} percentage points of chance to win.', { name, points: amount });
}

// How a player's game ended: the round they finished in (Spook), else the round they were
// expected to finish in; their place.
export function finishText(model, s, seat) {
  const f = s.finish || {};
  const place = f.place || model.places[seat];
  if (f.round) return place ? t('Finished in round {round}, {place}.', { round: f.round, place: ordinal(place) }) : t('Finished in round {round}.', { round: f.round });
  if (f.turn) return place ? t('Finished at throw {turn}, {place}.', { turn: f.turn, place: ordinal(place) }) : t('Finished at throw {turn}.', { turn: f.turn });
  if (f.expected_round) {
    return place ? t('Did not reach the church ({place}); expected to finish in round {round}.', { place: ordinal(place), round: one(f.expected_round) })
      : t('Did not reach the church; expected to finish in round {round}.', { round: one(f.expected_round) });
  }
  if ('turn' in f || 'round' in f) return place ? t('Did not finish ({place}).', { place: ordinal(place) }) : t('Did not finish.');
  if (place) return t('Finished {place}.', { place: ordinal(place) });
  return t('Did not finish.');
}

// How the die fell for a Ludo player: their sixes against the expected, the mean face.
export function diceText(s) {
  const d = s.dice;
  if (!d || !d.throws) return '';
  return tn('The dice: {sixes} sixes in {n} throw ({expected} expected), {mean} on average.', 'The dice: {sixes} sixes in {n} throws ({expected} expected), {mean} on average.',
    d.throws, { sixes: d.sixes, expected: one(d.expected_sixes), mean: one(d.mean_face) });
}
