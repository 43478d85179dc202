// The replay's timeline (web/js/replay_data.js) and its words (replay_words.js), without a
// browser: from a game's record alone (sim records in fixtures/) the steps end in the record's
// final positions, Ludo's throwers follow the roll-off and the record's turn marks; from an
// analysis of the documented shape (fixtures/analysis-*.json, docs/analysis.md) the decisions sit
// at their steps, worded with their cost in their unit; stepping by round or turn lands on the
// first step of the next or the previous one.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, copyFileSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixture = (name) => JSON.parse(readFileSync(join(here, 'fixtures', name), 'utf8'));

let data;
let words;
before(async () => {
  // web/js holds ES modules for the browser; node reads them as such from a folder that says so.
  const dir = mkdtempSync(join(tmpdir(), 'spookludo-replay-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const f of readdirSync(join(root, 'web', 'js'))) if (f.endsWith('.js')) copyFileSync(join(root, 'web', 'js', f), join(dir, f));
  // The little of a browser that the modules touch when loaded (i18n.js's language, dom.js's
  // helpers are only called when drawing).
  globalThis.location ??= new URL('http://localhost/replay/x');
  globalThis.history ??= { state: null, replaceState() {} };
  globalThis.document ??= { documentElement: {}, getElementById: () => null };
  const store = new Map();
  globalThis.localStorage ??= { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
  data = await import(pathToFileURL(join(dir, 'replay_data.js')).href);
  words = await import(pathToFileURL(join(dir, 'replay_words.js')).href);
});

test('a Spook record alone replays from the start to its final positions, a step a round, the winner done in the last round', () => {
  const record = fixture('record-spook.json');
  const model = data.fromRecord(record);
  assert.equal(model.game, 'spook');
  assert.equal(model.source, 'record');
  assert.equal(model.steps.length, record.positions.length + 1);
  assert.deepEqual(model.steps[0].position.positions, [[1, 1], [1, 1]]);
  const last = model.steps.at(-1).position;
  assert.equal(last.positions.map((p) => p.join(',')).join(' '), record.positions.at(-1).position);
  const winner = model.winners[0];
  assert.equal(last.finished_round[winner], record.result.length);
  // Each round's dice are the record's draws.
  const movement = record.draws.filter((d) => d.purpose === 'movement');
  model.steps.slice(1).forEach((s, k) => assert.equal(s.face, movement[k].value + 1));
  assert.equal(last.boards[0], record.boards[record.assignment[0]]);
});

test('a Ludo record alone replays every throw: the roll-off winner throws first, each next thrower is the record\'s marked seat', () => {
  const record = fixture('record-ludo.json');
  const model = data.fromRecord(record);
  const rollOff = record.draws.filter((d) => d.purpose === 'roll_off').map((d) => d.value + 1);
  assert.equal(model.steps[0].kind, 'roll_off');
  assert.equal(model.steps[0].seat, rollOff[0] > rollOff[1] ? 0 : 1);
  assert.equal(model.steps.length, record.positions.length + 1);
  for (let i = 2; i < model.steps.length; i++) {
    const marked = record.positions[i - 2].position.split(' ').findIndex((e) => e.split(':')[0].endsWith('*'));
    assert.equal(model.steps[i].seat, marked, `the thrower of throw ${i}`);
  }
  assert.equal(model.steps.at(-1).position.position, record.positions.at(-1).position);
});

test('an analysis puts its decisions at their steps, names by room seat, and keeps the moment when it replaces the record\'s steps', () => {
  const analysis = fixture('analysis-spook.json');
  const base = { ...data.fromRecord({ options: analysis.options, seats: [{ seat: 0, name: 'Ann', room_seat: 0 }, { seat: 1, name: 'best bot 1', room_seat: 2 }], result: { status: 'finished', winners: [0], places: [1, 2], length: 3 } }) };
  const model = data.fromAnalysis(analysis, base);
  assert.equal(model.source, 'analysis');
  assert.deepEqual(model.players, [0, 2]);
  assert.equal(model.names[2], 'best bot 1');
  assert.deepEqual(model.steps[3].decisions.map((d) => d.index), [0, 1]);
  assert.equal(model.steps[3].decisions[0].cost, 1.4);
  // Stepping by round: the first step of the next round, back to the first of this one, then the one before.
  assert.equal(data.stepByGroup(model.steps, 'spook', 1, 1), 3);
  assert.equal(data.stepByGroup(model.steps, 'spook', 4, -1), 3);
  assert.equal(data.stepByGroup(model.steps, 'spook', 3, -1), 1);
  assert.equal(data.stepByGroup(model.steps, 'spook', 6, 1), 6);
  // What moved at a step.
  assert.deepEqual(data.spookMoves(model.steps[4].position, model.steps[5].position),
    [{ seat: 0, piece: 0, from: 9, to: 40 }, { seat: 0, piece: 1, from: 1, to: 40 }, { seat: 2, piece: 0, from: 8, to: 14 }]);
  // Round 2 of the record's steps (one a round) is the analysis's round 2, its first step.
  const coarse = [{ round: 0 }, { round: 1 }, { round: 2 }, { round: 3 }];
  assert.equal(data.sameMoment(coarse, 2, model.steps, 'spook'), 3);
  assert.equal(data.sameMoment(coarse, 3, model.steps, 'spook'), model.steps.length - 1);
});

test('a decision is worded with its cost in rounds, percentage points or rank, and the best choice says it cost nothing', () => {
  const spook = data.fromAnalysis(fixture('analysis-spook.json'), data.fromRecord({ options: { game: 'spook' }, seats: [], result: {} }));
  const costly = words.decisionLines(spook, spook.decisions[0], 'Ann');
  assert.equal(costly.lines[0], 'Ann chose piece 1: 5 → 9.');
  assert.equal(costly.lines[1], 'The best: piece 2: 1 → 5.');
  assert.equal(costly.cost, 'Cost: 1.4 rounds.');
  assert.match(costly.meaning, /1\.4 rounds later than the best one/);
  const best = words.decisionLines(spook, spook.decisions[1], 'best bot 1');
  assert.equal(best.cost, '');
  assert.match(best.lines.at(-1), /The best choice: no cost\./);
  assert.match(words.decisionLines(spook, spook.decisions[2], 'best bot 1').lines[1], /Time ran out/);
  const ludo = data.fromAnalysis(fixture('analysis-ludo.json'), data.fromRecord({ options: { game: 'ludo' }, seats: [], result: {} }));
  const points = words.decisionLines(ludo, ludo.decisions[0], 'Ben');
  assert.equal(points.lines[0], 'Ben chose piece 2: start → 5.');
  assert.equal(points.cost, 'Cost: 3.0 percentage points less chance to win.');
  assert.equal(words.optionValue(ludo.decisions[0], ludo.decisions[0].options[0]), '58.0 % chance to win');
  const ranked = words.decisionLines(ludo, { ...ludo.decisions[0], unit: 'rank', rank: 2, of: 3 }, 'Ben');
  assert.equal(ranked.cost, 'The 2nd best of 3 moves.');
  // The summary: the start, the cost in all, the worst moment, luck both ways, the finish.
  const [ann, bot] = spook.summary;
  assert.equal(words.startText(ann), 'At the start: 31.2 rounds expected to finish.');
  assert.equal(words.costText(ann, 0), '1 choice, costing 1.4 rounds in all.');
  assert.equal(words.worstText(spook, ann), 'Costliest choice: round 2 (1.4 rounds)');
  assert.equal(words.luckText(ann, 'Ann'), 'Luck: the dice gave Ann 2.5 rounds against expectation.');
  assert.equal(words.luckText(bot, 'best bot 1'), 'Luck: the dice cost best bot 1 3.2 rounds against expectation.');
  assert.equal(words.finishText(spook, bot, 2), 'Finished 2nd.');
  assert.equal(words.finishText(spook, { finish: { round: null, expected_round: 17.66, place: 2 } }, 2), 'Did not reach the church (2nd); expected to finish in round 17.7.');
  assert.equal(words.startText(ludo.summary[0]), 'At the start: 50.0 % chance to win.');
  assert.equal(words.worstText(ludo, ludo.summary[0]), 'Costliest choice: throw 5 (3.0 percentage points)');
});
