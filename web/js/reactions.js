// Quick reactions (protocol/PROTOCOL.md, "Quick reactions"): the fixed set a player (and a
// spectator, when the host allows it) sends with `react`, and the room's `reaction`s shown for a
// few seconds beside the sender's name and in a bubble. Everything a screen needs is here, for any
// screen that shows a room (the player's page, a shared TV view): a ReactionBoard takes the
// messages and says what shows now; badge(), renderBubbles() and reactionBar() draw it.
// Muting is this browser's choice (localStorage), for every room.
import { h, replace } from './dom.js';
import { t, tc } from './i18n.js';

// The server's set (protocol/messages.h, kReactions), in its order: id on the wire, what people see,
// and the words a screen reader says for it, in the page's language (getters: read at each use).
const reaction = (id, label, words) => ({ id, get label() { return label(); }, get words() { return words(); } });
export const REACTIONS = [
  reaction('thumbs_up', () => '👍', () => tc('reaction', 'thumbs up')),
  reaction('laugh', () => '😂', () => tc('reaction', 'laughing')),
  reaction('scared', () => '😱', () => tc('reaction', 'scared')),
  reaction('ghost', () => '👻', () => tc('reaction', 'ghost')),
  reaction('nooo', () => tc('reaction', 'nooo!'), () => tc('reaction', 'nooo!')),
  reaction('phew', () => tc('reaction', 'phew'), () => tc('reaction', 'phew')),
  reaction('good_luck', () => tc('reaction', 'good luck'), () => tc('reaction', 'good luck')),
  reaction('well_played', () => tc('reaction', 'well played'), () => tc('reaction', 'well played')),
];
export const SHOW_MS = 3000; // how long a reaction shows
export const INTERVAL_MS = 2000; // the server takes one reaction per sender in this long
const MAX_BUBBLES = 5;
const MUTE_KEY = 'spookludo.muteReactions';

function readMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

// What a reaction shows (its label; a newer server's unknown id shows its own label).
export function reactionLabel(m) {
  const known = REACTIONS.find((r) => r.id === m.reaction);
  return known ? known.label : String(m.label || m.reaction || '');
}

// The words for a reaction's id, read when drawn (a language switched meanwhile shows at once).
export function reactionText(r) {
  return shownLabel(r);
}

function shownLabel(r) {
  const known = REACTIONS.find((x) => x.id === r.reaction);
  return known ? known.label : r.label;
}

export class ReactionBoard {
  // `onchange`: called when what shows changes by itself (a reaction's time is over, the wait
  // before the next one ends), so that the screen draws again.
  constructor({ now = () => performance.now(), onchange = () => {} } = {}) {
    this.now = now;
    this.onchange = onchange;
    this.shown = []; // { seat, name, role, label, until, key }
    this.muted = readMuted();
    this.coolUntil = 0;
    this.version = 0;
    this.keys = 0;
  }

  // A `reaction` message from the server; nothing shows while muted.
  receive(m) {
    if (this.muted) return false;
    const t = this.now();
    this.expire(t);
    this.shown.push({ seat: m.seat, name: m.name, role: m.role, reaction: m.reaction, label: reactionLabel(m), until: t + SHOW_MS, key: ++this.keys });
    while (this.shown.length > MAX_BUBBLES * 4) this.shown.shift();
    this.changed();
    setTimeout(() => {
      if (this.expire(this.now())) this.onchange();
    }, SHOW_MS + 20);
    return true;
  }

  // Drops what is over; true when something was.
  expire(t) {
    const before = this.shown.length;
    this.shown = this.shown.filter((r) => r.until > t);
    if (this.shown.length === before) return false;
    this.version++;
    return true;
  }

  changed() {
    this.version++;
  }

  // The reaction a seat shows now (its latest), or null.
  forSeat(seat) {
    const t = this.now();
    for (let i = this.shown.length - 1; i >= 0; i--) {
      const r = this.shown[i];
      if (r.seat === seat && r.role === 'player' && r.until > t) return r;
    }
    return null;
  }

  // What the bubbles show, oldest first.
  recent() {
    const t = this.now();
    return this.shown.filter((r) => r.until > t).slice(-MAX_BUBBLES);
  }

  setMuted(on) {
    this.muted = Boolean(on);
    try {
      if (this.muted) localStorage.setItem(MUTE_KEY, '1');
      else localStorage.removeItem(MUTE_KEY);
    } catch {
      /* private mode: muted for this page only */
    }
    if (this.muted) this.shown = [];
    this.changed();
  }

  // This page sent one: the next waits INTERVAL_MS (the server's bound), or as long as the server said.
  sent() {
    this.cool(INTERVAL_MS);
  }

  // The server refused one (`error` with ref `react`): wait as long as it says.
  refused(m) {
    if (m.code === 'rate_limited') this.cool(Number(m.retry_after_ms) || INTERVAL_MS);
  }

  cool(ms) {
    const until = this.now() + ms;
    if (until <= this.coolUntil) return;
    this.coolUntil = until;
    this.changed();
    setTimeout(() => {
      if (this.now() >= this.coolUntil - 5) {
        this.changed();
        this.onchange();
      }
    }, ms + 10);
  }

  coolingDown() {
    return this.now() < this.coolUntil - 5;
  }

  // A room left or entered anew.
  clear() {
    this.shown = [];
    this.coolUntil = 0;
    this.changed();
  }
}

// The reaction beside a seat's name (a seat list, a board's label), or null.
export function badge(board, seat) {
  const r = board.forSeat(seat);
  if (!r) return null;
  return h('span', { class: 'reaction-badge', dataset: { reactionSeat: seat }, 'aria-label': t('reacts: {reaction}', { reaction: shownLabel(r) }) }, shownLabel(r));
}

// The transient bubbles ("Ben: phew"), drawn into `container` only when they changed (the
// container is a polite live region: a redraw must not read them again).
export function renderBubbles(container, board) {
  if (!container || container.dataset.version === String(board.version)) return;
  container.dataset.version = String(board.version);
  replace(container, board.recent().map((r) => h('li', { class: ['reaction-bubble', r.role === 'spectator' && 'spectator'], dataset: { key: r.key } },
    h('span', { class: 'who' }, r.name), ': ', h('span', { class: 'what' }, shownLabel(r)))));
}

// The bar of buttons (when `canSend`) and the mute toggle. `react(id)` sends one; `why` says why
// this viewer cannot send (a spectator in a room whose host has not allowed it).
export function reactionBar(board, { canSend, react, why = '' }) {
  const cooling = board.coolingDown();
  const buttons = canSend
    ? REACTIONS.map((r) => h('button', {
      type: 'button', class: ['react-btn', cooling && 'cooling'], 'data-fk': `react-${r.id}`, dataset: { reaction: r.id },
      'aria-label': t('React: {reaction}', { reaction: r.words }), 'aria-disabled': cooling ? 'true' : 'false', title: cooling ? t('one reaction every 2 seconds') : r.words,
      onclick: () => {
        if (!board.coolingDown()) react(r.id);
      } }, r.label))
    : [];
  return [
    buttons.length ? h('span', { class: 'react-buttons', role: 'group', 'aria-label': t('Send a reaction') }, buttons) : null,
    !canSend && why ? h('span', { class: 'small react-why' }, why) : null,
    h('label', { class: 'check react-mute' },
      h('input', { type: 'checkbox', id: 'react-mute', 'data-fk': 'react-mute', checked: board.muted, 'aria-label': t('Mute reactions'),
        onchange: (e) => {
          board.setMuted(e.target.checked);
          board.onchange();
        } }), ' ', h('span', { class: 'wide' }, t('Mute reactions')), h('span', { class: 'narrow', 'aria-hidden': 'true' }, t('Mute'))),
  ];
}
