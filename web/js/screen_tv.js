// The shared screen (/tv/CODE): a room shown on a television or a projector, as a spectator that
// holds no seat, read from three metres. In the lobby: how to join (the code, the link and its QR
// code, unless hidden for a stream) and the seats filling. In a game: every seat's board at once
// (Spook) or the cross (Ludo), the die, who still has to choose and their time, the woken monster
// with the squares it acts on and the pieces it moved, the last lines of the story. At the end:
// the winners and the places. It speaks the game aloud (announce.js) unless muted.
import { $, h } from './dom.js';
import { qrCode } from './qr.js';
import { CHARACTERS } from './view.js';
import { spookBoard, chip } from './spook.js';
import { ludoBoard, colourMark } from './ludo.js';
import { COLOURS, geometry, YARD } from './ludo_geo.js';
import { view, now, render, homeMessage, reactions } from './session.js';
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
  let status = view.state === 'lobby' ? 'Waiting for players' : view.state === 'seeding' ? 'A game is starting' : '';
  if (view.showingResult) status = 'Game over';
  else if (playing) status = view.options.game === 'ludo' ? `Turn ${view.turn}` : `Round ${view.round}`;
  const on = announce.speaking();
  return h('header', { class: 'tv-head' },
    h('span', { class: 'tv-brand' }, 'SpookLudo'),
    hidden || !view.room ? null : h('span', { class: 'tv-room' }, 'Room ', h('strong', { id: 'tv-code' }, view.room)),
    status ? h('span', { class: 'tv-status', id: 'tv-status' }, status) : null,
    view.paused ? h('span', { class: 'tv-paused', id: 'tv-paused' }, 'Paused') : null,
    h('span', { class: 'tv-controls' },
      announce.available() ? h('button', { type: 'button', id: 'tv-sound', 'data-fk': 'tv-sound', 'aria-pressed': String(on), onclick: () => {
        announce.setSpeaking(!on);
        render();
      } }, on ? 'Sound on' : 'Muted') : null,
      h('button', { type: 'button', id: 'tv-react-mute', 'data-fk': 'tv-react-mute', 'aria-pressed': String(reactions.muted), onclick: () => {
        reactions.setMuted(!reactions.muted);
        render();
      } }, reactions.muted ? 'Show reactions' : 'Hide reactions'),
      h('button', { type: 'button', id: 'tv-hide', 'data-fk': 'tv-hide', 'aria-pressed': String(hidden), onclick: toggleHidden },
        hidden ? 'Show the code' : 'Hide the code')));
}

function gestureHint() {
  return announce.needsGesture()
    ? h('p', { class: 'tv-hint', id: 'tv-gesture' }, 'Click or press a key once on this screen to let it speak.')
    : null;
}

function joinPanel() {
  if (hidden) {
    return h('section', { class: 'tv-join', id: 'tv-join' }, h('h2', null, 'Join the game'),
      h('p', { id: 'tv-hidden-note' }, 'The host shares the link to join: the room code is not shown on this screen.'));
  }
  const link = `${joinBase()}/r/${view.room}`;
  let qr = null;
  try {
    qr = qrCode(link);
  } catch {
    qr = null;
  }
  return h('section', { class: 'tv-join', id: 'tv-join' },
    h('h2', null, 'Join the game'),
    h('div', { class: 'tv-join-row' },
      qr ? h('div', { class: 'qr tv-qr', role: 'img', 'aria-label': `QR code of ${link}` }, qr) : null,
      h('div', null,
        h('p', null, 'Scan the code with a phone, or open'),
        h('p', { class: 'tv-link', id: 'tv-link' }, link),
        h('p', null, 'Room code ', h('strong', { class: 'tv-bigcode' }, view.room)))));
}

function lobbyTv() {
  const s = view.snapshot;
  const seats = view.roomSeats();
  const taken = seats.filter((seat) => view.seatView(seat)).length;
  return h('div', { class: 'tv-lobby' }, joinPanel(),
    h('section', { class: 'tv-seats' },
      h('h2', null, `Seats: ${taken} of ${seats.length} taken`),
      h('ol', { id: 'tv-seats', class: 'plain' }, seats.map((seat) => {
        const sv = view.seatView(seat);
        return h('li', { class: ['tv-seat', !sv && 'free'] }, h('span', { class: 'tv-seat-no' }, String(seat + 1)),
          sv ? `${sv.name}${sv.bot ? ' (bot)' : ''}${s.host === seat ? ' (host)' : ''}` : 'free');
      })),
      h('p', { class: 'tv-note' }, optionsText(s.options)),
      h('p', { id: 'tv-autostart', class: 'tv-note' }), reactionsSpot()));
}

function die(face, label) {
  return h('div', { class: 'tv-die-wrap' },
    h('span', { class: 'tv-die', id: 'tv-die', 'aria-label': `die ${face ?? 'not rolled yet'}` }, face === null || face === undefined ? '–' : String(face)),
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
      h('span', { class: 'who' }, r.name), ': ', h('span', { class: 'what' }, r.label))));
}

function activation() {
  const a = view.activation;
  if (!a) return null;
  const c = CHARACTERS[a.character] || { letter: '?', name: a.name };
  const moved = (a.moved || []).filter((x) => x.piece !== undefined && x.piece !== null);
  return h('section', { class: 'tv-act', id: 'tv-activation' },
    h('p', { class: 'tv-act-head' }, h('span', { class: 'act-die', 'aria-label': `die ${a.face}` }, String(a.face)), chip(c.letter),
      ` It's the ${a.name}: any piece on it ${a.action}.`),
    moved.length
      ? h('ul', { class: 'plain' }, moved.slice(0, 6).map((x) => h('li', null, `${view.seatName(x.seat)}: ${x.from} → ${x.to >= 40 ? 'church' : x.to}`)),
        moved.length > 6 ? h('li', null, `and ${moved.length - 6} more`) : null)
      : h('p', null, `Nobody stands on the ${a.name}.`));
}

function spookTv() {
  const woken = view.activation && CHARACTERS[view.activation.character] ? CHARACTERS[view.activation.character].letter : null;
  const seats = view.playSeats;
  const n = seats.length <= 2 ? 'n2' : seats.length <= 4 ? 'n4' : seats.length <= 6 ? 'n6' : 'n8';
  return h('div', { class: 'tv-game' },
    h('div', { class: ['tv-boards', n], id: 'tv-boards' }, seats.map((seat) => h('div', { class: 'tv-board' },
      h('h3', null, view.seatName(seat), ' ', h('span', { class: 'tv-at' }, positionsText(seat)),
        view.spookFinished[seat] ? h('span', { class: 'tv-done' }, ' done') : null),
      spookBoard(view, seat, { woken, moves: view.lastMoves })))),
    h('aside', { class: 'tv-side' }, die(view.roll, view.roll ? `Round ${view.round}: everyone moves ${view.roll}` : `Round ${view.round}`), choosing(), activation(), story(), reactionsSpot()));
}

function ludoTv() {
  const g = geometry(view.options.arm || 8);
  const seats = view.playSeats.filter((s) => s < view.ludoProgress.length);
  return h('div', { class: 'tv-game' },
    h('div', { class: 'tv-ludo' }, ludoBoard(view, () => {})),
    h('aside', { class: 'tv-side' },
      die(view.face, view.thrower !== null && view.thrower !== undefined ? `${view.seatName(view.thrower)} threw` : `Turn ${view.turn}`),
      h('ol', { class: 'plain tv-players' }, seats.map((seat) => {
        const progress = view.ludoProgress[seat];
        const c = view.ludoColour(seat);
        return h('li', { class: seat === view.currentSeat && 'turn' }, seat === view.currentSeat ? '▶ ' : '', colourMark(c), ` ${view.seatName(seat)} (${COLOURS[c]}): `,
          `home ${progress.filter((p) => p >= g.home).length}, yard ${progress.filter((p) => p === YARD).length}`);
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
      ? `${winners.length ? winners.join(' and ') : 'Nobody'} ${winners.length > 1 ? 'win together' : 'wins'}!`
      : abandonedText(over)),
    order.length ? h('ol', { class: 'plain tv-places', id: 'tv-places' }, order.map(([place, seat]) => h('li', null, `${place}. ${name(seat)}`))) : null,
    over.status === 'finished' ? h('p', { class: 'tv-note' }, `after ${over.length} ${spook ? 'rounds' : 'turns'}`) : null,
    view.state === 'lobby' && !hidden ? h('p', { class: 'tv-note', id: 'tv-next' }, `Next game: join at ${joinBase()}/r/${view.room}`) : null,
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
  const t = s.table || { names: s.options.table_names || [] };
  const seeding = s.state === 'seeding';
  const ludo = s.options.game === 'ludo';
  const label = seeding ? 'The dice are committed: seeds may come in' : ludo ? `Throw ${t.turn || 0}` : `Round ${t.round || 0}`;
  return h('div', { class: 'tv-game tv-table' },
    h('div', null,
      die(t.face, label),
      h('p', { class: 'tv-table-last', id: 'tv-table-last' },
        mask(tableLastText(t) || (seeding ? `Seeds in: ${(t.seeds_by || []).map(seedByText).join(', ') || 'none yet'}.` : 'The first roll waits for the host.'))),
      h('p', { class: 'tv-note' }, `At the table: ${(t.names || []).join(', ')}`)),
    h('aside', { class: 'tv-side' }, story(), reactionsSpot()));
}

// The screen of the moment: `which` is app.js's screen name.
export function tvScreen(which) {
  document.title = 'SpookLudo: the shared screen';
  if (which === 'home' || which === 'connecting') {
    return h('section', { class: 'tv-msg' }, header(), h('h2', null, 'The shared screen'),
      h('p', { id: 'tv-home' }, mask(which === 'home' ? homeMessage || 'Not connected.' : 'Connecting to the game server…')),
      which === 'home' ? h('p', null, h('a', { href: '/' }, 'Open the game page')) : null);
  }
  let body;
  if (which === 'end') body = endTv();
  else if (which === 'game' && view.snapshot.options && view.snapshot.options.table) body = tableTv();
  else if (which === 'game') body = view.inGame ? (view.options.game === 'ludo' ? ludoTv() : spookTv()) : h('p', { class: 'tv-msg' }, 'A game is starting: the players add their dice seeds…');
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
    auto.textContent = left === null ? '' : `Starts in ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
  }
}
