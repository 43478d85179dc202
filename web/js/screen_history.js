// The history's pages, read from the server's JSON routes (README, "The history"):
// - /history: the finished games, newest first (GET /games), filtered by player, room, game and
//   day (?player=Ann&room=KQZTM&game=spook&date=2026-12-02, the page's own address: a filter is a
//   link one can share), 20 a page (?page=2), each with its players, places and replay link;
// - /history/player/<name>: one player's games, wins and places by game (GET /players/<name>)
//   and their games (GET /games?player=<name>).
import { $, h, replace } from './dom.js';
import { t, tn } from './i18n.js';
import { pageBar, gameItem, whenText } from './history_shared.js';

const PER_PAGE = 20;
const PLAYER_PREFIX = '/history/player/';

const query = new URLSearchParams(location.search);
const playerName = location.pathname.startsWith(PLAYER_PREFIX) ? safeDecode(location.pathname.slice(PLAYER_PREFIX.length)) : null;
const page = Math.max(1, Math.floor(Number(query.get('page'))) || 1);
const filters = {
  player: playerName ?? (query.get('player') || ''),
  room: query.get('room') || '',
  game: ['spook', 'ludo'].includes(query.get('game')) ? query.get('game') : '',
  date: /^\d{4}-\d{2}-\d{2}$/.test(query.get('date') || '') ? query.get('date') : '',
};

const state = { loading: true, games: null, error: '', player: null, unknownPlayer: false };

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// A query of these filters and `extra` (empty ones left out).
function queryOf(values, extra = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v !== '' && v !== null && v !== undefined) q.set(k, String(v));
  return q.toString();
}

async function json(url) {
  const res = await fetch(url, { cache: 'no-store' });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

export async function start() {
  render();
  try {
    const [games, player] = await Promise.all([
      json(`/games?${queryOf(filters, { page, per_page: PER_PAGE })}`),
      playerName !== null ? json(`/players/${encodeURIComponent(playerName)}`) : Promise.resolve(null),
    ]);
    if (games.status !== 200) state.error = t('The history cannot be read: {reason}', { reason: (games.body && games.body.error) || `HTTP ${games.status}` });
    else state.games = games.body;
    if (player && player.status === 200) state.player = player.body;
    else if (player && player.status === 404) state.unknownPlayer = true;
  } catch (e) {
    state.error = t('The server cannot be reached: {reason}', { reason: e.message });
  }
  state.loading = false;
  render();
}

export function render() {
  pageBar();
  $('story-wrap').hidden = true;
  $('reactions').hidden = true;
  document.body.dataset.screen = 'history';
  document.title = playerName !== null ? t("SpookLudo: {name}'s games", { name: playerName }) : t('SpookLudo: the history');
  const parts = playerName !== null ? playerHead() : [h('h2', { class: 'screen-title' }, t('Finished games')), filterForm()];
  if (state.loading) parts.push(h('p', { class: 'connecting' }, t('Loading the history…')));
  else if (state.error) parts.push(h('p', { class: 'alert', id: 'history-error' }, state.error));
  else parts.push(...gameList());
  replace($('screen'), h('section', { class: 'history', id: 'history' }, parts));
}

function filterForm() {
  const field = (key, label, input) => h('div', { class: 'field' }, h('label', { for: `history-${key}` }, label), input);
  const submit = (e) => {
    e.preventDefault();
    const values = {};
    for (const key of ['player', 'room', 'game', 'date']) values[key] = $(`history-${key}`).value.trim();
    location.assign(`/history${queryOf(values) ? '?' + queryOf(values) : ''}`);
  };
  // Folded on a phone until a filter is set: the games come first.
  const open = Object.values(filters).some(Boolean) || window.matchMedia('(min-width: 900px)').matches;
  return h('details', { class: 'card history-filters', open }, h('summary', null, h('h3', null, t('Filters'))),
    h('form', { id: 'history-filters', 'aria-label': t('Filters'), onsubmit: submit },
      h('div', { class: 'history-fields' },
        field('player', t('Player'), h('input', { id: 'history-player', name: 'player', value: filters.player, maxlength: 96, autocomplete: 'off' })),
        field('room', t('Room'), h('input', { id: 'history-room', name: 'room', value: filters.room, maxlength: 5, autocomplete: 'off' })),
        field('game', t('Game'), h('select', { id: 'history-game', name: 'game' },
          h('option', { value: '', selected: !filters.game }, t('Both games')),
          h('option', { value: 'spook', selected: filters.game === 'spook' }, t('Spook & Werewolf Ludo')),
          h('option', { value: 'ludo', selected: filters.game === 'ludo' }, t('Classic Ludo')))),
        field('date', t('Day (UTC)'), h('input', { id: 'history-date', name: 'date', type: 'date', value: filters.date }))),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 'history-go' }, t('Show the games')),
        Object.values(filters).some(Boolean) ? h('a', { href: '/history', class: 'history-all' }, t('All games')) : null)));
}

// A player's page: their name, their games, wins and places by game.
function playerHead() {
  const parts = [h('h2', { class: 'screen-title', id: 'player-name' }, t("{name}'s games", { name: playerName }))];
  if (state.unknownPlayer) {
    parts.push(h('p', { class: 'card', id: 'player-unknown' }, t('No game of a player named {name} is kept on this server.', { name: playerName })));
    return parts;
  }
  const p = state.player;
  if (!p) return parts;
  parts.push(h('p', { class: 'lead', id: 'player-total' }, tn('{n} game, {wins} won.', '{n} games, {wins} won.', p.games, { wins: p.wins })));
  const names = { spook: t('Spook & Werewolf Ludo'), ludo: t('Classic Ludo') };
  const rows = Object.entries(p.by_game || {});
  if (rows.length) {
    parts.push(h('div', { class: 'card history-table-wrap' }, h('table', { class: 'history-table', id: 'player-stats' },
      h('caption', null, t('By game')),
      h('thead', null, h('tr', null, [t('Game'), t('Games'), t('Wins'), t('Finished'), t('1st places'), t('2nd places'), t('3rd places'), t('Last game')]
        .map((head) => h('th', { scope: 'col' }, head)))),
      h('tbody', null, rows.map(([game, s]) => h('tr', { dataset: { game } },
        h('th', { scope: 'row' }, names[game] || game),
        [s.games, s.wins, s.finished, (s.places || {})['1'], (s.places || {})['2'], (s.places || {})['3']].map((v) => h('td', null, String(v ?? 0))),
        h('td', null, s.last_ms ? whenText(s.last_ms) : '')))))));
  }
  return parts;
}

function gameList() {
  const list = state.games || { games: [], total: 0, pages: 0 };
  const games = Array.isArray(list.games) ? list.games : [];
  const pages = Math.max(1, list.pages || 1);
  const out = [];
  if (!games.length) {
    out.push(h('p', { id: 'history-none' }, Object.values(filters).some(Boolean) && playerName === null
      ? t('No finished game matches.') : t('No finished game yet.')));
    return out;
  }
  out.push(h('p', { id: 'history-count', class: 'small' }, tn('{n} game, newest first (page {page} of {pages}).', '{n} games, newest first (page {page} of {pages}).',
    list.total || games.length, { page, pages })));
  out.push(h('ol', { class: 'plain history-games', id: 'history-games' }, games.map(gameItem)));
  const here = playerName !== null ? location.pathname : '/history';
  const link = (to, text, id) => h('a', { href: `${here}?${queryOf(playerName !== null ? {} : filters, { page: to })}`, id, rel: to < page ? 'prev' : 'next' }, text);
  if (page > 1 || page < pages) {
    out.push(h('nav', { class: 'row history-pages', 'aria-label': t('Pages') },
      page > 1 ? link(page - 1, t('Newer games'), 'history-newer') : null,
      page < pages ? link(page + 1, t('Older games'), 'history-older') : null));
  }
  return out;
}
