// What the pages without a room share (a game's replay, the history, a player's page): their top
// bar, and a finished game as the history lists it (GET /games: its day, room, game, result,
// players with their places, and the link to its replay).
import { $, h, replace } from './dom.js';
import { t, tc, tn } from './i18n.js';
import { languageSwitch } from './frame.js';
import { ordinal } from './replay_words.js';

// The bar: the product (a link to the first page), the history, the language switch.
export function pageBar() {
  replace($('bar'), h('a', { class: 'brand', href: '/' }, t('SpookLudo')),
    h('a', { class: 'item', href: '/history', id: 'bar-history' }, t('History')), languageSwitch());
}

// The address of a player's page.
export const playerHref = (name) => `/history/player/${encodeURIComponent(name)}`;

// "2026-12-02 14:13 UTC", the terminal's words too.
export function whenText(ms) {
  const d = new Date(Number(ms) || 0);
  return t('{date_time} UTC', { date_time: d.toISOString().slice(0, 16).replace('T', ' ') });
}

function statusText(status) {
  if (status === 'finished') return tc('game status', 'finished');
  if (status === 'abandoned') return tc('game status', 'abandoned');
  return String(status || '');
}

// One game of GET /games as an item of a list.
export function gameItem(g) {
  const n = Number(g.length) || 0;
  const status = statusText(g.status);
  const what = g.game === 'ludo' ? tn('Classic Ludo, {status} after {n} turn.', 'Classic Ludo, {status} after {n} turns.', n, { status })
    : tn('Spook & Werewolf Ludo, {status} after {n} round.', 'Spook & Werewolf Ludo, {status} after {n} rounds.', n, { status });
  const players = (Array.isArray(g.players) ? g.players : []).slice()
    .sort((a, b) => (a.place || 99) - (b.place || 99) || a.seat - b.seat);
  return h('li', { class: ['card', 'history-game'], dataset: { game: g.id } },
    h('p', { class: 'history-when' }, h('strong', null, whenText(g.ended_ms)), ' ',
      h('a', { href: `/history?room=${encodeURIComponent(g.room)}`, class: 'history-room', 'aria-label': t('The games of room {room}', { room: g.room }) },
        t('room {room}', { room: g.room }))),
    h('p', null, what),
    h('ul', { class: 'plain history-players' }, players.map((p) => h('li', null,
      h('a', { href: playerHref(p.name), class: 'history-player' }, p.name), ' ',
      p.place ? h('span', { class: 'small' }, p.winner ? t('{place} (won)', { place: ordinal(p.place) }) : ordinal(p.place)) : null,
      p.bot ? [' ', h('span', { class: 'tag' }, tc('seat', 'bot'))] : null))),
    h('p', null, h('a', { href: `/replay/${encodeURIComponent(g.id)}`, class: 'replay-link', id: `replay-${g.id}` }, t('Replay and analysis'))));
}
