// Around the screens, drawn at every redraw whatever the screen: the bar at the top of the page
// (the room; the round or turn, the die, who plays; a pause; who you are) and the story beside the
// screen (the game's events as they come, read politely to a screen reader).
import { $, h, replace } from './dom.js';
import { CHARACTERS } from './view.js';
import { chip } from './spook.js';

let storyCursor = 0; // the number of the last story line already shown

export function renderBar(view) {
  const parts = [h('span', { class: 'brand' }, 'SpookLudo')];
  if (view.room) parts.push(h('span', { class: 'item' }, 'Room ', h('strong', { id: 'bar-room' }, view.room)));
  const playing = view.inGame || view.state === 'playing';
  if (playing && view.options.game === 'spook') {
    parts.push(h('span', { class: 'item' }, `Round ${view.round}`));
    if (view.roll) parts.push(h('span', { class: 'item' }, 'die ', h('span', { class: 'die', 'aria-label': `die ${view.roll}` }, String(view.roll))));
    if (view.activation) {
      const c = CHARACTERS[view.activation.character];
      if (c) parts.push(h('span', { class: 'item' }, chip(c.letter), ` ${c.name} woke`));
    }
  } else if (playing) {
    parts.push(h('span', { class: 'item' }, `Turn ${view.turn}`));
    if (view.face) parts.push(h('span', { class: 'item' }, 'throw ', h('span', { class: 'die', 'aria-label': `throw ${view.face}` }, String(view.face))));
    if (view.currentSeat >= 0) parts.push(h('span', { class: 'item' }, `${view.seatName(view.currentSeat)} to play`));
  }
  if (view.paused) {
    const why = { restart: 'PAUSED: waiting for the players after a server restart', journal: 'PAUSED: the server cannot save the game' };
    parts.push(h('span', { class: ['item', 'paused'] }, why[view.snapshot.pause_reason] || 'PAUSED'));
  }
  if (view.isSpectator) parts.push(h('span', { class: 'item' }, 'watching'));
  else if (view.seat >= 0 && view.snapshot) parts.push(h('span', { class: 'item' }, `you: ${view.seatName(view.seat)} (seat ${view.seat + 1})`));
  replace($('bar'), parts);
}

export function renderStory(view) {
  const list = $('story');
  const fresh = view.log.filter((l) => l.n > storyCursor);
  if (!fresh.length) return;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  for (const line of fresh) list.appendChild(h('li', { class: `k-${line.kind}` }, line.text));
  storyCursor = view.logTotal;
  while (list.children.length > 200) list.firstChild.remove();
  if (nearBottom) list.scrollTop = list.scrollHeight;
}

// A room entered anew starts with an empty story.
export function resetStory() {
  storyCursor = 0;
  replace($('story'));
}
