// More time for slower hands: the room's time factor (settings.time_factor: x1, x2, x3, 0 for no
// limit), the host's hurry of a player whose decision waits without a limit, and a player's ask
// for more time (a notice to the host). The lobby, the game screen and the story take their
// parts from here.
import { h } from './dom.js';
import { t } from './i18n.js';

// The choices, in the order the select shows them.
export const TIME_FACTORS = [1, 2, 3, 0];
// A player asks at most once in this long (the server's bound: rate_limited otherwise).
export const ASK_INTERVAL_MS = 30000;

export function timeFactorName(factor) {
  if (factor === 0) return t('no limit');
  if (factor === 1) return t('normal');
  return t('x{factor}', { factor });
}

// "Time to choose: x2" for everyone's view of the settings.
export function timeFactorSummary(settings) {
  const f = settings && settings.time_factor !== undefined ? settings.time_factor : 1;
  return t('More time to choose: {factor}', { factor: timeFactorName(f) });
}

// The host's select (the lobby's settings, and the game's host controls).
export function timeFactorSelect(id, settings, send) {
  const current = settings && settings.time_factor !== undefined ? settings.time_factor : 1;
  return h('div', { class: 'field' },
    h('label', { for: id }, t('More time to choose')),
    h('select', { id, 'data-fk': id, onchange: (e) => send({ type: 'set_settings', settings: { time_factor: Number(e.target.value) } }) },
      TIME_FACTORS.map((f) => h('option', { value: f, selected: f === current }, timeFactorName(f)))));
}

// What a screen reader hears when a decision without a limit opens.
export function noLimitAnnouncement(n) {
  return t('Your move: choose 1 to {n}; no time limit.', { n });
}

// The story's words for the notices of this part (null for any other kind).
export function moreTimeNoticeText(m) {
  const name = m.name || '';
  switch (m.kind) {
    case 'time_factor':
      if (m.factor === 0) return t('{name} lifted the time limit: take your time', { name });
      if (m.factor === 1) return t('{name} set the normal time to choose', { name });
      return t('{name} gave everyone more time to choose: x{factor}', { name, factor: m.factor });
    case 'hurry':
      return t('the host hurries {name}: {seconds} s left to choose', { name, seconds: Math.ceil((m.time_ms || 0) / 1000) });
    case 'ask_time':
      return t('{name} asks for more time to choose', { name });
    default:
      return null;
  }
}

// The host's controls in a game: the time factor, and a "Hurry" button for each player whose
// decision waits without a limit (or with more than the hurry would leave).
export function hostTimeControls(view, send) {
  const s = view.snapshot;
  if (!view.amHost || !s || !s.settings) return null;
  const hurry = (s.seats || []).filter((sv) => sv.choosing && !sv.free && sv.deadline_ms === undefined && sv.seat !== view.seat);
  return h('div', { class: 'more-time' },
    timeFactorSelect('time-factor-game', s.settings, send),
    hurry.length
      ? h('div', { class: 'row', role: 'group', 'aria-label': t('Hurry a player') },
        hurry.map((sv) => h('button', { type: 'button', id: `hurry-${sv.seat}`, 'data-fk': `hurry-${sv.seat}`,
          'aria-label': t('Hurry {name} (seat {seat}): a short time to choose', { name: sv.name, seat: sv.seat + 1 }),
          onclick: () => send({ type: 'hurry', seat: sv.seat }) }, t('Hurry {name}', { name: sv.name }))))
      : null);
}

let askedAt = -Infinity;

// A seated player's button (not the host's: the host sets the time): asks the host for more time.
export function askTimeButton(view, send, now, render) {
  if (view.isSpectator || view.seat < 0 || view.amHost) return null;
  const waiting = now - askedAt < ASK_INTERVAL_MS;
  return h('button', { type: 'button', id: 'ask-time', 'data-fk': 'ask-time', disabled: waiting,
    onclick: () => {
      if (send({ type: 'ask_time' })) {
        askedAt = now;
        view.say('info', t('You asked the host for more time to choose.'));
        render();
      }
    } }, waiting ? t('Asked the host for more time') : t('Ask for more time'));
}
