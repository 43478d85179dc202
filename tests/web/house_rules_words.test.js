// The Ludo house rules in the page's own modules, without a browser (node imports them): the safe
// squares and the square behind the start square on the board's geometry, the lobby's line of the
// rules and the teams, the story's lines for the house rules' events, the refusals' reasons, and a
// replay from the positions alone telling a safe square, a piece going round again, a bonus throw
// and the team's win.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, copyFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let geo;
let gw;
let story;
let words;
let replay;
let View;

before(async () => {
  // web/js holds ES modules for the browser; node reads them as such from a folder that says so.
  const dir = mkdtempSync(join(tmpdir(), 'spookludo-house-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const f of readdirSync(join(root, 'web', 'js'))) if (f.endsWith('.js')) copyFileSync(join(root, 'web', 'js', f), join(dir, f));
  globalThis.location ??= new URL('http://localhost/replay/x');
  globalThis.history ??= { state: null, replaceState() {} };
  globalThis.document ??= { documentElement: {}, getElementById: () => null };
  const store = new Map();
  globalThis.localStorage ??= { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
  const load = (f) => import(pathToFileURL(join(dir, f)).href);
  geo = await load('ludo_geo.js');
  gw = await load('game_words.js');
  story = await load('ludo_story.js');
  words = await load('words.js');
  replay = { data: await load('replay_data.js'), words: await load('replay_words.js') };
  View = (await load('view.js')).View;
});

test('the safe squares are the four start squares and the four stars, 8 on from each start on arms of 6', () => {
  const g = geo.geometry(6);
  assert.deepEqual([0, 1, 2, 3].map(g.starSquare), [8, 21, 34, 47]);
  const safe = [];
  for (let sq = 0; sq < g.circuitSquares; sq++) if (g.isSafeSquare(sq)) safe.push(sq);
  assert.deepEqual(safe, [0, 8, 13, 21, 26, 34, 39, 47]);
  assert.equal(geo.geometry(8).starSquare(0), 12);
});

test('a piece going round again stands on the square just behind its start square (B, 9n+3), not at home', () => {
  const g = geo.geometry(6);
  assert.equal(g.behindStart, 57);
  for (let c = 0; c < 4; c++) {
    assert.deepEqual(g.cellOf(c, g.behindStart), g.circuit[(g.startSquare(c) + g.circuitSquares - 1) % g.circuitSquares]);
    assert.equal(g.squareOf(c, g.behindStart), (g.startSquare(c) + 51) % 52);
  }
  assert.deepEqual(geo.parsePosition('green+*:B,Y,5,H red:1,Y,Y,Y', 6), [[57, -1, 5, 56], [1, -1, -1, -1]]);
  assert.deepEqual(geo.capturedIn('green+*:B,Y,5,H red:1,Y,Y,Y'), [true, false]);
  assert.equal(gw.ludoPlace(57, g), 'the square behind the start square');
  assert.equal(gw.ludoPlace(56, g), 'the home triangle');
});

test('the lobby names the Home rules when they are exactly the preset, else each house rule, and the teams with their partners', () => {
  const preset = { game: 'ludo', players: 4, arm: 6, entry: 'start_square', safe_squares: true, bonus_throws: true, three_sixes: true };
  assert.equal(gw.houseRulesText(preset), 'Home rules: safe squares, bonus throws, three 6s end the turn');
  assert.equal(gw.houseRulesText({ ...preset, arm: 8 }), 'House rules: safe squares, bonus throws, three 6s end the turn');
  assert.equal(gw.houseRulesText({ ...preset, capture_to_home: true, teams: true }),
    'House rules: safe squares, bonus throws, three 6s end the turn, a capture before home, teams');
  assert.equal(gw.houseRulesText({ game: 'ludo', players: 2, arm: 8 }), '');
  const names = ['Ann', 'Ben', 'Cid', 'Dee'];
  assert.equal(gw.teamsText({ game: 'ludo', teams: true }, [0, 1, 2, 3], (s) => names[s]), 'Teams: Ann + Cid against Ben + Dee');
  assert.equal(gw.teamsText({ game: 'ludo' }, [0, 1, 2, 3], (s) => names[s]), '');
});

test("the story tells a safe square's landing, the bonus throws' reasons, a piece going round again and a team's win", () => {
  const view = new View();
  view.onSnapshot({ type: 'room', room: 'KQZTM', state: 'playing', options: { game: 'ludo', players: 4, arm: 6, teams: true, safe_squares: true },
    host: 0, seats: ['Ann', 'Ben', 'Cid', 'Dee'].map((name, seat) => ({ seat, name })),
    game: { players: [0, 1, 2, 3], position: 'green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y', current_seat: 0, turn: 3 } });
  const g = geo.geometry(6);
  const line = (e) => story.ludoEventText(view, e, g, -1, -1);
  assert.equal(line({ kind: 'safe_square', seat: 0, piece: 1, from: 2, to: 8, square: 8, with: 1 }),
    "Ann (green)'s piece 2 lands on a safe square beside Ben (yellow): no capture.");
  assert.equal(line({ kind: 'extra_throw', seat: 1, reason: 'capture' }), 'Ben (yellow) throws again: a bonus throw for the capture.');
  assert.equal(line({ kind: 'extra_throw', seat: 1, reason: 'home' }), 'Ben (yellow) throws again: a bonus throw for the piece home.');
  assert.equal(line({ kind: 'extra_throw', seat: 1, reason: 'six' }), 'Ben (yellow) played a 6 and throws again.');
  assert.equal(line({ kind: 'circles', seat: 2, piece: 3, from: 48, to: 1 }),
    'Cid (red) has not captured yet: piece 4 passes its home column and goes round again.');
  assert.equal(line({ kind: 'moved', seat: 2, piece: 3, from: 50, to: 57 }), 'Cid (red) moves piece 4 from 50 to the square behind its start square.');
  assert.equal(line({ kind: 'team_finished', seat: 2, with: 0 }), 'Ann and Cid win as a team!');
  assert.equal(view.partnerOf(1), 3);
  assert.equal(view.partnerOf(2), 0);
  // The game's end in the story names the team.
  view.apply({ type: 'game_over', status: 'finished', winners: [0, 2], places: [1, 2, 1, 2], length: 200 }, 0);
  assert.match(view.log.at(-1).text, /^Game over! Ann and Cid win as a team after 200 turns\.$/);
});

test("a refused house rule says why in the page's words", () => {
  const refused = (reason, field = 'options.teams') => words.errorText({ code: 'bad_field', args: { field, reason }, message: 'ENGLISH' });
  assert.match(refused('teams_players'), /need 4 seats/);
  assert.match(refused('teams_play_on'), /do not play on/);
  assert.match(refused('table_house_rules', 'options.table'), /paper board/);
  assert.match(refused('preset', 'options.arm'), /^options\.arm contradicts the Home rules/);
});

test('a house-rules game replayed from its positions tells the safe square, the piece going round, the bonus throw and the team', () => {
  // Four seats on arms of 6 under teams, safe squares, bonus throws and capture before home.
  const options = { game: 'ludo', players: 4, arm: 6, entry: 'start_square', safe_squares: true, bonus_throws: true, capture_to_home: true, teams: true };
  const pos = (text, turn, seat, face) => ({ players: [0, 1, 2, 3], position: text, phase: 'awaiting_throw', current_seat: seat, turn, face });
  const model = {
    game: 'ludo', status: 'finished', options, players: [0, 1, 2, 3], names: ['Ann', 'Ben', 'Cid', 'Dee'], winners: [0, 2], places: [1, 2, 1, 2],
    length: 4, table: false, decisions: [], summary: null, source: 'record',
    steps: [
      { kind: 'roll_off', turn: 0, seat: 0, position: pos('green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y', 0, 0) },
      // Ann's piece lands on her star (green's square 8) beside Ben's piece (yellow 47 = square 8).
      { kind: 'throw', turn: 1, seat: 0, face: 3, position: pos('green:5,Y,Y,Y yellow*:47,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y', 1, 1, 3) },
      // Ben goes round again: 47 -> 2 past his home column.
      { kind: 'throw', turn: 2, seat: 1, face: 7, position: pos('green:8,Y,Y,Y yellow:2,Y,Y,Y red*:Y,Y,Y,Y blue:Y,Y,Y,Y', 2, 2, 7) },
      // Cid captures Dee's piece on square 30 (red 4, blue 43) with a 4: a bonus throw follows.
      { kind: 'throw', turn: 3, seat: 2, face: 4, position: pos('green:8,Y,Y,Y yellow:2,Y,Y,Y red+*:4,Y,Y,Y blue:Y,Y,Y,Y', 3, 2, 4) },
      { kind: 'throw', turn: 4, seat: 2, face: 2, position: pos('green:8,Y,Y,Y yellow:2,Y,Y,Y red+:6,Y,Y,Y blue*:Y,Y,Y,Y', 4, 3, 2) },
    ],
  };
  // The steps' "before" of the capture: Dee stood on square 30.
  model.steps[2].position.position = 'green:8,Y,Y,Y yellow:2,Y,Y,Y red*:Y,Y,Y,Y blue:43,Y,Y,Y';
  model.steps[1].position.position = 'green:8,Y,Y,Y yellow*:47,Y,Y,Y red:Y,Y,Y,Y blue:Y,Y,Y,Y';
  const lines = (at) => {
    const v = new View();
    v.onSnapshot(replay.data.snapshotOf(model, model.steps[at]));
    return replay.words.stepLines(model, at, v).join(' | ');
  };
  assert.match(lines(1), /Ann \(green\)'s piece 1 lands on a safe square beside Ben \(yellow\): no capture\./);
  assert.match(lines(2), /Ben \(yellow\) has not captured yet: piece 1 passes its home column and goes round again\./);
  assert.match(lines(3), /captures Dee's piece 1 \(blue\).*Cid \(red\) throws again: a bonus throw for the capture\./);
  assert.doesNotMatch(lines(4), /bonus/);
  assert.match(lines(4), /Ann and Cid win as a team!/);
});
