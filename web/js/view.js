// The page's picture of a room and its game, built only from the server's messages
// (protocol/PROTOCOL.md), as the terminal client's GameView (client/view.cpp) builds it: feed
// every server message to apply() in order. A `room` snapshot replaces what was known (that is
// how a reconnection redraws); the messages between snapshots update it step by step.
import { YARD, COLOURS, colourOfPlayer, geometry, parsePosition } from './ludo_geo.js';
import { t, tc, tn } from './i18n.js';
import { characterName, characterAction, andList, colourName } from './game_words.js';

// A bot's way of playing, in the page's language.
export function policyWord(policy) {
  if (policy === 'best') return tc('bot', 'best');
  if (policy === 'greedy') return tc('bot', 'greedy');
  if (policy === 'random') return tc('bot', 'random');
  return policy;
}
import { noticeText, eventText, errorText, abandonedText } from './words.js';
import { ludoEventText } from './ludo_story.js';

export const CHARACTERS = {
  hat: { letter: 'H', name: "Wizard's Hat" },
  cat: { letter: 'C', name: 'Black Cat' },
  spook: { letter: 'S', name: 'Spook' },
  werewolf: { letter: 'W', name: 'Werewolf' },
  witch: { letter: 'X', name: 'Witch' },
};
export const LETTER_NAMES = { H: "Wizard's Hat", C: 'Black Cat', S: 'Spook', W: 'Werewolf', X: 'Witch', '.': 'entrance', '+': 'the church' };

const MAX_LOG = 200;

function byText(by) {
  if (by === 'timeout') return ' ' + t('(time ran out: the server chose the best move)');
  if (by === 'away') return ' ' + t('(away: the server played it)');
  return '';
}

// "Game over! Ann wins after 31 rounds." (Spook: rounds; Ludo: turns).
function gameOverText(spook, winners, n) {
  if (winners.length === 0) {
    return spook ? tn('Game over! Nobody wins after {n} round.', 'Game over! Nobody wins after {n} rounds.', n)
      : tn('Game over! Nobody wins after {n} turn.', 'Game over! Nobody wins after {n} turns.', n);
  }
  if (winners.length === 1) {
    return spook ? tn('Game over! {name} wins after {n} round.', 'Game over! {name} wins after {n} rounds.', n, { name: winners[0] })
      : tn('Game over! {name} wins after {n} turn.', 'Game over! {name} wins after {n} turns.', n, { name: winners[0] });
  }
  const names = andList(winners);
  return spook ? tn('Game over! {names} win together after {n} round.', 'Game over! {names} win together after {n} rounds.', n, { names })
    : tn('Game over! {names} win together after {n} turn.', 'Game over! {names} win together after {n} turns.', n, { names });
}

// A Spook move in the story: "Ann moves piece 1 from square 5 to 9." (and how, when the server chose it).
function spookMoveText(who, x) {
  const args = { name: who, piece: x.piece + 1, from: x.from, to: x.to };
  if (x.to >= 40) {
    if (x.by === 'timeout') return t('{name} moves piece {piece} from square {from} into the church (time ran out: the server chose the best move).', args);
    if (x.by === 'away') return t('{name} moves piece {piece} from square {from} into the church (away: the server played it).', args);
    return t('{name} moves piece {piece} from square {from} into the church.', args);
  }
  if (x.by === 'timeout') return t('{name} moves piece {piece} from square {from} to {to} (time ran out: the server chose the best move).', args);
  if (x.by === 'away') return t('{name} moves piece {piece} from square {from} to {to} (away: the server played it).', args);
  return t('{name} moves piece {piece} from square {from} to {to}.', args);
}

export class View {
  constructor() {
    this.room = '';
    this.seat = -1;
    this.role = '';
    this.token = null;
    this.snapshot = null;
    this.pausedAt = 0;
    this.inGame = false;
    this.options = { game: 'spook', players: 2, pieces: 2 };
    this.gameId = '';
    this.commitment = '';
    this.publishedBoards = [];
    this.seedRequested = false;
    this.playSeats = [];
    this.spookBoards = [];
    this.spookPositions = [];
    this.spookFinished = [];
    this.round = 0;
    this.roll = null;
    this.activation = null; // the last activation message (until the next roll)
    this.ludoProgress = [];
    this.currentSeat = -1;
    this.turn = 0;
    this.face = null;
    this.thrower = null;
    this.lastMoves = [];
    this.pending = null; // {decision, deadline, chosen}
    this.frozenLeft = null;
    this.disconnected = false;
    this.serverOffset = 0;
    this.choosing = []; // the seats the game's step waits for (the snapshot's `choosing`)
    this.choosingUntil = null; // their deadline, local clock (null: paused, or not said)
    this.result = null; // {over, final: {names, options, spookBoards, ...}}
    this.resultDismissed = false;
    this.cameBack = false; // entered with a seat token (resume): may show the last game's result
    this.log = [];
    this.logTotal = 0;
    this.lastError = null;
    this.kicked = false;
    this.closing = null;
    // Where the records are served: this page's own server.
    this.recordBase = typeof location !== 'undefined' ? location.origin : '';
  }

  say(kind, text) {
    this.log.push({ kind, text, n: ++this.logTotal });
    while (this.log.length > MAX_LOG) this.log.shift();
  }

  // ---- The room ---------------------------------------------------------------------------
  get state() { return this.snapshot ? this.snapshot.state : 'connecting'; }
  get paused() { return Boolean(this.snapshot && this.snapshot.paused); }
  get isSpectator() { return this.role === 'spectator'; }
  get amHost() { return this.seat >= 0 && this.snapshot && this.snapshot.host === this.seat; }
  seatView(seat) {
    if (!this.snapshot) return null;
    return this.snapshot.seats.find((s) => s.seat === seat && !s.free) || null;
  }
  seatName(seat) {
    const s = this.seatView(seat);
    return s && s.name ? s.name : t('seat {n}', { n: seat + 1 });
  }
  roomSeats() {
    const seats = [];
    if (this.snapshot) for (const s of this.snapshot.seats) if (s.seat >= 0 && !seats.includes(s.seat)) seats.push(s.seat);
    const count = this.snapshot ? this.snapshot.options.players : this.options.players;
    for (let seat = 0; seats.length < count && seat < 64; seat++) if (!seats.includes(seat)) seats.push(seat);
    return seats.sort((a, b) => a - b);
  }
  seatStatus(seat) {
    const s = this.seatView(seat);
    return s && s.status ? s.status : '';
  }
  // The labels of a taken seat in the page's language, each with its kind (host, kicked, bot, away,
  // left, here, you: a class of the lobby's tags).
  seatTagWords(seat) {
    const words = {
      host: () => tc('seat', 'host'),
      kicked: () => t('kicked: a best bot plays it'),
      server: () => t('away, the server plays'),
      left: () => tc('seat', 'left'),
      away: () => tc('seat', 'away'),
      here: () => tc('seat', 'here'),
      you: () => tc('seat', 'you'),
    };
    const s = this.seatView(seat);
    return this.seatTags(seat).map((tag) => {
      if (tag.startsWith('bot (')) return { kind: 'bot', text: t('bot ({policy})', { policy: policyWord(s && s.policy ? s.policy : 'best') }) };
      const kind = tag.startsWith('kicked') ? 'kicked' : tag.startsWith('away, the server') ? 'server' : tag;
      return { kind: kind === 'server' ? 'away' : kind, text: words[kind] ? words[kind]() : tag };
    });
  }
  // The label of a taken seat, as the terminal's lobby words it (English: the keys of seatTagWords).
  seatTags(seat) {
    const tags = [];
    const s = this.seatView(seat);
    if (!s) return tags;
    if (this.snapshot && this.snapshot.host === seat) tags.push('host');
    const status = s.status || '';
    if (s.kicked) tags.push('kicked: a best bot plays it');
    else if (s.bot) tags.push(`bot (${s.policy || 'best'})`);
    else if (status === 'server') tags.push('away, the server plays');
    else if (status === 'left') tags.push('left');
    else if (status === 'away' || s.away || s.connected === false) tags.push('away');
    else tags.push('here');
    if (seat === this.seat) tags.push('you');
    return tags;
  }
  playIndex(seat) { return this.playSeats.indexOf(seat); }
  ludoColour(seat) {
    const i = this.playIndex(seat);
    return i < 0 ? -1 : colourOfPlayer(this.playSeats.length, i);
  }
  // Under the house rule teams (Ludo, 4 players): the seat's partner, the one sitting opposite
  // in play order (the first and third play together, the second and fourth); else -1.
  partnerOf(seat) {
    if (!this.options.teams || this.playSeats.length !== 4) return -1;
    const i = this.playIndex(seat);
    return i < 0 ? -1 : this.playSeats[(i + 2) % 4];
  }
  ludoColourName(seat) {
    const c = this.ludoColour(seat);
    return c >= 0 ? colourName(c) : '?';
  }
  autoStartLeft(now) {
    const at = this.snapshot && this.snapshot.auto_start_at_ms;
    if (!at || this.state !== 'lobby') return null;
    return Math.max(0, at - (now + this.serverOffset));
  }
  // "Still choosing (12 s left): Ben and Cid" while the step waits for others than this page
  // (with no choice of its own to make), as the terminal words it; else ''.
  choosingText(now) {
    if (!this.inGame || this.disconnected || (this.pending && this.pending.chosen === null)) return '';
    const names = this.choosing.filter((seat) => seat !== this.seat || this.isSpectator).map((seat) => this.seatName(seat));
    if (!names.length) return '';
    const who = names.length === 1 ? names[0] : t('{names} and {last}', { names: names.slice(0, -1).join(', '), last: names[names.length - 1] });
    if (this.paused) return t('Still choosing (paused): {names}', { names: who });
    if (this.choosingUntil !== null) return t('Still choosing ({n} s left): {names}', { n: Math.ceil(Math.max(0, this.choosingUntil - now) / 1000), names: who });
    return t('Still choosing: {names}', { names: who });
  }
  get showingResult() { return Boolean(this.result) && !this.resultDismissed; }

  // ---- Decisions ---------------------------------------------------------------------------
  timeLeft(now) {
    const p = this.pending;
    if (!p) return 0;
    if (this.frozenLeft !== null) return this.frozenLeft;
    if (p.deadline === null) return Infinity; // no limit (settings.time_factor 0)
    if (this.paused) now = Math.min(now, Math.max(this.pausedAt, p.deadline - p.decision.time_left_ms));
    return Math.max(0, p.deadline - now);
  }
  setDisconnected(lost, now) {
    this.disconnected = lost;
    if (lost && this.pending && this.frozenLeft === null) this.frozenLeft = this.timeLeft(now);
  }

  // ---- Messages ----------------------------------------------------------------------------
  apply(m, now) {
    try {
      this.applyOne(m, now);
    } catch (e) {
      this.say('error', t('could not read a server message: {error}', { error: e && e.message }));
    }
  }

  applyOne(m, now) {
    // The step the seats were choosing in is over.
    if (['moves', 'throw', 'move', 'roll_off', 'game_over'].includes(m.type)) {
      this.choosing = [];
      this.choosingUntil = null;
    }
    switch (m.type) {
      case 'joined': {
        this.room = m.room;
        this.seat = m.seat;
        this.role = m.role;
        if (m.token) this.token = m.token;
        this.kicked = false;
        if (m.role === 'spectator') this.say('info', t('You are watching room {room}.', { room: m.room }));
        else this.say('info', m.host ? t('You are in room {room}, seat {seat} (host).', { room: m.room, seat: m.seat + 1 }) : t('You are in room {room}, seat {seat}.', { room: m.room, seat: m.seat + 1 }));
        break;
      }
      case 'room': {
        const wasPaused = this.paused;
        const wasHost = this.amHost;
        const sameRoom = Boolean(this.snapshot);
        if (m.server_time_ms > 0) this.serverOffset = m.server_time_ms - now;
        this.choosing = (m.seats || []).filter((s) => s.choosing && !s.free).map((s) => s.seat);
        this.choosingUntil = m.decision_deadline_ms && this.choosing.length ? m.decision_deadline_ms - this.serverOffset : null;
        this.onSnapshot(m);
        if (this.paused && !wasPaused) this.pausedAt = now;
        if (this.state === 'lobby') this.frozenLeft = null;
        if (sameRoom && this.seat >= 0 && !this.isSpectator && !wasHost && this.amHost) this.say('info', t('You are now the host.'));
        // The role moved on while this page was away (past the reconnect window).
        if (sameRoom && this.seat >= 0 && !this.isSpectator && wasHost && !this.amHost && m.host >= 0)
          this.say('info', t('You are not the host any more: {name} is.', { name: this.seatName(m.host) }));
        break;
      }
      case 'notice':
        this.say(m.kind === 'paused' || m.kind === 'resumed' ? 'roll' : 'info', noticeText(m));
        break;
      case 'commitment':
        this.gameId = m.game_id;
        this.commitment = m.commitment;
        this.publishedBoards = m.boards || [];
        this.result = null;
        this.seedRequested = this.seat >= 0 && !this.isSpectator;
        this.say('info', t('A game is starting. The server has locked in its dice seed (SHA-256 {hash}...).', { hash: String(m.commitment).slice(0, 12) }));
        break;
      case 'client_seed_accepted':
        this.seedRequested = false;
        break;
      case 'game_started': {
        this.gameId = m.game_id;
        this.startGame(m.options, m.players || []);
        this.seedRequested = false;
        if (m.options.game === 'spook') {
          this.spookBoards = this.spookPositions.map(() => '');
          (m.assignment || []).forEach((index, seat) => {
            if (index >= 0 && index < this.publishedBoards.length && seat < this.spookBoards.length) this.spookBoards[seat] = this.publishedBoards[index];
          });
          this.say('info', (m.options.pieces || 2) === 1 ? t('Spook & Werewolf Ludo begins! Bring your piece into the church on square 40 to win.') : t('Spook & Werewolf Ludo begins! Bring two pieces into the church on square 40 to win.'));
        } else {
          this.say('info', t('Classic Ludo begins! Bring all four pieces home to win.'));
        }
        break;
      }
      case 'roll':
        this.round = m.round;
        this.roll = m.face;
        this.activation = null;
        if (m.table) { this.say('roll', eventText(m)); break; } // a table game: the announcement
        this.say('roll', tn('Round {round}: the die shows {n}. Everyone moves one piece {n} square.', 'Round {round}: the die shows {n}. Everyone moves one piece {n} squares.', m.face, { round: m.round }));
        break;
      case 'decision':
        // Without time_left_ms the decision waits without a limit (settings.time_factor 0).
        this.pending = { decision: m, deadline: m.time_left_ms === undefined ? null : now + m.time_left_ms, chosen: null };
        this.frozenLeft = this.disconnected && m.time_left_ms !== undefined ? m.time_left_ms : null;
        break;
      case 'choice_accepted':
        if (this.pending && this.pending.decision.decision === m.decision) this.pending = null;
        break;
      case 'decision_timeout':
        if (this.pending && this.pending.decision.decision === m.decision) this.pending = null;
        this.say('error', t("Time's up! The server makes the best move for you."));
        break;
      case 'moves':
        this.lastMoves = [];
        for (const x of m.moves || []) {
          const who = this.seatName(x.seat);
          const kind = x.seat === this.seat ? 'mine' : 'move';
          if (x.stays || x.piece === undefined || x.piece === null) {
            this.say(kind, t('{name} cannot move and stays put.', { name: who }));
            continue;
          }
          this.setSpookPiece(x.seat, x.piece, x.to);
          this.lastMoves.push({ seat: x.seat, piece: x.piece, from: x.from, to: x.to, by: x.by });
          this.say(kind, spookMoveText(who, x));
        }
        break;
      case 'activation': {
        this.activation = m;
        if (m.table) { this.say('monster', eventText(m)); break; }
        const character = characterName(m.character, m.name);
        this.say('monster', t("The die shows {face}: it's the {character}! Any piece on a {character} {action}.", { face: m.face, character, action: characterAction(m.character) }));
        if (!m.moved || m.moved.length === 0) {
          this.say('monster', m.character === 'hat' ? t('Nobody stands on the {character}.', { character }) : t('Nobody stands on the {character}. Phew!', { character }));
        }
        for (const x of m.moved || []) {
          if (x.piece === undefined || x.piece === null) continue;
          this.setSpookPiece(x.seat, x.piece, x.to);
          this.say(x.seat === this.seat ? 'mine' : 'monster', t("{name}'s piece {piece}: {from} → {to}", { name: this.seatName(x.seat), piece: x.piece + 1, from: x.from, to: x.to >= 40 ? tc('square', 'the church') : x.to }));
        }
        for (const seat of m.finished || []) {
          if (seat < this.spookFinished.length) this.spookFinished[seat] = m.round;
          this.say('finish', t('{name} has reached the church!', { name: this.seatName(seat) }));
        }
        break;
      }
      case 'turn_skipped':
        this.say('info', eventText(m));
        break;
      case 'roll_off':
        if (m.table) { this.say('roll', eventText(m)); break; }
        this.currentSeat = m.starts;
        this.applyLudoEvents(m.events || []);
        break;
      case 'throw':
        if (m.table) { this.say('roll', eventText(m)); break; }
        this.turn = m.turn;
        this.currentSeat = m.seat;
        this.face = m.face;
        this.applyLudoEvents(m.events || []);
        this.thrower = m.seat;
        break;
      case 'move':
        this.turn = m.turn;
        this.applyLudoEvents(m.events || []);
        if (m.by === 'timeout' || m.by === 'away') this.say('info', byText(m.by).slice(1));
        break;
      case 'game_over': {
        this.pending = null;
        this.inGame = false;
        const names = {};
        for (const s of this.snapshot ? this.snapshot.seats : []) if (!s.free) names[s.seat] = s.name;
        (m.names || []).forEach((n, seat) => { if (n) names[seat] = n; });
        this.result = { over: m, names, options: { ...this.options } };
        this.resultDismissed = false;
        if (m.status === 'finished') {
          const table = this.options && this.options.table;
          const winners = (m.winners || []).map((w) => (table ? (m.names || [])[w] : this.seatName(w)));
          this.say('finish', this.options.teams && winners.length === 2
            ? tn('Game over! {names} win as a team after {n} turn.', 'Game over! {names} win as a team after {n} turns.', m.length, { names: andList(winners) })
            : gameOverText(this.options.game === 'spook', winners, m.length));
        } else {
          this.say('error', abandonedText(m));
        }
        // A command one can run: the record's address on the server that served this page.
        if (m.server_seed) {
          const seed = t('Server seed revealed: {seed}...', { seed: m.server_seed.slice(0, 16) });
          this.say('info', m.record ? `${seed} ${t('Check the game: {command}', { command: `spookludo verify ${this.recordBase}${m.record}` })}` : seed);
        }
        break;
      }
      case 'error':
        this.lastError = m;
        if (m.ref === 'choose' && this.pending) this.pending.chosen = null;
        this.say('error', this.errorWords(m));
        break;
      case 'kicked':
        this.kicked = true;
        this.token = null;
        this.say('error', t('You were removed from room {room} by the host.', { room: m.room || this.room }));
        break;
      case 'closing':
        if (m.code === 'restart') {
          this.say('info', t('The server is restarting: the room is saved, and this page reconnects when it is back.'));
          break;
        }
        this.closing = m.reason || 'closing';
        this.say('error', m.code === 'shutdown' ? t('The server is shutting down.') : t('The server is closing: {reason}.', { reason: this.closing }));
        break;
      default:
        break; // welcome, pong and whatever a newer server adds
    }
  }

  // An error in the page's language (words.js).
  errorWords(e) {
    const game = this.snapshot ? this.snapshot.options.game : this.options && this.options.game;
    return errorText(e, { host: this.amHost, game });
  }

  startGame(options, players) {
    this.inGame = true;
    this.options = { ...options };
    this.result = null;
    this.pending = null;
    this.lastMoves = [];
    this.round = 0;
    this.roll = null;
    this.activation = null;
    this.turn = 0;
    this.face = null;
    this.thrower = null;
    if (!players || players.length === 0) {
      players = [];
      for (let s = 0; s < options.players; s++) players.push(s);
    }
    this.playSeats = players.slice();
    const length = Math.max(0, ...this.playSeats.map((s) => s + 1));
    if (options.game === 'spook') {
      const pieces = options.pieces || 2;
      this.spookPositions = Array.from({ length }, (_, seat) => (this.playSeats.includes(seat) ? Array(pieces).fill(1) : []));
      this.spookFinished = Array(length).fill(null);
      this.ludoProgress = [];
    } else {
      this.ludoProgress = Array.from({ length }, () => [YARD, YARD, YARD, YARD]);
      this.spookPositions = [];
      this.spookFinished = [];
      this.spookBoards = [];
      this.currentSeat = -1;
    }
  }

  onSnapshot(s) {
    this.snapshot = s;
    this.room = s.room;
    if (s.state === 'lobby') {
      // Back after the game ended without us (its game_over went to nobody here).
      if (this.inGame && !this.result) this.say('info', t('The game ended while you were away; the room is back in its lobby.'));
      // A page that came back to its seat after the game ended (a refresh, a phone that slept)
      // shows how the game it played in ended, once.
      const last = s.last_game;
      const mine = this.seat >= 0 && (last?.names || [])[this.seat] === this.seatName(this.seat);
      if (last && this.cameBack && !this.result && mine) {
        const names = {};
        for (const seat of s.seats || []) if (!seat.free) names[seat.seat] = seat.name;
        (last.names || []).forEach((n, seat) => { if (n) names[seat] = n; });
        this.result = { over: last, names, options: { ...s.options } };
        this.resultDismissed = false;
      }
      this.inGame = false;
      this.pending = null;
      this.seedRequested = false;
      if (!this.result) this.options = { ...s.options };
      return;
    }
    if (s.game_id) this.gameId = s.game_id;
    if (s.commitment) this.commitment = s.commitment;
    if (s.boards && s.boards.length) this.publishedBoards = s.boards;
    const g = s.game;
    if (!g) {
      if (!this.inGame) this.options = { ...s.options };
      return;
    }
    const players = g.players && g.players.length ? g.players : [];
    const same = players.length === this.playSeats.length && players.every((p, i) => p === this.playSeats[i]);
    if (s.options.game === 'spook') {
      if (!this.inGame || this.options.game !== 'spook' || (players.length && !same)) this.startGame(s.options, players);
      this.round = g.round;
      this.roll = g.roll === undefined ? null : g.roll;
      this.spookBoards = g.boards || [];
      this.spookPositions = g.positions || [];
      this.spookFinished = g.finished_round || [];
    } else {
      if (!this.inGame || this.options.game !== 'ludo' || (players.length && !same)) this.startGame(s.options, players);
      this.currentSeat = g.current_seat;
      this.turn = g.turn;
      this.face = g.face === undefined ? null : g.face;
      this.thrower = g.face !== undefined && g.phase === 'awaiting_choice' ? g.current_seat : null;
      const parsed = parsePosition(g.position, this.options.arm || 8);
      parsed.forEach((pieces, i) => {
        const seat = this.playSeats[i];
        if (seat !== undefined && seat < this.ludoProgress.length) this.ludoProgress[seat] = pieces;
      });
    }
  }

  setSpookPiece(seat, piece, to) {
    const pieces = this.spookPositions[seat];
    if (pieces && piece >= 0 && piece < pieces.length) pieces[piece] = to;
  }

  applyLudoEvents(events) {
    const geo = geometry(this.options.arm || 8);
    const set = (seat, piece, value) => {
      if (seat >= 0 && piece >= 0 && piece < 4 && seat < this.ludoProgress.length) this.ludoProgress[seat][piece] = value;
    };
    let mover = -1;
    let moverTo = -1;
    for (const e of events) {
      const seat = e.seat === undefined ? -1 : e.seat;
      const piece = e.piece === undefined ? -1 : e.piece;
      let kind = 'move';
      if (e.kind === 'entered' || e.kind === 'moved') {
        set(seat, piece, e.to === undefined ? YARD : e.to);
        this.lastMoves = [{ seat, piece, from: e.from, to: e.to }];
      } else if (e.kind === 'captured') {
        set(seat, piece, YARD);
        kind = 'capture';
      } else if (e.kind === 'reached_home') {
        set(seat, piece, geo.home);
        kind = 'finish';
      } else if (e.kind === 'finished' || e.kind === 'team_finished') {
        kind = 'finish';
      } else if (e.kind === 'safe_square' || e.kind === 'circles') {
        kind = 'move';
      } else if (e.kind === 'starts' || e.kind === 'turn' || e.kind === 'extra_throw') {
        this.currentSeat = seat;
        kind = 'info';
      } else if (e.kind === 'throw' || e.kind === 'roll_off_throw') {
        if (e.face !== undefined) this.face = e.face;
        if (seat >= 0) this.thrower = seat;
        kind = 'roll';
      } else {
        kind = 'info';
      }
      if (e.kind === 'turn' || e.kind === 'game_over') continue;
      const text = ludoEventText(this, e, geo, mover, moverTo);
      this.say(seat === this.seat && seat >= 0 && kind === 'move' ? 'mine' : kind, text);
      if (e.kind === 'entered' || e.kind === 'moved') {
        mover = seat;
        moverTo = e.to === undefined ? -1 : e.to;
      }
    }
  }
}
