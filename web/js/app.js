// SpookLudo in a browser: joins or creates a room on the server that served this page, and draws
// the room, the game and its story from the server's messages (protocol/PROTOCOL.md), as the
// terminal client does. Everything a player or the server named is inserted as text.
// This file starts the page and routes between its screens, a module each: screen_join.js (the
// first screen: join, watch, create), screen_lobby.js, screen_game.js (screen_table.js for a game
// at one table) and screen_end.js. Around
// them: session.js (the connection, the room and its state), frame.js (the bar and the story),
// shared.js (what several screens use).
import { $, h, replace } from './dom.js';
import * as store from './store.js';
import { view, intent, codeFromPath, enter, drawWith } from './session.js';
import { renderBar, renderStory } from './frame.js';
import { joinScreen } from './screen_join.js';
import { lobbyScreen, tickLobby } from './screen_lobby.js';
import { gameScreen, tickGame, gameKeys } from './screen_game.js';
import { endScreen } from './screen_end.js';
import { tableScreen, tableKeys, isTableGame } from './screen_table.js';

// The whole page drawn again from the state: the bar, the story and the screen of the moment.
function render() {
  renderBar(view);
  renderStory(view);
  const screen = $('screen');
  document.body.dataset.screen = screenName();
  switch (screenName()) {
    case 'home': replace(screen, joinScreen()); break;
    case 'connecting': replace(screen, h('p', { class: 'connecting' }, 'Connecting to the game server…')); break;
    case 'end': replace(screen, endScreen()); break;
    case 'game': replace(screen, isTableGame() ? tableScreen() : gameScreen()); break;
    default: replace(screen, lobbyScreen());
  }
  $('story-wrap').hidden = screenName() === 'home' || screenName() === 'connecting';
  tick();
}
drawWith(render);

// Which screen the state calls for: the first one, connecting, the lobby, the game or its end.
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

document.addEventListener('keydown', (e) => { if (!tableKeys(e)) gameKeys(e); });

// A /r/CODE link to a room this browser holds a seat in takes the seat back; otherwise the first screen.
(function start() {
  const room = codeFromPath();
  const held = room ? store.seatFor(room) : null;
  if (held) enter({ type: 'resume', room, token: held.token });
  else render();
})();
