// The page's session with the game server: the connection, the room this page is in (or on its way
// into) and its View, which every screen draws; entering and leaving a room; and what each server
// message does besides updating the View (the seat's token kept in this browser, this page's part
// of the dice seed, the last game's record and the page's own check of its dice, what a screen
// reader is told at once). The screens read the state exported here (live bindings: they always
// see its current value) and change it only through the functions exported here; app.js hands its
// drawing of the page to drawWith().
import { $ } from './dom.js';
import { View } from './view.js';
import { Connection } from './net.js';
import * as store from './store.js';
import { resetStory } from './frame.js';
import { ReactionBoard } from './reactions.js';
import { hear } from './announce.js';
import { t, tn } from './i18n.js';
import { noLimitAnnouncement } from './more_time.js';
import { DiceWatch, checkGame } from './dice_check.js';

export const now = () => performance.now();
const ENTERING = ['create_room', 'join_room', 'watch', 'resume'];

export let view = new View();
export let intent = null; // the message that takes us into the room, sent after every (re)connection
let inThisConnection = false; // `joined` seen on the current connection
export let homeMessage = ''; // why we are back on the first screen
let seedSentFor = '';
export let serverWelcome = {}; // the server's welcome: where others reach it (public_url, lan_urls)
export let leftRoom = ''; // the room this page last left: the first screen's room-code field holds it
// The last finished game's record, fetched at its end and kept in this page: its download works
// after the server has gone (a demo's, a laptop closed), when the record's address no longer answers.
export let savedRecord = null; // { gameId, file: '<id>.json', href: a blob: URL }
export let serverGone = ''; // why the server ended this page's connection for good ('' while it runs)
// This page's own check of the last game's dice (dice_check.js): { gameId, result }, the result
// null while the check runs. The dice it saw are kept in the tab (sessionStorage) across a reload.
export let diceCheck = null;
let diceTimer = null;
const dice = new DiceWatch({
  load: store.diceFor,
  changed() {
    diceTimer ??= setTimeout(() => {
      diceTimer = null;
      if (dice.g) store.saveDice(dice.g);
    }, 1000);
  },
});
addEventListener('pagehide', () => dice.g && store.saveDice(dice.g));

// The whole page drawn again from the state (app.js's render), after every change.
let draw = () => {};

export function drawWith(fn) {
  draw = fn;
}

export function render() {
  draw();
}

// The room's quick reactions as this page shows them (reactions.js).
export const reactions = new ReactionBoard({ now: () => performance.now(), onchange: () => render() });

// Sends a reaction; the buttons wait the server's 2 s.
export function react(id) {
  if (send({ type: 'react', reaction: id })) reactions.sent();
  render();
}

// Whether this page may send reactions, and why not: players may; spectators when the host allows it.
export function reactionRights() {
  if (!view.snapshot) return { canSend: false, why: '' };
  if (!view.isSpectator && view.seat >= 0) return { canSend: true, why: '' };
  if (view.isSpectator && view.snapshot.settings && view.snapshot.settings.spectator_reactions) return { canSend: true, why: '' };
  return { canSend: false, why: t('Spectators may not send reactions here (the host can allow it).') };
}

const conn = new Connection({
  onopen() {
    inThisConnection = false;
    if (intent) conn.send(intent);
    render();
  },
  onmessage: handle,
  onstatus(text) {
    const el = $('conn');
    el.textContent = text;
    el.hidden = !text;
  },
  onlost() {
    inThisConnection = false;
    view.setDisconnected(true, now());
    render();
  },
});

// ---- Entering and leaving a room -------------------------------------------------------------

export function codeFromPath() {
  const m = /^\/(r|tv)\/([A-Za-z]{5})\/?$/.exec(location.pathname);
  return m ? m[2].toUpperCase() : '';
}

// The room of a shared screen's address (/tv/CODE), '' on any other page.
export function tvRoomFromPath() {
  const m = /^\/tv\/([A-Za-z]{5})\/?$/.exec(location.pathname);
  return m ? m[1].toUpperCase() : '';
}

export function enter(message) {
  view = new View();
  reactions.clear();
  resetStory();
  homeMessage = '';
  serverGone = '';
  intent = message;
  if (conn.open) conn.send(message);
  else conn.start();
  render();
}

// The record of a game that just ended, fetched once (its text, or null): the end screen's
// download and the dice check.
let recordFetch = { gameId: '', text: Promise.resolve(null) };
function recordText(over) {
  if (!over.record) return Promise.resolve(null);
  if (recordFetch.gameId !== over.game_id) {
    recordFetch = { gameId: over.game_id, text: fetch(over.record, { cache: 'no-store' })
      .then((res) => (res.ok ? res.text() : null))
      .catch(() => null) }; // the server went away first: the address and its command stay shown
  }
  return recordFetch.text;
}

// Keeps the record of a game that just ended in this page, for the end screen's download.
async function keepRecord(over) {
  const text = await recordText(over);
  if (text === null) return;
  const blob = new Blob([text], { type: 'application/json' });
  if (savedRecord) URL.revokeObjectURL(savedRecord.href);
  savedRecord = { gameId: over.game_id, file: `${over.game_id}.json`, href: URL.createObjectURL(blob) };
  render();
}

// Checks the dice of the game that ended (`over`, its game_over) from what this page saw, and the
// game's record for what it did not (dice_check.js); the end screens show the result.
async function checkDice(over) {
  const state = (diceCheck = { gameId: over.game_id, result: null });
  let record = null;
  try {
    record = JSON.parse(await recordText(over));
  } catch {
    /* no record, or not JSON: the check says what it could do without */
  }
  let result;
  try {
    result = await checkGame(dice.forGame(over.game_id), over, record);
  } catch {
    result = { verdict: 'unchecked', why: 'nothing_seen', checked: 0, total: null };
  }
  if (diceCheck !== state) return;
  state.result = result;
  render();
}

function backHome(message) {
  conn.stop();
  intent = null;
  homeMessage = message || '';
  const room = view.room;
  view = new View();
  view.room = '';
  if (room && codeFromPath() !== room) history.replaceState(null, '', `/r/${room}`);
  render();
}

export function leave() {
  if (view.room) store.forgetSeat(view.room);
  leftRoom = view.room || leftRoom;
  conn.send({ type: 'leave' });
  conn.stop();
  intent = null;
  view = new View();
  homeMessage = '';
  history.replaceState(null, '', '/');
  render();
}

// This page's client seed for the game just committed: random, and kept to check that it went in.
function sendSeed(gameId) {
  const seed = randomSeed();
  conn.send({ type: 'client_seed', seed });
  seedSentFor = gameId;
  dice.sentSeed(view.seat, seed);
}

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function send(message) {
  if (!conn.send(message)) {
    view.say('error', t('Not connected: trying again…'));
    render();
    return false;
  }
  return true;
}

function handle(m) {
  const at = now();
  if (m.type === 'welcome') {
    serverWelcome = m;
    return;
  }
  dice.observe(m); // the dice and what the stream needs, for this page's own check at the end
  if (m.type === 'reaction') {
    reactions.receive(m);
    render();
    return;
  }
  if (m.type === 'error' && m.ref === 'react') {
    // The buttons say the wait already: only another refusal is a line of the story.
    reactions.refused(m);
    if (m.code !== 'rate_limited') view.apply(m, at);
    render();
    return;
  }
  if (m.type === 'joined') {
    inThisConnection = true;
    // Entered with a seat's token (a refresh, a reopened tab): not a reconnection of this page.
    if (intent && intent.type === 'resume' && view.seat < 0) view.cameBack = true;
    view.setDisconnected(false, at);
    if (m.role === 'player' && m.token) {
      const name = (intent && intent.name) || (store.seatFor(m.room) || {}).name || store.savedName();
      intent = { type: 'resume', room: m.room, token: m.token };
      store.saveSeat(m.room, { token: m.token, name, seat: m.seat });
    } else {
      intent = { type: 'watch', room: m.room };
    }
    if (codeFromPath() !== m.room) history.replaceState(null, '', `/r/${m.room}`);
  } else if (m.type === 'redirect') {
    // Only a redirect the connection would not follow comes here (one too many).
    backHome(t('The server sent this page from node to node without finding the room: try again in a moment.'));
    return;
  } else if (m.type === 'error' && m.code === 'unavailable' && ENTERING.includes(m.ref) && m.ref !== 'create_room') {
    // The room cannot save anything right now (the server's disk), or a cluster's room is moving
    // to another node: the seat is still ours; come back in a moment, as after a drop.
    view.apply(m, at);
    conn.lost();
    return;
  } else if (m.type === 'error' && ENTERING.includes(m.ref) && !inThisConnection) {
    // The way in was refused: a seat that cannot be taken back, a wrong code, a name taken...
    const room = (intent && intent.room) || view.room;
    if ((m.ref === 'resume' || m.code === 'room_lost') && room) store.forgetSeat(room);
    const words = m.code === 'bad_token'
      ? t('Your seat in room {code} cannot be taken back (you left, were removed, or the game ended): join again.', { code: room })
      : m.code === 'room_lost' ? view.errorWords(m)
      : m.code === 'room_not_found' ? (m.ref === 'resume'
        ? t('Room {code} is not on this server any more (it closed, or the server lost it): your seat there is gone.', { code: room || '' })
        : t('There is no room {code} on this server (check the code; a room closes when everyone has left).', { code: room || '' }))
        : view.errorWords(m);
    backHome(words);
    return;
  } else if (m.type === 'kicked') {
    if (view.room) store.forgetSeat(view.room);
    view.apply(m, at);
    backHome(t('You were removed from room {code} by the host.', { code: m.room || view.room }));
    return;
  } else if (m.type === 'closing' && m.code === 'restart') {
    // The server restarts and keeps the room: the connection comes back by itself (with the
    // seat's token) and the game waits for its players.
    view.apply(m, at);
    return;
  } else if (m.type === 'closing') {
    // The server ends this connection: it is shutting down, or this seat was taken back from
    // another tab or device. Coming back by itself would take the seat from that one in turn, so
    // the first screen offers it instead.
    view.apply(m, at);
    // Gone for good: the seat is no more, and the last game's record is offered as a download.
    if (m.code === 'shutdown') {
      if (view.room) store.forgetSeat(view.room);
      serverGone = m.reason || 'the server is shutting down';
    }
    const reason = m.reason || t('no reason given');
    backHome(m.code === 'replaced'
      ? t('Your seat is now played from another tab or device. To play it here instead, take it back below.')
      : m.code === 'shutdown' ? t('The server has stopped for good ({reason}): the room is closed.', { reason })
        : t('The server closed this connection: {reason}.', { reason }));
    return;
  } else if (m.type === 'commitment') {
    if (view.seat >= 0 && !view.isSpectator) sendSeed(m.game_id);
  } else if (m.type === 'room' && m.state === 'seeding' && view.seat >= 0 && !view.isSpectator && m.game_id && seedSentFor !== m.game_id) {
    sendSeed(m.game_id);
  }
  view.apply(m, at);
  hear(m, view); // said aloud when this page announces the game (announce.js)
  if (m.type === 'game_over' && m.record) keepRecord(m);
  const over = view.result && view.result.over;
  if (over && over.server_seed && (!diceCheck || diceCheck.gameId !== over.game_id)) checkDice(over);
  if (m.type === 'decision' && m.seat === view.seat) {
    // Said at once to a screen reader: the story is read politely, a choice cannot wait.
    const n = (m.options || []).length;
    announce(m.time_left_ms === undefined
      ? noLimitAnnouncement(n)
      : tn('Your move: choose 1 to {options} within {n} second.', 'Your move: choose 1 to {options} within {n} seconds.',
        Math.ceil(m.time_left_ms / 1000), { options: n }));
  } else if (m.type === 'decision_timeout') {
    announce(t("Time's up! The server makes the best move for you."));
  }
  render();
}

function announce(text) {
  const el = $('announce');
  el.textContent = '';
  setTimeout(() => (el.textContent = text), 50);
}
