// SpookLudo in a browser: joins or creates a room on the server that served this page, and draws
// the room, the game and its story from the server's messages (protocol/PROTOCOL.md), as the
// terminal client does. Everything a player or the server named is inserted as text.
// This file starts the page and routes between its screens, a module each: screen_join.js (the
// first screen: join, watch, create), screen_lobby.js, screen_game.js (screen_table.js for a game
// at one table) and screen_end.js. Around
// them: session.js (the connection, the room and its state), frame.js (the bar and the story),
// shared.js (what several screens use), reactions.js (the quick reactions' bar, badges and bubbles).
// At /tv/CODE the page is the room's shared screen (screen_tv.js): a spectator drawn large for a
// television, which announces the game aloud. A game's replay (/replay/<game id>, screen_replay.js)
// and the history's pages (/history, /history/player/<name>, screen_history.js) are pages of
// their own, without a room. A page the service worker (../sw.js) started without the server shows
// offline.js's screen instead, until the server answers.
import { $, h, replace } from './dom.js';
import * as store from './store.js';
import { view, intent, codeFromPath, tvRoomFromPath, enter, drawWith, reactions, react, reactionRights } from './session.js';
import { reactionBar, renderBubbles } from './reactions.js';
import { renderBar, renderStory } from './frame.js';
import { joinScreen } from './screen_join.js';
import { lobbyScreen, tickLobby } from './screen_lobby.js';
import { gameScreen, tickGame, gameKeys } from './screen_game.js';
import { endScreen } from './screen_end.js';
import * as announce from './announce.js';
import { setup as setupLanguage, onLanguageChange, t } from './i18n.js';

// Whether the server answers (its page, HEAD /): asked when the service worker (sw.js) may have
// started this page from its copy, while the language loads. A proxy's 502 to 504 is no answer.
const serverAnswers = () => fetch('/', { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout?.(6000) }).then((r) => r.ok, () => false);
const reach = navigator.serviceWorker?.controller ? serverAnswers() : true;

// The reader's language and its catalogue, before anything is drawn (i18n.js).
await setupLanguage();
// Without the server, the screen that says so and tries again (offline.js, fetched then only).
const offline = (await reach) ? null : await import('./offline.js');

const tv = tvRoomFromPath(); // the shared screen's room ('' on a player's page)
// The page of a replay or of the history, fetched at its own address only (null in a room's page).
const elsewhere = location.pathname.startsWith('/replay/') ? await import('./screen_replay.js')
  : /^\/history(\/|$)/.test(location.pathname) ? await import('./screen_history.js') : null;
// The shared screen's module, fetched at its own address only: a player's page does without it.
let tvModule = tv ? await import('./screen_tv.js') : null;
import { tableScreen, tableKeys, isTableGame, tableBig, tableHostBar } from './screen_table.js';

// The page's own texts (index.html leaves them empty), in the page's language.
function pageTexts() {
  $('skip').textContent = t('Skip to the game');
  $('reactions').setAttribute('aria-label', t('Quick reactions'));
  $('reaction-bubbles').setAttribute('aria-label', t('Reactions'));
  $('story-h').textContent = t('The story');
  $('story').setAttribute('aria-label', t('The story'));
  if (!$('confirm').open) {
    $('confirm-no').textContent = t('No, carry on');
    $('confirm-yes').textContent = t('Yes');
  }
  if (!tv) document.title = view.room ? t('SpookLudo: room {code}', { code: view.room }) : t('SpookLudo');
}

// The whole page drawn again from the state: the bar, the story and the screen of the moment.
function render() {
  pageTexts();
  if (offline) return;
  if (elsewhere) {
    elsewhere.render();
    return;
  }
  if (tv) {
    document.body.dataset.screen = screenName();
    replace($('bar'));
    replace($('screen'), tvModule.tvScreen(screenName()));
    $('story-wrap').hidden = true;
    tick();
    return;
  }
  // The host's page of a table game drawn as the table's shared screen (screen_table.js).
  const big = screenName() === 'game' && tableBig();
  document.body.classList.toggle('tv', big);
  if (big) {
    if (!tvModule) {
      import('./screen_tv.js').then((m) => {
        tvModule = m;
        render();
      });
      return;
    }
    document.body.dataset.screen = 'game';
    replace($('bar'));
    replace($('screen'), [tvModule.tvScreen('game'), tableHostBar()]);
    $('story-wrap').hidden = true;
    $('reactions').hidden = true;
    return;
  }
  renderBar(view);
  renderStory(view);
  const screen = $('screen');
  document.body.dataset.screen = screenName();
  switch (screenName()) {
    case 'home': replace(screen, joinScreen()); break;
    case 'connecting': replace(screen, h('p', { class: 'connecting' }, t('Connecting to the game server…'))); break;
    case 'end': replace(screen, endScreen()); break;
    case 'game': replace(screen, isTableGame() ? tableScreen() : gameScreen()); break;
    default: replace(screen, lobbyScreen());
  }
  const inRoom = screenName() !== 'home' && screenName() !== 'connecting';
  $('story-wrap').hidden = !inRoom;
  // The reaction bar on every screen of a room (lobby, game, end), and the bubbles.
  $('reactions').hidden = !inRoom;
  if (inRoom) replace($('reactions'), reactionBar(reactions, { ...reactionRights(), react }));
  renderBubbles($('reaction-bubbles'), inRoom ? reactions : { version: 'none', recent: () => [] });
  tick();
}
drawWith(render);
onLanguageChange(() => render()); // the switch (frame.js) draws the page again in the new language

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
  if (elsewhere || offline) return;
  if (tv) {
    tvModule.tickTv();
    return;
  }
  tickGame();
  tickLobby();
}
setInterval(tick, 200);

document.addEventListener('keydown', (e) => { if (!elsewhere && !offline && !tableKeys(e)) gameKeys(e); });

// A /r/CODE link to a room this browser holds a seat in takes the seat back; otherwise the first screen.
(function start() {
  if (offline) {
    pageTexts();
    offline.start(serverAnswers);
    return;
  }
  // Installable and able to start without the server: the service worker, where the browser
  // allows one (https://, or this machine's own address); elsewhere nothing.
  navigator.serviceWorker?.register('/sw.js').catch(() => {});
  if (elsewhere) {
    pageTexts();
    elsewhere.start();
    return;
  }
  announce.setup(tv ? 'tv' : 'player');
  if (tv) {
    document.body.classList.add('tv');
    // The browser lets a page speak once it was clicked or typed in: the hint goes away then
    // (removed alone: a redraw between a button's press and release would lose the click).
    const woken = () => $('tv-gesture')?.remove();
    window.addEventListener('pointerdown', woken, { once: true });
    window.addEventListener('keydown', woken, { once: true });
    enter({ type: 'watch', room: tv });
    return;
  }
  const room = codeFromPath();
  const held = room ? store.seatFor(room) : null;
  if (held) enter({ type: 'resume', room, token: held.token });
  else render();
})();
