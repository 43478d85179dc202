// SpookLudo in a browser: joins or creates a room on the server that served this page, and draws
// the room, the game and its story from the server's messages (protocol/PROTOCOL.md), as the
// terminal client does. Everything a player or the server named is inserted as text.
import { $, h, replace } from './dom.js';
import * as store from './store.js';
import { spookBoard } from './spook.js';
import { ludoBoard } from './ludo.js';
import { renderBar, renderStory } from './frame.js';
import { view, intent, savedRecord, drawWith, codeFromPath, enter } from './session.js';
import { copyButton, recordDownload, positionsText } from './shared.js';
import { joinScreen } from './screen_join.js';
import { lobbyScreen, tickLobby } from './screen_lobby.js';
import { gameScreen, tickGame, gameKeys } from './screen_game.js';

// ---- Drawing ---------------------------------------------------------------------------------

function render() {
  renderBar(view);
  renderStory(view);
  const screen = $('screen');
  document.body.dataset.screen = screenName();
  switch (screenName()) {
    case 'home': replace(screen, joinScreen()); break;
    case 'connecting': replace(screen, h('p', { class: 'connecting' }, 'Connecting to the game server…')); break;
    case 'end': replace(screen, endScreen()); break;
    case 'game': replace(screen, gameScreen()); break;
    default: replace(screen, lobbyScreen());
  }
  $('story-wrap').hidden = screenName() === 'home' || screenName() === 'connecting';
  tick();
}
drawWith(render);

function screenName() {
  if (!intent && !view.room) return 'home';
  if (!view.room || !view.snapshot) return 'connecting';
  if (view.showingResult) return 'end';
  if (view.inGame || view.state === 'playing' || view.state === 'seeding') return 'game';
  return 'lobby';
}

// The countdowns (decision, the others' time to choose, automatic start) between messages.
function tick() {
  tickGame();
  tickLobby();
}
setInterval(tick, 200);

// ---- The end -------------------------------------------------------------------------------------

function endScreen() {
  const { over, names } = view.result;
  const name = (seat) => names[seat] || view.seatName(seat);
  const spook = view.result.options.game !== 'ludo';
  const els = [h('h2', { class: 'screen-title' }, 'Game over')];
  if (over.status === 'finished') {
    const winners = (over.winners || []).map(name);
    els.push(h('p', { class: 'winner', id: 'end-winner' },
      `${winners.length ? winners.join(' and ') : 'Nobody'} ${winners.length > 1 ? 'win together' : 'wins'} after ${over.length} ${spook ? (over.length === 1 ? 'round' : 'rounds') : (over.length === 1 ? 'turn' : 'turns')}.`));
  } else {
    els.push(h('p', { class: 'winner abandoned', id: 'end-winner' }, `The game was abandoned${over.reason ? `: ${over.reason}` : ''}.`));
  }
  const order = [];
  (over.places || []).forEach((place, seat) => place > 0 && order.push([place, seat]));
  order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (order.length) {
    els.push(h('ol', { class: 'places', id: 'end-places' }, order.map(([place, seat]) => h('li', { value: place },
      `${place}. ${name(seat)} (seat ${seat + 1})`))));
  }
  if (over.server_seed) els.push(h('p', { class: 'seed' }, 'The server seed, revealed: ', h('code', { id: 'end-seed' }, over.server_seed)));
  if (over.record) {
    const url = `${location.origin}${over.record}`;
    const cmd = `spookludo verify ${url}`;
    els.push(h('p', null, "The game's record: ", h('a', { href: url, id: 'end-record', target: '_blank', rel: 'noopener' }, url)));
    els.push(h('p', null, 'Check the dice and every move with:'));
    els.push(h('pre', { class: 'cmd', id: 'end-verify' }, cmd), copyButton(cmd, 'Copy the command'));
    if (savedRecord && savedRecord.gameId === over.game_id) els.push(...recordDownload('end'));
  }
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', id: 'end-close', onclick: () => {
    view.resultDismissed = true;
    render();
  } }, 'Back to the room')));
  if (spook && view.spookBoards.length) {
    els.push(h('section', { class: 'others final', 'aria-label': 'The final boards' },
      view.playSeats.filter((s) => view.spookBoards[s]).map((seat) => h('div', { class: 'other' },
        h('h4', null, name(seat), ' ', h('span', { class: 'small' }, positionsText(seat))), spookBoard(view, seat, {})))));
  } else if (!spook && view.ludoProgress.length) {
    els.push(h('div', { class: 'ludo-wrap' }, ludoBoard(view, () => {})));
  }
  return h('section', { class: 'end', id: 'end', 'aria-labelledby': 'end-h' }, els);
}

document.addEventListener('keydown', gameKeys);

// ---- Start -------------------------------------------------------------------------------------------

(function start() {
  const room = codeFromPath();
  const held = room ? store.seatFor(room) : null;
  if (held) enter({ type: 'resume', room, token: held.token });
  else render();
})();
