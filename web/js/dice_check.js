// The page checks every die of a game by itself (docs/fair-dice.md, "Your own client checks"):
// DiceWatch keeps, from the server's messages as they come, what the game's dice stream needs
// and every die shown (the commitment, the client seeds and the Spook boards' assignment of
// `game_started`, each Spook roll and activation, the Ludo roll-off and every throw), and
// checkGame() recomputes them from the server seed `game_over` reveals. What the page did not see
// (it joined late, reloaded, lost its connection) it may take from the game's record, which it
// checks against the commitment and the dice it saw: the result says which dice it checked from
// what it saw. No DOM and no words (dice_words.js says the result): node runs it too.
import { FairStream, commitmentOf, pageCrypto } from './fair_dice.js';

const MAX_DICE = 20000; // dice kept per game: far more than a game has

// A game's dice as seen: plain data (kept in the tab's sessionStorage across a reload).
function newGame(gameId) {
  return { gameId, game: '', table: false, commitment: '', boards: [], count: 0, started: null, seatBoards: null,
    mine: null, rollOff: null, dice: {}, again: [] };
}

export class DiceWatch {
  // load(gameId) -> the data kept for that game or null; changed(data) after every change.
  constructor({ load = () => null, changed = () => {} } = {}) {
    this.g = null;
    this.load = load;
    this.changed = changed;
  }

  // The data of game `gameId` if this page watched it, else null.
  forGame(gameId) {
    if (this.g && this.g.gameId === gameId) return this.g;
    return gameId ? this.load(gameId) : null;
  }

  // This page sent `seed` as its client seed for the current game, from room seat `seat`.
  sentSeed(seat, seed) {
    if (!this.g) return;
    this.g.mine = { seat, seed, accepted: false };
    this.changed(this.g);
  }

  // The game `id`: the current one, or taken up from what was kept, or a new one.
  enter(id) {
    if (!this.g || this.g.gameId !== id) this.g = this.load(id) || newGame(id);
    return this.g;
  }

  // A die shown (key: 'm' movement, 'a' activation and the round, 't' and the throw): false when
  // it was known. Shown again with another face (a snapshot), that face is checked too.
  die(key, face) {
    const g = this.g;
    if (!g || !Number.isInteger(face)) return false;
    if (key in g.dice) {
      if (g.dice[key] !== face && (g.again ||= []).length < 64) g.again.push([key, face]);
      return g.dice[key] !== face;
    }
    if (Object.keys(g.dice).length >= MAX_DICE) return false;
    g.dice[key] = face;
    return true;
  }

  observe(m) {
    const g0 = this.g;
    let changed = true;
    switch (m.type) {
      case 'commitment': {
        const g = (this.g = newGame(m.game_id));
        g.commitment = String(m.commitment || '');
        g.boards = Array.isArray(m.boards) ? m.boards.slice() : [];
        break;
      }
      case 'client_seed_accepted':
        if (this.g && this.g.mine) this.g.mine.accepted = true;
        break;
      case 'game_started': {
        const g = this.enter(m.game_id);
        const o = m.options || {};
        g.game = o.game === 'ludo' ? 'ludo' : 'spook';
        g.table = Boolean(o.table);
        const players = Array.isArray(m.players) ? m.players.slice() : [];
        g.started = {
          players,
          seeds: (m.client_seeds || []).map((c) => ({ seat: c.seat, seed: String(c.seed) })),
          assignment: Array.isArray(m.assignment) ? m.assignment.slice() : [],
        };
        g.count = g.boards.length || (g.table ? (o.table_names || []).length : players.length);
        break;
      }
      case 'room':
        changed = this.snapshot(m);
        break;
      case 'roll':
        this.die(`m${m.round}`, m.face);
        break;
      case 'activation':
        this.die(`a${m.round}`, m.face);
        break;
      case 'roll_off':
        if (this.g) this.g.rollOff = (m.events || []).filter((e) => e.kind === 'roll_off_throw').map((e) => e.face);
        break;
      case 'throw':
        this.die(`t${m.turn}`, m.face);
        break;
      default:
        return;
    }
    if (this.g && (changed || this.g !== g0)) this.changed(this.g);
  }

  // A snapshot during a game: the commitment and boards it publishes, and (a page that came in
  // during the game) the die it shows and the boards the seats play. True when it told something new.
  snapshot(s) {
    if (!s.game_id || (s.state !== 'playing' && s.state !== 'seeding')) return false;
    let changed = !this.g || this.g.gameId !== s.game_id;
    const g = this.enter(s.game_id);
    if (!g.commitment && s.commitment) g.commitment = String(s.commitment);
    if (!g.boards.length && Array.isArray(s.boards)) g.boards = s.boards.slice();
    const o = s.options || {};
    g.game = o.game === 'ludo' ? 'ludo' : 'spook';
    g.table = Boolean(o.table);
    const game = s.game;
    if (!game || g.table) return changed;
    if (!g.count) g.count = g.boards.length || (game.players || []).length;
    if (g.game === 'spook') {
      if (Number.isInteger(game.roll) && game.round > 0) changed = this.die(`m${game.round}`, game.roll) || changed;
      if (!g.started && !g.seatBoards && Array.isArray(game.boards)) {
        g.seatBoards = { players: (game.players || []).slice(), boards: game.boards.slice() };
        changed = true;
      }
    } else if (Number.isInteger(game.face) && game.phase === 'awaiting_choice') {
      changed = this.die(`t${game.turn}`, game.face) || changed;
    }
    return changed;
  }
}

// Which die a counter is, for the words: { kind, step } (Spook: round; Ludo: throw, roll-off i).
function dieAt(counter, game, first, purpose) {
  if (purpose === 'assignment') return { kind: 'boards', step: 0 };
  if (game === 'spook') return { kind: (counter - first) % 2 ? 'activation' : 'movement', step: Math.floor((counter - first) / 2) + 1 };
  if (counter < first) return { kind: 'roll_off', step: counter + 1 };
  return { kind: 'throw', step: counter - first + 1 };
}

// Checks game data `g` (DiceWatch) against `over` (its game_over) and, when there is one, the
// game's `record` (parsed). `pause()` is awaited now and then, so that the page stays responsive.
// The result (dice_words.js words it):
//   verdict: 'fair'; 'unfair' (a die, the boards or this page's own seed is not the stream's);
//            'commitment' (the revealed seed is not the one committed to); 'record' (the record
//            says otherwise than this page saw, or lists a die the seeds do not give);
//            'unchecked' (why: 'nothing_seen', 'no_seeds').
//   checked: dice this page saw and checked; total: dice in the game (null: not known);
//   boards: the Spook boards' assignment checked; mine: this page's seed went in (null: none sent);
//   seedsFrom: 'seen' | 'record'; joinedAt: { kind: 'round'|'turn', n } or null; missed: dice
//   missed in the middle; fromRecord: dice only the record has, checked against the stream;
//   bad: { kind, step, face, expected } for the first die that does not match.
export async function checkGame(g, over, record, { crypto = pageCrypto(), pause = () => new Promise((r) => setTimeout(r, 0)) } = {}) {
  const r = { gameId: over.game_id, verdict: 'unchecked', why: '', crypto: crypto.name, game: (g && g.game) || (record && record.options && record.options.game) || 'spook',
    checked: 0, total: null, boards: false, mine: null, seedsFrom: '', joinedAt: null, missed: false, fromRecord: 0, bad: null };
  if (!g || !g.commitment) return { ...r, why: 'nothing_seen' };
  const seed = String(over.server_seed || '').toLowerCase();
  const commitment = await commitmentOf(seed, crypto);
  if (commitment === null || commitment !== g.commitment.toLowerCase()) return { ...r, verdict: 'commitment' };
  const rec = record && record.format === 'spookludo-game-record' && Array.isArray(record.draws) && Array.isArray(record.client_seeds) ? record : null;
  if (rec && (String(rec.commitment).toLowerCase() !== commitment || (rec.server_seed && String(rec.server_seed).toLowerCase() !== seed)))
    return { ...r, verdict: 'record', bad: { kind: 'commitment' } };
  const spook = r.game === 'spook';

  // The client seeds, numbered as the stream numbers them (the players in play order; a table's devices).
  let seeds;
  const st = g.started;
  if (st) {
    seeds = st.seeds.map((c) => ({ seat: g.table ? c.seat : st.players.indexOf(c.seat), seed: c.seed }));
    r.seedsFrom = 'seen';
    const key = (list) => list.map((c) => `${c.seat}:${c.seed}`).sort().join('\n');
    if (rec && key(rec.client_seeds) !== key(seeds)) return { ...r, verdict: 'record', bad: { kind: 'seeds' } };
  } else if (!rec && !over.record) {
    return { ...r, verdict: 'fair', total: 0 }; // ended before its first die: no record, nothing drawn
  } else if (rec) {
    seeds = rec.client_seeds.map((c) => ({ seat: c.seat, seed: String(c.seed) }));
    r.seedsFrom = 'record';
  } else {
    return { ...r, why: 'no_seeds' };
  }
  if (g.mine && g.mine.accepted) {
    r.mine = seeds.some((c) => c.seed === g.mine.seed);
    if (!r.mine) return { ...r, verdict: 'unfair', bad: { kind: 'mine' } };
  }
  const stream = await FairStream.open(seed, seeds, crypto);

  // The dice seen, by counter.
  const seen = [];
  let first; // Spook: the assignment's draws; Ludo: the roll-off's
  if (spook) {
    const count = g.count || (rec ? rec.seats.length : 0);
    first = Math.max(0, count - 1);
    if (count > 1 && (st ? st.assignment.length : g.seatBoards)) {
      const expected = await stream.assignment(count);
      for (let i = 0; i < count; i++) {
        const got = st ? st.assignment[g.table ? i : st.players[i]]
          : g.boards.indexOf(g.seatBoards.boards[g.seatBoards.players[i]]);
        if (got !== expected[i]) return { ...r, verdict: 'unfair', bad: { kind: 'boards' } };
      }
      r.boards = true;
    }
  } else {
    first = g.rollOff ? g.rollOff.length : rec ? rec.draws.filter((d) => d.purpose === 'roll_off').length : null;
    if (first === null) return { ...r, why: 'no_seeds' }; // its throws cannot be placed in the stream without the roll-off
    (g.rollOff || []).forEach((face, i) => seen.push({ counter: i, face }));
  }
  const counterOf = (key) => (key[0] === 't' ? first + Number(key.slice(1)) - 1 : first + 2 * (Number(key.slice(1)) - 1) + (key[0] === 'a' ? 1 : 0));
  for (const [key, face] of Object.entries(g.dice)) if ((key[0] === 't') !== spook) seen.push({ counter: counterOf(key), face });
  // A die shown again with another face (a snapshot) is checked too, not counted twice.
  const again = (g.again || []).map(([key, face]) => ({ counter: counterOf(key), face }));
  seen.sort((a, b) => a.counter - b.counter);
  const all = seen.concat(again);
  for (let i = 0; i < all.length; i++) {
    if (i % 32 === 31) await pause();
    const expected = (await stream.draw(all[i].counter, 6)) + 1;
    if (expected !== all[i].face) return { ...r, verdict: 'unfair', checked: Math.min(i, seen.length), bad: { ...dieAt(all[i].counter, r.game, first), face: all[i].face, expected } };
  }
  r.checked = seen.length;

  // The record's draws: each the stream's, and the count of the game's dice.
  if (rec) {
    for (let i = 0; i < rec.draws.length; i++) {
      if (i % 32 === 31) await pause();
      const d = rec.draws[i];
      const value = d.counter === i && d.range > 0 ? await stream.draw(i, d.range) : -1;
      if (value !== d.value) return { ...r, verdict: 'record', bad: { ...dieAt(i, r.game, first, d.purpose), face: d.value + 1, expected: value + 1 } };
    }
    r.total = rec.draws.filter((d) => d.purpose !== 'assignment').length;
    r.fromRecord = Math.max(0, r.total - r.checked);
  } else if (over.status === 'finished' && !g.table) {
    r.total = spook ? 2 * over.length : first + over.length;
  }
  if (r.total !== null && r.checked < r.total) {
    const steps = seen.map((s) => dieAt(s.counter, r.game, first)).filter((d) => d.kind !== 'roll_off');
    const lateStart = spook ? !seen.length || seen[0].counter > first : !g.rollOff;
    if (lateStart && steps.length) r.joinedAt = { kind: spook ? 'round' : 'turn', n: steps[0].step };
    else r.missed = true;
  }
  r.verdict = 'fair';
  return r;
}
