// The end of a game: who won or why it was abandoned, the places, the revealed server seed, the
// game's record (its address, the command that checks it, the copy this page downloaded), the
// final boards, and the way back to the room (for the rematch).
import { h } from './dom.js';
import { spookBoard } from './spook.js';
import { ludoBoard } from './ludo.js';
import { view, savedRecord, render, reactions } from './session.js';
import { badge } from './reactions.js';
import { copyButton, recordDownload, positionsText } from './shared.js';
import { abandonedText } from './words.js';

export function endScreen() {
  const { over, names } = view.result;
  const name = (seat) => names[seat] || view.seatName(seat);
  const spook = view.result.options.game !== 'ludo';
  const els = [h('h2', { class: 'screen-title' }, 'Game over')];
  if (over.status === 'finished') {
    const winners = (over.winners || []).map(name);
    els.push(h('p', { class: 'winner', id: 'end-winner' },
      `${winners.length ? winners.join(' and ') : 'Nobody'} ${winners.length > 1 ? 'win together' : 'wins'} after ${over.length} ${spook ? (over.length === 1 ? 'round' : 'rounds') : (over.length === 1 ? 'turn' : 'turns')}.`));
  } else {
    els.push(h('p', { class: 'winner abandoned', id: 'end-winner' }, abandonedText(over)));
  }
  const order = [];
  (over.places || []).forEach((place, seat) => place > 0 && order.push([place, seat]));
  order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (order.length) {
    els.push(h('ol', { class: 'places', id: 'end-places' }, order.map(([place, seat]) => h('li', { value: place },
      `${place}. ${name(seat)} (seat ${seat + 1})`, badge(reactions, seat)))));
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
