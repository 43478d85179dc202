// The end of a game: who won or why it was abandoned, the places, this page's own check of the dice
// (dice_words.js), the revealed server seed, the game's record (its address, the command that
// checks it, the copy this page downloaded), the link to its replay and analysis, the final boards,
// and the way back to the room (for the rematch).
import { h, sentence } from './dom.js';
import { spookBoard } from './spook.js';
import { ludoBoard } from './ludo.js';
import { view, savedRecord, render, reactions, diceCheck } from './session.js';
import { diceCheckSection } from './dice_words.js';
import { badge } from './reactions.js';
import { copyButton, recordDownload, positionsText } from './shared.js';
import { t, tn } from './i18n.js';
import { abandonedText } from './words.js';

export function endScreen() {
  const { over, names } = view.result;
  const name = (seat) => names[seat] || view.seatName(seat);
  const spook = view.result.options.game !== 'ludo';
  const els = [h('h2', { class: 'screen-title' }, t('Game over'))];
  if (over.status === 'finished') {
    const winners = (over.winners || []).map(name);
    els.push(h('p', { class: 'winner', id: 'end-winner' }, winnerText(winners, over.length, spook, view.result.options.teams)));
  } else {
    els.push(h('p', { class: 'winner abandoned', id: 'end-winner' }, abandonedText(over)));
  }
  const order = [];
  (over.places || []).forEach((place, seat) => place > 0 && order.push([place, seat]));
  order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (order.length) {
    els.push(h('ol', { class: 'places', id: 'end-places' }, order.map(([place, seat]) => h('li', { value: place },
      t('{place}. {name} (seat {seat})', { place, name: name(seat), seat: seat + 1 }), badge(reactions, seat)))));
  }
  if (over.server_seed) {
    els.push(diceCheckSection(diceCheck && diceCheck.gameId === over.game_id ? diceCheck : null, 'end-dice'));
    els.push(h('p', { class: 'seed' }, sentence(t('The server seed, revealed: {seed}'), { seed: h('code', { id: 'end-seed' }, over.server_seed) })));
  }
  if (over.record) {
    const url = `${location.origin}${over.record}`;
    const cmd = `spookludo verify ${url}`;
    els.push(h('p', null, sentence(t("The game's record: {link}"), { link: h('a', { href: url, id: 'end-record', target: '_blank', rel: 'noopener' }, url) })));
    els.push(h('p', null, t('Check the dice and every move with:')));
    els.push(h('pre', { class: 'cmd', id: 'end-verify' }, cmd), copyButton(cmd, t('Copy the command')));
    if (savedRecord && savedRecord.gameId === over.game_id) els.push(...recordDownload('end'));
  }
  // Every move again, with the analysis of each choice (screen_replay.js); not for a game at one
  // table, whose coins the server never saw.
  if (over.game_id && !view.result.options.table) {
    els.push(h('p', null, h('a', { href: `/replay/${encodeURIComponent(over.game_id)}`, id: 'end-replay', target: '_blank', rel: 'noopener' }, t('Replay and analysis'))));
  }
  els.push(h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', id: 'end-close', onclick: () => {
    view.resultDismissed = true;
    render();
  } }, t('Back to the room'))));
  if (spook && view.spookBoards.length) {
    els.push(h('section', { class: 'others final', 'aria-label': t('The final boards') },
      view.playSeats.filter((s) => view.spookBoards[s]).map((seat) => h('div', { class: 'other' },
        h('h4', null, name(seat), ' ', h('span', { class: 'small' }, positionsText(seat))), spookBoard(view, seat, {})))));
  } else if (!spook && view.ludoProgress.length) {
    els.push(h('div', { class: 'ludo-wrap' }, ludoBoard(view, () => {})));
  }
  return h('section', { class: 'end', id: 'end', 'aria-labelledby': 'end-h' }, els);
}

// "Ann wins after 12 rounds." in the page's language: one winner, several, or nobody; rounds for
// Spook & Werewolf, turns for Ludo; under the house rule teams, the two partners as a team.
export function winnerText(winners, length, spook, teams = false) {
  if (teams && winners.length === 2) {
    return tn('{names} win as a team after {n} turn.', '{names} win as a team after {n} turns.', length, { names: t('{names} and {last}', { names: winners[0], last: winners[1] }) });
  }
  if (winners.length > 1) {
    const names = t('{names} and {last}', { names: winners.slice(0, -1).join(', '), last: winners[winners.length - 1] });
    return spook ? tn('{names} win together after {n} round.', '{names} win together after {n} rounds.', length, { names })
      : tn('{names} win together after {n} turn.', '{names} win together after {n} turns.', length, { names });
  }
  if (winners.length === 1) {
    return spook ? tn('{name} wins after {n} round.', '{name} wins after {n} rounds.', length, { name: winners[0] })
      : tn('{name} wins after {n} turn.', '{name} wins after {n} turns.', length, { name: winners[0] });
  }
  return spook ? tn('Nobody wins after {n} round.', 'Nobody wins after {n} rounds.', length)
    : tn('Nobody wins after {n} turn.', 'Nobody wins after {n} turns.', length);
}
