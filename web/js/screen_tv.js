// The shared screen (/tv/CODE): a room shown on a television or a projector, as a spectator that
// holds no seat, read from three metres. In the lobby: how to join (the code, the link and its QR
// code, unless hidden for a stream) and the seats filling. In a game: every seat's board at once
// (Spook) or the cross (Ludo), the die, who still has to choose and their time, the woken monster
// with the squares it acts on and the pieces it moved, the last lines of the story. At the end:
// the winners and the places, its own check of the dice and the link to the replay. It speaks the
// game aloud (announce.js) unless muted.
import { $, h, sentence } from './dom.js';
import { qrCode } from './qr.js';
import { CHARACTERS } from './view.js';
import { spookBoard, chip } from './spook.js';
import { ludoBoard, colourMark } from './ludo.js';
import { geometry, YARD } from './ludo_geo.js';
import { t, tn } from './i18n.js';
import { characterName, characterAction, colourName, andList, seedsText, houseRulesText, teamsText } from './game_words.js';
import { view, now, render, homeMessage, reactions, diceCheck } from './session.js';
import { diceCheckSection } from './dice_words.js';
import { reactionText } from './reactions.js';
import { joinBase, optionsText } from './screen_lobby.js';
import { positionsText } from './shared.js';
import * as announce from './announce.js';
import { tableLastText, abandonedText, seedByText } from './words.js';

// Hidden: no room code and no QR code anywhere on this screen (?hide=code; the switch keeps it in the address).
let hidden = new URLSearchParams(location.search).get('hide') === 'code';

export function codeHidden() {
  return hidden;
}

// A text with the room's code blanked out when the code is hidden.
function mask(text) {
  return hidden && view.room ? String(text).split(view.room).join('•••••') : String(text);
}

function toggleHidden() {
  hidden = !hidden;
  history.replaceState(null, '', `${location.pathname}${hidden ? '?hide=code' : ''}`);
  render();
}

function header() {
  const playing = view.inGame || view.state === 'playing';
  let status = view.state === 'lobby' ? t('Waiting for players') : view.state === 'seeding' ? t('A game is starting') : '';
  if (view.showingResult) status = t('Game over');
  else if (playing) status = view.options.game === 'ludo' ? t('Turn {n}', { n: view.turn }) : t('Round {n}', { n: view.round });
  const on = announce.speaking();
  return h('header', { class: 'tv-head' },
    h('span', { class: 'tv-brand' }, 'SpookLudo'),
    hidden || !view.room ? null : h('span', { class: 'tv-room' }, t('Room'), ' ', h('strong', { id: 'tv-code' }, view.room)),
    status ? h('span', { class: 'tv-status', id: 'tv-status' }, status) : null,
    view.paused ? h('span', { class: 'tv-paused', id: 'tv-paused' }, t('Paused')) : null,
    h('span', { class: 'tv-controls' },
      announce.available() ? h('button', { type: 'button', id: 'tv-sound', 'data-fk': 'tv-sound', 'aria-pressed': String(on), onclick: () => {
        announce.setSpeaking(!on);
        render();
      } }, on ? t('Sound on') : t('Muted')) : null,
      h('button', { type: 'button', id: 'tv-react-mute', 'data-fk': 'tv-react-mute', 'aria-pressed': String(reactions.muted), onclick: () => {
        reactions.setMuted(!reactions.muted);
        render();
      } }, reactions.muted ? t('Show reactions') : t('Hide reactions')),
      h('button', { type: 'button', id: 'tv-hide', 'data-fk': 'tv-hide', 'aria-pressed': String(hidden), onclick: toggleHidden },
        hidden ? t('Show the code') : t('Hide the code'))));
}

function gestureHint() {
  return announce.needsGesture()
    ? h('p', { class: 'tv-hint', id: 'tv-gesture' }, t('Click or press a key once on this screen to let it speak.'))
    : null;
}

function joinPanel() {
  if (hidden) {
    return h('section', { class: 'tv-join', id: 'tv-join' }, h('h2', null, t('Join the game')),
      h('p', { id: 'tv-hidden-note' }, t('The host shares the link to join: the room code is not shown on this screen.')));
  }
  const link = `${joinBase()}/r/${view.room}`;
  let qr = null;
  try {
    qr = qrCode(link);
  } catch {
    qr = null;
  }
  return h('section', { class: 'tv-join', id: 'tv-join' },
    h('h2', null, t('Join the game')),
    h('div', { class: 'tv-join-row' },
      qr ? h('div', { class: 'qr tv-qr', role: 'img', 'aria-label': t('QR code of {link}', { link }) }, qr) : null,
      h('div', null,
        h('p', null, t('Scan the code with a phone, or open')),
        h('p', { class: 'tv-link', id: 'tv-link' }, link),
        h('p', null, t('Room code'), ' ', h('strong', { class: 'tv-bigcode' }, view.room)))));
}

function lobbyTv() {
  const s = view.snapshot;
  const seats = view.roomSeats();
  const taken = seats.filter((seat) => view.seatView(seat)).length;
  return h('div', { class: 'tv-lobby' }, joinPanel(),
    h('section', { class: 'tv-seats' },
      h('h2', null, t('Seats: {taken} of {seats} taken', { taken, seats: seats.length })),
      h('ol', { id: 'tv-seats', class: 'plain' }, seats.map((seat) => {
        const sv = view.seatView(seat);
        return h('li', { class: ['tv-seat', !sv && 'free'] }, h('span', { class: 'tv-seat-no' }, String(seat + 1)),
          sv ? seatLine(sv.name, sv.bot, s.host === seat) : t('free'));
      })),
      h('p', { class: 'tv-note' }, optionsText(s.options)),
      houseRulesText(s.options) ? h('p', { class: 'tv-note', id: 'tv-rules' }, houseRulesText(s.options), ' ', teamsText(s.options, seats, (x) => view.seatName(x))) : null,
      h('p', { id: 'tv-autostart', class: 'tv-note' }), reactionsSpot()));
}

// A seat in the lobby's list: "Ann (host)", "Bot 1 (bot)".
function seatLine(name, bot, host) {
  if (bot && host) return t('{name} (bot, host)', { name });
  if (bot) return t('{name} (bot)', { name });
  if (host) return t('{name} (host)', { name });
  return name;
}

function die(face, label) {
  const none = face === null || face === undefined;
  return h('div', { class: 'tv-die-wrap' },
    h('span', { class: 'tv-die', id: 'tv-die', 'aria-label': none ? t('the die: not rolled yet') : t('the die: {face}', { face }) }, none ? '–' : String(face)),
    h('span', { class: 'tv-die-label' }, label));
}

function choosing() {
  return h('p', { id: 'tv-choosing', class: 'tv-choosing' }, view.choosingText(now()));
}

function story() {
  const lines = view.log.slice(-4);
  return h('ol', { class: 'plain tv-story', id: 'tv-story' }, lines.map((l) => h('li', { class: `k-${l.kind}` }, mask(l.text))));
}

// The quick reactions (reactions.js) of the last seconds, large: "Ben: phew". The room's
// ReactionBoard redraws the screen when one comes or goes; muted (the header's switch), none.
function reactionsSpot() {
  return h('ul', { id: 'tv-reactions', class: 'plain tv-reactions', 'aria-live': 'polite' },
    reactions.recent().map((r) => h('li', { class: ['tv-reaction', r.role === 'spectator' && 'spectator'], dataset: { key: r.key } },
      h('span', { class: 'who' }, r.name), ': ', h('span', { class: 'what' }, reactionText(r)))));
}

function activation() {
  const a = view.activation;
  if (!a) return null;
  const c = CHARACTERS[a.character] || { letter: '?', name: a.name };
  const name = characterName(a.character, a.name);
  const moved = (a.moved || []).filter((x) => x.piece !== undefined && x.piece !== null);
  return h('section', { class: 'tv-act', id: 'tv-activation' },
    h('p', { class: 'tv-act-head' }, h('span', { class: 'act-die', 'aria-label': t('the die: {face}', { face: a.face }) }, String(a.face)), chip(c.letter), ' ',
      t("It's the {character}: any piece on it {action}.", { character: name, action: characterAction(a.character) })),
    moved.length
      ? h('ul', { class: 'plain' }, moved.slice(0, 6).map((x) => h('li', null, t('{name}: {from} → {to}', { name: view.seatName(x.seat), from: x.from, to: x.to >= 40 ? t('church') : x.to }))),
        moved.length > 6 ? h('li', null, tn('and {n} more', 'and {n} more', moved.length - 6)) : null)
      : h('p', null, t('Nobody stands on the {character}.', { character: name })));
}

function spookTv() {
  const woken = view.activation && CHARACTERS[view.activation.character] ? CHARACTERS[view.activation.character].letter : null;
  const seats = view.playSeats;
  const n = seats.length <= 2 ? 'n2' : seats.length <= 4 ? 'n4' : seats.length <= 6 ? 'n6' : 'n8';
  return h('div', { class: 'tv-game' },
    h('div', { class: ['tv-boards', n], id: 'tv-boards' }, seats.map((seat) => h('div', { class: 'tv-board' },
      h('h3', null, view.seatName(seat), ' ', h('span', { class: 'tv-at' }, positionsText(seat)),
        view.spookFinished[seat] ? [' ', h('span', { class: 'tv-done' }, t('done'))] : null),
      spookBoard(view, seat, { woken, moves: view.lastMoves })))),
    h('aside', { class: 'tv-side' }, die(view.roll, view.roll ? t('Round {n}: everyone moves {face}', { n: view.round, face: view.roll }) : t('Round {n}', { n: view.round })), choosing(), activation(), story(), reactionsSpot()));
}

function ludoTv() {
  const g = geometry(view.options.arm || 8);
  const seats = view.playSeats.filter((s) => s < view.ludoProgress.length);
  return h('div', { class: 'tv-game' },
    h('div', { class: 'tv-ludo' }, ludoBoard(view, () => {})),
    h('aside', { class: 'tv-side' },
      die(view.face, view.thrower !== null && view.thrower !== undefined ? t('{name} threw', { name: view.seatName(view.thrower) }) : t('Turn {n}', { n: view.turn })),
      h('ol', { class: 'plain tv-players' }, seats.map((seat) => {
        const progress = view.ludoProgress[seat];
        const c = view.ludoColour(seat);
        return h('li', { class: seat === view.currentSeat && 'turn' }, seat === view.currentSeat ? '▶ ' : '', colourMark(c), ' ',
          t('{name} ({colour}): home {home}, start {yard}', { name: view.seatName(seat), colour: colourName(c),
            home: progress.filter((p) => p === g.home).length, yard: progress.filter((p) => p === YARD).length }),
          view.partnerOf(seat) >= 0 ? [' ', t('team with {name}', { name: view.seatName(view.partnerOf(seat)) })] : null);
      })),
      choosing(), story(), reactionsSpot()));
}

function endTv() {
  const { over, names } = view.result;
  const name = (seat) => names[seat] || view.seatName(seat);
  const spook = view.result.options.game !== 'ludo';
  const winners = (over.winners || []).map(name);
  const order = [];
  (over.places || []).forEach((place, seat) => place > 0 && order.push([place, seat]));
  order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return h('div', { class: 'tv-end' }, h('div', null,
    h('h2', { class: 'tv-winner', id: 'tv-winner' }, over.status === 'finished'
      ? (winners.length > 1 ? (view.result.options.teams ? t('{names} win as a team!', { names: andList(winners) }) : t('{names} win together!', { names: andList(winners) })) : winners.length ? t('{name} wins!', { name: winners[0] }) : t('Nobody wins!'))
      : abandonedText(over)),
    order.length ? h('ol', { class: 'plain tv-places', id: 'tv-places' }, order.map(([place, seat]) => h('li', null, t('{place}. {name}', { place, name: name(seat) })))) : null,
    over.status === 'finished' ? h('p', { class: 'tv-note' }, spook ? tn('after {n} round', 'after {n} rounds', over.length) : tn('after {n} turn', 'after {n} turns', over.length)) : null,
    over.server_seed ? diceCheckSection(diceCheck && diceCheck.gameId === over.game_id ? diceCheck : null, 'tv-dice', { brief: true }) : null,
    over.game_id && !view.result.options.table && !hidden ? h('p', { class: 'tv-note', id: 'tv-replay' }, sentence(t('Replay and analysis: {link}'),
      { link: h('a', { href: `/replay/${encodeURIComponent(over.game_id)}`, class: 'tv-link' }, `${location.origin}/replay/${over.game_id}`) })) : null,
    view.state === 'lobby' && !hidden ? h('p', { class: 'tv-note', id: 'tv-next' }, t('Next game: join at {link}', { link: `${joinBase()}/r/${view.room}` })) : null,
    reactionsSpot()),
    spook && view.spookBoards.length
      ? h('div', { class: ['tv-boards', 'n8'] }, view.playSeats.filter((s) => view.spookBoards[s]).map((seat) => h('div', { class: 'tv-board' },
        h('h3', null, name(seat), ' ', h('span', { class: 'tv-at' }, positionsText(seat))), spookBoard(view, seat, {}))))
      : null);
}

// A game at one table (paper boards, the server's dice): the last die and what it means, large,
// the names at the table, and the story; the host drives it from their own page.
function tableTv() {
  const s = view.snapshot;
  const tb = s.table || { names: s.options.table_names || [] };
  const seeding = s.state === 'seeding';
  const ludo = s.options.game === 'ludo';
  const label = seeding ? t('The dice are committed: seeds may come in') : ludo ? t('Throw {n}', { n: tb.turn || 0 }) : t('Round {n}', { n: tb.round || 0 });
  return h('div', { class: 'tv-game tv-table' },
    h('div', null,
      die(tb.face, label),
      h('p', { class: 'tv-table-last', id: 'tv-table-last' },
        mask(tableLastText(tb) || (seeding ? seedsText((tb.seeds_by || []).map(seedByText)) : t('The first roll waits for the host.')))),
      h('p', { class: 'tv-note' }, t('At the table: {names}', { names: (tb.names || []).join(', ') }))),
    h('aside', { class: 'tv-side' }, story(), reactionsSpot()));
}

// The screen of the moment: `which` is app.js's screen name.
export function tvScreen(which) {
  document.title = t('SpookLudo: the shared screen');
  if (which === 'home' || which === 'connecting') {
    return h('section', { class: 'tv-msg' }, header(), h('h2', null, t('The shared screen')),
      h('p', { id: 'tv-home' }, mask(which === 'home' ? homeMessage || t('Not connected.') : t('Connecting to the game server…'))),
      which === 'home' ? h('p', null, h('a', { href: '/' }, t('Open the game page'))) : null);
  }
  let body;
  if (which === 'end') body = endTv();
  else if (which === 'game' && view.snapshot.options && view.snapshot.options.table) body = tableTv();
  else if (which === 'game') body = view.inGame ? (view.options.game === 'ludo' ? ludoTv() : spookTv()) : h('p', { class: 'tv-msg' }, t('A game is starting: the players add their dice seeds…'));
  else body = lobbyTv();
  return [header(), gestureHint(), body];
}

// The end stays on the screen this long once the room is back in its lobby; then the lobby
// shows again how to join, and the seats filling for the rematch.
const END_MS = 45000;
let endShown = null;
let endSince = 0;

// The countdowns between messages (app.js's tick), and the end giving way to the lobby.
export function tickTv() {
  if (view.showingResult && view.state === 'lobby') {
    if (endShown !== view.result) {
      endShown = view.result;
      endSince = now();
    } else if (now() - endSince > END_MS) {
      view.resultDismissed = true;
      render();
      return;
    }
  }
  const line = $('tv-choosing');
  if (line) {
    const words = view.choosingText(now());
    if (line.textContent !== words) line.textContent = words;
  }
  const auto = $('tv-autostart');
  if (auto) {
    const left = view.autoStartLeft(now());
    const secs = left === null ? 0 : Math.ceil(left / 1000);
    auto.textContent = left === null ? '' : t('Starts in {time}', { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` });
  }
}
