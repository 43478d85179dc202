// Around the screens, drawn at every redraw whatever the screen: the bar at the top of the page
// (the room; the round or turn, the die, who plays; a pause; who you are) and the story beside the
// screen (the game's events as they come, read politely to a screen reader).
import { $, h, replace, sentence } from './dom.js';
import { CHARACTERS } from './view.js';
import { chip } from './spook.js';
import { t, lang, languages, setLanguage } from './i18n.js';

let storyCursor = 0; // the number of the last story line already shown

export function renderBar(view) {
  const parts = [h('span', { class: 'brand' }, t('SpookLudo'))];
  if (view.room) parts.push(h('span', { class: 'item' }, sentence(t('Room {code}'), { code: h('strong', { id: 'bar-room' }, view.room) })));
  const playing = view.inGame || view.state === 'playing';
  if (playing && view.options.game === 'spook') {
    parts.push(h('span', { class: 'item' }, t('Round {n}', { n: view.round })));
    if (view.roll) parts.push(h('span', { class: 'item' }, t('die'), ' ', h('span', { class: 'die', role: 'img', 'aria-label': t('die {face}', { face: view.roll }) }, String(view.roll))));
    if (view.activation) {
      const c = CHARACTERS[view.activation.character];
      if (c) parts.push(h('span', { class: 'item' }, chip(c.letter), ' ', t('{character} woke', { character: c.name })));
    }
  } else if (playing) {
    parts.push(h('span', { class: 'item' }, t('Turn {n}', { n: view.turn })));
    if (view.face) parts.push(h('span', { class: 'item' }, t('throw'), ' ', h('span', { class: 'die', role: 'img', 'aria-label': t('throw {face}', { face: view.face }) }, String(view.face))));
    if (view.currentSeat >= 0) parts.push(h('span', { class: 'item' }, t('{name} to play', { name: view.seatName(view.currentSeat) })));
  }
  if (view.paused) {
    const why = { restart: t('PAUSED: waiting for the players after a server restart'), journal: t('PAUSED: the server cannot save the game') };
    parts.push(h('span', { class: ['item', 'paused'] }, why[view.snapshot.pause_reason] || t('PAUSED')));
  }
  if (view.isSpectator) parts.push(h('span', { class: 'item' }, t('watching')));
  else if (view.seat >= 0 && view.snapshot) parts.push(h('span', { class: 'item' }, t('you: {name} (seat {seat})', { name: view.seatName(view.seat), seat: view.seat + 1 })));
  parts.push(languageSwitch());
  replace($('bar'), parts);
}

// The page's language (i18n.js): a labelled list of the languages the server has, each named in
// its own language; the choice is remembered in this browser and the page drawn again at once.
export function languageSwitch() {
  const list = languages().map((l) => h('option', { value: l.lang, lang: l.lang, selected: l.lang === lang() }, l.name));
  if (!languages().some((l) => l.lang === lang())) list.push(h('option', { value: lang(), selected: true }, `⟦${lang()}⟧`));
  return h('label', { class: ['item', 'lang-switch'] },
    h('span', { class: 'lang-label' }, t('Language')), ' ',
    h('select', { id: 'lang-switch', 'data-fk': 'lang-switch', onchange: (e) => setLanguage(e.currentTarget.value) }, list));
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
