// The words for what the server reports by code: a notice's `kind`, a game event's `kind` (and a
// table game's announcements), an error's `code`, each with its parameters (PROTOCOL.md, "Words
// and languages"), worded in the page's language (i18n.js). The server's English `text` /
// `message` is shown only for a code this page does not know.
import { t, tn, tc } from './i18n.js';
import { moreTimeNoticeText } from './more_time.js';

const seatNo = (seat) => (Number.isInteger(seat) ? seat + 1 : '?');

// A Ludo colour in the page's language.
export function colourText(colour) {
  switch (colour) {
    case 'green': return tc('colour', 'green');
    case 'yellow': return tc('colour', 'yellow');
    case 'red': return tc('colour', 'red');
    case 'blue': return tc('colour', 'blue');
    default: return String(colour || '?');
  }
}

// A bot policy's name (random, greedy, best).
function policyText(policy) {
  switch (policy) {
    case 'random': return tc('bot policy', 'random');
    case 'greedy': return tc('bot policy', 'greedy');
    case 'best': return tc('bot policy', 'best');
    default: return String(policy || '');
  }
}

// A Spook character's name and what it does to the pieces on its squares.
function characterText(character) {
  switch (character) {
    case 'hat': return { name: t("Wizard's Hat"), action: t('moves forward 3 squares') };
    case 'cat': return { name: t('Black Cat'), action: t('moves back 6 squares') };
    case 'spook': return { name: t('Spook'), action: t('goes back to the entrance of its region') };
    case 'werewolf': return { name: t('Werewolf'), action: t('goes back to the entrance of its region') };
    case 'witch': return { name: t('Witch'), action: t('goes back to square 1') };
    default: return { name: String(character || '?'), action: '' };
  }
}

const fallback = (m, english) => (english ? t('The server said: {message}', { message: english }) : t('The server said: {message}', { message: m.kind || m.code || '?' }));

// A notice (one line of the room's story).
export function noticeText(m) {
  const moreTime = moreTimeNoticeText(m); // settings.time_factor, hurry, ask_time (more_time.js)
  if (moreTime !== null) return moreTime;
  const name = m.name || '';
  const seat = seatNo(m.seat);
  switch (m.kind) {
    case 'joined':
      return m.host ? t('{name} sits at seat {seat} (the host)', { name, seat }) : t('{name} sits at seat {seat}', { name, seat });
    case 'left':
      return m.then === 'free' ? t('{name} left seat {seat}: it is free', { name, seat }) : t('{name} left: the server plays seat {seat}', { name, seat });
    case 'away':
      return m.in_game
        ? t('{name} lost the connection: seat {seat} waits for them (the server moves for them meanwhile)', { name, seat })
        : t('{name} lost the connection: seat {seat} waits for them', { name, seat });
    case 'back':
      return t('{name} is back at seat {seat}', { name, seat });
    case 'server_plays':
      return t('{name} did not come back: the server plays seat {seat} (their token still takes it back)', { name, seat });
    case 'kicked':
      return m.then === 'free'
        ? t('{name} was kicked by the host: seat {seat} is free', { name, seat })
        : t('{name} (seat {seat}) was kicked: a {policy} bot plays it', { name, seat, policy: policyText(m.policy || 'best') });
    case 'removed':
      return m.reason === 'not_back' ? t('{name} did not come back: seat {seat} is free', { name, seat }) : t('the host emptied seat {seat} ({name})', { name, seat });
    case 'host':
      if (m.reason === 'left') return t('{name} is the host now ({former} left)', { name, former: m.former || '' });
      if (m.reason === 'not_back') return t('{name} is the host now ({former} did not come back)', { name, former: m.former || '' });
      return t('{name} is the host now', { name });
    case 'paused':
      if (m.reason === 'restart') return tn('the server restarted: the game waits for its players to come back (at most {n} second; the host may resume it)', 'the server restarted: the game waits for its players to come back (at most {n} s; the host may resume it)', m.wait_s || 0);
      return t('{name} paused the game', { name });
    case 'resumed':
      switch (m.reason) {
        case 'everyone_back': return t('everyone is back: the game goes on');
        case 'restart': return t('the server restarted: the game goes on');
        case 'restart_seeds': return t('the server restarted: the seeds that were in are kept');
        case 'wait_over': return t('the wait for the players is over: the game goes on');
        case 'journal': return t('the game goes on');
        default: return name ? t('{name} resumed the game', { name }) : t('the game goes on');
      }
    case 'bot_added':
      return t('a {policy} bot takes seat {seat}', { policy: policyText(m.policy), seat });
    case 'seat_added':
      return t('{by} added seat {seat}', { by: m.by || '', seat });
    case 'seat_removed':
      return t('{by} removed seat {seat}', { by: m.by || '', seat });
    case 'auto_start':
      if (m.failed) return t('the game could not start: {why}', { why: errorText({ code: m.code, args: m.args || {}, message: '' }) });
      if (!m.bots) return t('time is up: the game starts');
      return tn('time is up: {n} bot takes the free seats, and the game starts', 'time is up: {n} bots take the free seats, and the game starts', m.bots);
    case 'journal':
      if (m.state === 'failing') return t('The server cannot save this room right now ({cause}): the game is paused and goes on by itself when saving works again. Nothing is lost.', { cause: m.cause || '' });
      return m.paused ? t('The server can save this room again.') : t('The server can save this room again: it goes on.');
    case 'seed':
      return t('a client seed from {by} is in', { by: seedByText(m.by) });
    case 'table':
      return m.pace === 'auto'
        ? tn('the seeds are in ({n}): the dice come by themselves', 'the seeds are in ({n}): the dice come by themselves', m.seeds || 0)
        : tn('the seeds are in ({n}): the host throws with "next"', 'the seeds are in ({n}): the host throws with "next"', m.seeds || 0);
    default:
      return fallback(m, m.text);
  }
}

// Whose device sent a table game's client seed: the server's own two names are worded here.
export function seedByText(by) {
  if (by === "host's page") return t("host's page");
  if (by === 'a phone at the table') return t('a phone at the table');
  return String(by || '');
}

function rollText(round, face) {
  return tn('Round {round}: roll {n}. Everyone moves one piece {n} square.', 'Round {round}: roll {n}. Everyone moves one piece {n} squares.', face, { round });
}

function activationText(round, face, character) {
  const c = characterText(character);
  return t('Round {round}: activation {face}. The {character} wakes: every piece on its squares {action}.', { round, face, character: c.name, action: c.action });
}

function throwText(turn, name, face, nextName, again) {
  if (face === 6 && again) return t('Throw {turn}: {name} throws {face}. {name} throws again.', { turn, name, face });
  if (face === 6) return t('Throw {turn}: {name} throws {face}. The third 6 in a row: it is not played and the turn ends. Next: {next}.', { turn, name, face, next: nextName });
  return t('Throw {turn}: {name} throws {face}. Next: {next}.', { turn, name, face, next: nextName });
}

// A game event: a whole message (`type`: roll, activation, roll_off, throw, turn_skipped, moves,
// decision_timeout, game_over), or one of a Ludo message's `events` (`kind`). `opts.name(seat)`
// names a room seat (else the colour alone says who).
export function eventText(e, opts = {}) {
  const named = (seat, colour) => {
    const c = colour ? colourText(colour) : '';
    const n = opts.name && seat !== undefined && seat !== null && seat >= 0 ? opts.name(seat) : '';
    if (n && c) return t('{name} ({colour})', { name: n, colour: c });
    return n || c || t('seat {seat}', { seat: seatNo(seat) });
  };
  switch (e.type) {
    case 'roll':
      return rollText(e.round, e.face);
    case 'activation':
      return activationText(e.round, e.face, e.character);
    case 'roll_off': {
      const names = e.names || [];
      const who = (i) => names[i] || (opts.name ? opts.name(i) : t('seat {seat}', { seat: seatNo(i) }));
      if (e.table) {
        const throws = (e.events || []).filter((x) => x.kind === 'roll_off_throw').map((x) => t('{name} {face}', { name: who(x.seat), face: x.face }));
        return t('Roll-off: {throws}. {name} starts.', { throws: throws.join(', '), name: who(e.starts) });
      }
      return t('{name} starts.', { name: named(e.starts) });
    }
    case 'throw':
      if (e.table) return throwText(e.turn, e.name || '', e.face, e.next_name || '', e.next === e.seat);
      return t('{name} throws {face}', { name: named(e.seat), face: e.face });
    case 'turn_skipped':
      return t("{name}'s turn is skipped. Next: {next}.", { name: e.name || '', next: e.next_name || '' });
    case 'moves':
      return (e.moves || []).map((x) => (x.stays || x.piece === undefined || x.piece === null
        ? t('{name} cannot move and stays put.', { name: named(x.seat) })
        : t('{name} moves piece {piece} from square {from} to {to}.', { name: named(x.seat), piece: x.piece, from: x.from, to: x.to }))).join(' ');
    case 'decision_timeout':
      return t("Time's up! The server makes the best move for you.");
    case 'game_over':
      return e.status === 'finished' ? t('Game over!') : abandonedText(e);
    default:
      break;
  }
  const who = named(e.seat, e.colour);
  switch (e.kind) {
    case 'roll_off_throw': return t('{name} throws {face} in the roll-off', { name: who, face: e.face });
    case 'starts': return t('{name} starts', { name: who });
    case 'throw': return t('turn {turn}: {name} throws {face}', { turn: e.turn || '?', name: who, face: e.face });
    case 'pass': return t('{name} cannot move; play passes on', { name: who });
    case 'three_sixes': return t('{name} threw a third 6 in a row; it is not played', { name: who });
    case 'entered': return t('{name} brings piece {piece} out to {to}', { name: who, piece: e.piece, to: e.to });
    case 'moved': return t('{name} moves piece {piece} from {from} to {to}', { name: who, piece: e.piece, from: e.from, to: e.to });
    case 'captured': return t('{name} piece {piece} is captured on circuit square {square} and goes back to its yard', { name: who, piece: e.piece, square: e.square });
    case 'reached_home': return t('{name} piece {piece} reaches home', { name: who, piece: e.piece });
    case 'finished': return t('{name} has all four pieces home', { name: who });
    case 'extra_throw':
      if (e.reason === 'capture') return t('{name} throws again: a bonus throw for the capture', { name: who });
      if (e.reason === 'home') return t('{name} throws again: a bonus throw for the piece home', { name: who });
      return t('{name} throws again', { name: who });
    case 'safe_square': return t('{name} piece {piece} lands on safe square {square}: no capture', { name: who, piece: e.piece, square: e.square });
    case 'circles': return t('{name} piece {piece} has not captured yet, so it passes its home column and goes round again', { name: who, piece: e.piece });
    case 'team_finished': return t('{name} and their partner have all their pieces home and win as a team', { name: who });
    case 'turn': return t('{name} to throw', { name: who });
    case 'game_over': return t('game over');
    default: return fallback(e, e.text);
  }
}

// An abandoned game's line.
export function abandonedText(over) {
  switch (over.cause) {
    case 'host': return t('The game was abandoned: the host ended the game.');
    case 'nobody_left': return t('The game was abandoned: no player is left.');
    case 'shutdown': return t('The game was abandoned: the server is shutting down.');
    case 'could_not_start': return t('The game was abandoned: the game could not start.');
    case 'internal_error': return t('The game was abandoned: an internal error.');
    default: return over.reason ? t('The game was abandoned: {reason}.', { reason: over.reason }) : t('The game was abandoned.');
  }
}

// The last announcement of a table game, from the snapshot's `table`.
export function tableLastText(table) {
  if (!table || !table.last_kind) return table && table.last ? fallback({}, table.last) : '';
  const names = table.names || [];
  const name = (i) => names[i] || '?';
  switch (table.last_kind) {
    case 'movement': return rollText(table.last_step, table.face);
    case 'activation': return activationText(table.last_step, table.face, table.last_character);
    case 'roll_off': return t('Roll-off: {name} starts.', { name: name(table.last_seat) });
    case 'throw': return throwText(table.last_step, name(table.last_seat), table.face, name(table.last_next), table.last_next === table.last_seat);
    case 'skip': return t("{name}'s turn is skipped. Next: {next}.", { name: name(table.last_seat), next: name(table.last_next) });
    default: return fallback({}, table.last);
  }
}

function nameProblemText(a) {
  switch (a.reason) {
    case 'not_utf8': return t('That name is not valid text.');
    case 'empty': return t('Enter a name.');
    case 'only_spaces': return t('A name needs more than spaces.');
    case 'control': return t('That name contains a control character ({char}).', { char: a.char || '' });
    case 'invisible': return t('That name contains an invisible character ({char}) that could make it look like another name.', { char: a.char || '' });
    case 'blank': return t('That name contains a character that shows as nothing ({char}).', { char: a.char || '' });
    case 'other_space': return t('That name contains a space other than the plain space ({char}).', { char: a.char || '' });
    case 'edge_space': return t('A name cannot start or end with a space.');
    case 'double_space': return t('A name cannot have two spaces in a row.');
    case 'too_long': return tn('That name is {length} characters long: at most {n} character.', 'That name is {length} characters long: at most {n} characters.', a.max || 24, { length: a.length });
    case 'bot_form': return t('That name has the form of the names the server gives its bots ("<policy> bot <n>").');
    default: return t('That name cannot be used.');
  }
}

function wrongStateText(a) {
  switch (a.reason) {
    case 'lobby_only': return t('That can be done in the lobby only, before a game.');
    case 'game_on': return t('A game is already on.');
    case 'nothing_to_pause': return t('There is nothing to pause.');
    case 'not_paused': return t('The game is not paused.');
    case 'no_game': return t('There is no game to end.');
    case 'seed_window_closed': return t('The seed window closed with the host\'s first "next".');
    case 'not_seeding': return t('Client seeds are sent after the commitment, before the game.');
    case 'seed_in': return t('Your client seed is already in.');
    case 'seeds_full': return t('The table has {max} client seeds already: that is the most.', { max: a.max });
    case 'table_game': return t('This is a table game: the players sit at the table; watch it instead.');
    case 'not_table': return t('This room is not a table game.');
    case 'no_table_game': return t('No table game is on: start one first.');
    case 'not_started': return t('The game has not started: "next" starts it.');
    case 'game_over': return t('The game is over.');
    case 'dice_max': return t('This game has had {max} dice, the most a table game has: end it.', { max: a.max });
    case 'no_turns': return t('Turns are skipped in Ludo only.');
    case 'table_seats_taken': return tn('A table game\'s players sit at the table: {n} other seat is taken in the room (remove it first).', 'A table game\'s players sit at the table: {n} other seats are taken in the room (remove them first).', a.taken || 0);
    case 'no_table_names': return t('Enter the table\'s names first.');
    case 'cannot_start': return t('The game cannot start: {detail}', { detail: a.detail || '' });
    case 'waiting': return t('Wait for the answer to your last message.');
    case 'not_for_room': return t('That message is not for a room.');
    default: return t('That is not possible now.');
  }
}

// An error, by code. `ctx`: { host: the reader is the host, game: 'spook' | 'ludo' }.
export function errorText(e, ctx = {}) {
  const a = e.args || {};
  switch (e.code) {
    case 'bad_json': return t('The server could not read that message.');
    case 'unknown_type': return t('The server does not know that message ({type}).', { type: a.type || '' });
    case 'bad_field':
      if (a.reason === 'seats_taken') return tn('{n} seat is taken: the room needs at least that many.', '{n} seats are taken: the room needs at least that many.', a.taken || 0);
      // A server before the args said the field in its message only.
      if ((a.field === 'options.players' || (!a.field && e.ref === 'set_options' && /players/.test(String(e.message || '')))) && ctx.game) return ctx.game === 'ludo' ? t('Ludo takes 2 to 4 players.') : t('Spook & Werewolf takes 1 to 8 players.');
      if (a.reason === 'not_at_table') return t('{name} is not a name at this table ({names}).', { name: a.name || '', names: a.names || '' });
      if (a.reason === 'twice') return t('{name} is named twice.', { name: a.name || '' });
      if (a.reason === 'free') return t('Seat {seat} is free already.', { seat: seatNo(a.seat) });
      if (a.reason === 'host') return t("Seat {seat} is the host's own seat.", { seat: seatNo(a.seat) });
      if (a.reason === 'no_seat') return t('Seat {seat} is not a seat of this room.', { seat: seatNo(a.seat) });
      if (a.reason === 'bot') return t('Seat {seat} is a bot: remove it in the lobby.', { seat: seatNo(a.seat) });
      if (a.reason === 'no_player') return t('Seat {seat} is not a player you can kick.', { seat: seatNo(a.seat) });
      if (a.reason === 'teams_players') return t('Teams are two against two: they need 4 seats.');
      if (a.reason === 'teams_play_on') return t('Teams do not play on for places: the game ends when the first team has all its pieces home.');
      if (a.reason === 'table_house_rules') return t('A game at a table keeps only the house rule "three 6s end the turn": the server cannot see captures, safe squares or teams on a paper board.');
      if (a.reason === 'preset') return t('{field} contradicts the Home rules: drop the preset and choose the rules one by one.', { field: a.field });
      if (a.field) return t('The server refused the value of {field}.', { field: a.field });
      return t('The server refused a value in that message.');
    case 'version_mismatch':
      if (a.client === undefined || a.server === undefined) return String(e.message || ''); // another version's server: its own words
      return t('This page speaks protocol {client} and the server {server}: reload the page.', { client: a.client, server: a.server });
    case 'hello_first': return t('The connection was not set up: try again.');
    case 'too_large': return t('That message is too long for the server.');
    case 'binary_frame': return t('The server takes text messages only.');
    case 'bad_reaction': return t('That reaction is not one of the set.');
    case 'rate_limited':
      switch (a.limit) {
        case 'reaction_sender': return t('One reaction every 2 seconds: try again in a moment.');
        case 'reaction_room': return t('This room has had its reactions for now: try again in a moment.');
        case 'board_solves': return tn('Games with random boards are limited for now: try again in {n} second, or play on balanced boards.', 'Games with random boards are limited for now: try again in {n} seconds, or play on balanced boards.', a.retry_after_s || 0);
        default: return t('Too many messages: slow down a little.');
      }
    case 'room_not_found':
      if (a.reason === 'closed') return t('The room is closed.');
      return t('There is no room {room} on this server (check the code; a room closes when everyone has left).', { room: a.room || '' });
    case 'room_lost':
      return a.record
        ? t('Room {room} was lost when the server restarted; its game\'s record up to its last checked step is kept at {record}. Sorry: a new room is needed to play on.', { room: a.room || '', record: a.record })
        : t('Room {room} was lost when the server restarted. Sorry: a new room is needed to play on.', { room: a.room || '' });
    case 'room_full':
      if (a.reason === 'spectators') return t('The room has its maximum of spectators.');
      return ctx.host ? t('The room is full: add a seat with +.') : t('The room is full.');
    case 'server_full':
      switch (a.limit) {
        case 'rooms_per_address': return t('Your address holds {holds} open rooms on this server, and one address may hold at most {max}: a room stays open until everyone has left it.', { holds: a.holds, max: a.max });
        case 'shutting_down': return t('The server is shutting down.');
        default: return t('The server is full: try again later.');
      }
    case 'name_taken': return t('The name {name} is taken in this room.', { name: a.name || '' });
    case 'bad_name': return a.name ? t('The name {name} is refused: {why}', { name: a.name, why: nameProblemText(a) }) : nameProblemText(a);
    case 'bad_token': return t('That seat cannot be taken back (its player left or was removed, or the game is over).');
    case 'not_in_room': return t('Create or join a room first.');
    case 'not_host': return t('Only the host can do that.');
    case 'not_a_player':
      if (a.reason === 'react') return t('Spectators may not send reactions in this room: the host can allow it.');
      if (a.reason === 'choose') return t('Spectators cannot choose.');
      return t('Only seated players can do that.');
    case 'wrong_state': return wrongStateText(a);
    case 'stale_decision': return t('That decision is over.');
    case 'paused': return a.reason === 'choose' || e.ref === 'choose' ? t('The game is paused: choose when it resumes (your time is kept).') : t('The game is paused: resume it first.');
    case 'unavailable':
      if (a.reason === 'cluster_store') return t('The server cannot do that right now: try again in a moment.');
      if (a.reason === 'room_moving') return t('The room is moving to another server: try again in a few seconds.');
      return t('The server cannot save the game right now: it is paused and goes on by itself when it can ({cause}).', { cause: a.cause || '' });
    case 'illegal_choice':
      switch (a.reason) {
        case 'exact_throw': return a.square !== undefined
          ? t('Piece {piece} on square {square} cannot move {face}: the church needs an exact throw of {needed}.', { piece: a.piece, square: a.square, face: a.face, needed: a.needed })
          : t('Piece {piece} needs exactly {needed} to reach home (the throw is {face}).', { piece: a.piece, face: a.face, needed: a.needed });
        case 'needs_six': return t('Piece {piece} is in the yard: only a 6 brings it out (the throw is {face}).', { piece: a.piece, face: a.face });
        case 'home_already': return t('Piece {piece} is home already.', { piece: a.piece });
        case 'entry_blocked': return t('Piece {piece} cannot come out: a block stands on square {square}.', { piece: a.piece, square: a.square });
        case 'path_blocked': return t('Piece {piece} cannot pass or land on the block on square {square}.', { piece: a.piece, square: a.square });
        case 'no_piece': return t('There is no piece {piece}.', { piece: a.piece });
        default: return t('The rules do not allow that move.');
      }
    case 'already_in_room':
      if (a.reason === 'watching') return t('You are watching this room: a seat can be taken in the lobby, when the game is over.');
      if (a.reason === 'other_room') return t('You are in room {room}: leave it first.', { room: a.room || '' });
      return t('You are already in this room.');
    case 'internal_error': return t('The server could not handle that message.');
    default:
      return t('The server said: {message}', { message: e.message || e.code || '?' });
  }
}
