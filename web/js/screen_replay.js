// A game's replay, /replay/<game id>: the boards of a finished or abandoned game drawn as in play
// (spook.js, ludo.js over a View fed each step's position), stepped by roll, by round (Spook) or
// turn (Ludo), to the start or the end, with a slider and a player at a chosen speed; the keys
// ← → (a step), Shift+← Shift+→ or PageUp PageDown (a round or turn), Home End, space (play or
// pause). Beside each decision its analysis (replay_words.js), and a summary per player. The
// game comes from its record (GET /games/<id>), the analysis from GET /analysis/<id>: while that
// is being computed, refused for now (429) or not there, the replay works from the record alone
// (replay_data.js) and says why. Each step's sentences go to a polite live region.
import { $, h, replace, sentence } from './dom.js';
import { View } from './view.js';
import { spookBoard, legend } from './spook.js';
import { ludoBoard, colourMark } from './ludo.js';
import { t, tc } from './i18n.js';
import { letterOf, houseRulesText, teamsText } from './game_words.js';
import { abandonedText } from './words.js';
import { winnerText } from './screen_end.js';
import { optionsText } from './screen_lobby.js';
import { pageBar } from './history_shared.js';
import { fromRecord, fromAnalysis, sameMoment, stepByGroup, spookMoves, ludoMoves, snapshotOf, CHARACTER_OF_FACE } from './replay_data.js';
import * as words from './replay_words.js';

const SPEEDS = [2000, 1000, 500, 250]; // ms a step
const MAX_RETRIES = 30; // asks for the analysis again at most this often (each after the server's Retry-After)

const id = decodeURIComponent(location.pathname.slice('/replay/'.length).replace(/\/$/, ''));
const wanted = Number(new URLSearchParams(location.search).get('step')); // a link to a moment (?step=N)

const state = {
  phase: 'loading', // loading, ready, missing, failed
  failure: '',
  record: null,
  base: null, // the model from the record
  model: null, // the one shown: the analysis's once it is there
  at: 0,
  playing: false,
  speed: 1000,
  analysis: 'loading', // loading, waiting (asked again later), ready, none (not on this server), failed
  why: '', // the server's reason, when the analysis is refused or failed
  retryAt: 0,
  retries: 0,
};
let timer = null;
let built = false; // the screen's skeleton is there (controls, containers); a step redraws the rest

// ---- Loading -------------------------------------------------------------------------------------

export async function start() {
  const live = h('p', { id: 'replay-live', class: 'sr-only', 'aria-live': 'polite' });
  document.body.appendChild(live);
  document.addEventListener('keydown', keys);
  render();
  let res;
  try {
    res = await fetch(`/games/${encodeURIComponent(id)}`, { cache: 'no-store' });
  } catch (e) {
    return fail(t('The server cannot be reached: {reason}', { reason: e.message }));
  }
  if (res.status === 404) {
    state.phase = 'missing';
    return render();
  }
  if (!res.ok) return fail(t('The server answered HTTP {status}.', { status: res.status }));
  try {
    state.record = await res.json();
    state.base = fromRecord(state.record);
  } catch (e) {
    return fail(t('The game record cannot be read: {reason}', { reason: e.message }));
  }
  state.model = state.base;
  state.phase = 'ready';
  render();
  if (state.base.table) return;
  askAnalysis();
}

function fail(why) {
  state.phase = 'failed';
  state.failure = why;
  render();
}

// The analysis: kept when it comes; asked again after the server's Retry-After while it is being
// computed (202, 503) or refused for now (429).
async function askAnalysis() {
  state.analysis = 'loading';
  showStatus();
  let res;
  try {
    res = await fetch(`/analysis/${encodeURIComponent(id)}`, { cache: 'no-store' });
  } catch (e) {
    return analysisFailed(e.message);
  }
  if (res.ok && res.status !== 202) {
    try {
      const analysis = await res.json();
      const model = fromAnalysis(analysis, state.base);
      const at = Number.isInteger(wanted) && wanted >= 0 && wanted < model.steps.length ? wanted : sameMoment(state.model.steps, state.at, model.steps, model.game);
      state.model = model;
      state.analysis = 'ready';
      built = false;
      state.at = at;
      return render();
    } catch (e) {
      return analysisFailed(e.message);
    }
  }
  const text = await res.text().catch(() => '');
  let why = text.trim().split('\n')[0];
  try {
    why = JSON.parse(text).error || why;
  } catch { /* a line of text */ }
  if (res.status === 404 && !/^\{/.test(text.trim())) {
    // A server without the route (its 404 lists the routes it has).
    state.analysis = 'none';
    return showStatus();
  }
  if ((res.status === 429 || res.status === 202 || res.status === 503) && state.retries < MAX_RETRIES) {
    const after = Math.min(120, Math.max(1, Number(res.headers.get('Retry-After')) || 2));
    state.analysis = 'waiting';
    state.why = res.status === 429 ? why : '';
    state.retries++;
    state.retryAt = performance.now() + after * 1000;
    setTimeout(askAnalysis, after * 1000);
    return showStatus();
  }
  analysisFailed(why || `HTTP ${res.status}`);
}

function analysisFailed(why) {
  state.analysis = 'failed';
  state.why = why;
  showStatus();
}

// ---- Moving through the game ---------------------------------------------------------------------

function go(i, { keepPlaying = false } = {}) {
  const steps = state.model ? state.model.steps : [];
  if (!steps.length) return;
  if (!keepPlaying) stop();
  state.at = Math.max(0, Math.min(steps.length - 1, i));
  show();
}

const byGroup = (dir) => go(stepByGroup(state.model.steps, state.model.game, state.at, dir));

function stop() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (state.playing) {
    state.playing = false;
    showControls();
  }
}

function play() {
  if (state.at >= state.model.steps.length - 1) state.at = 0;
  state.playing = true;
  const tick = () => {
    if (!state.playing) return;
    if (state.at >= state.model.steps.length - 1) return stop();
    go(state.at + 1, { keepPlaying: true });
    timer = setTimeout(tick, state.speed);
  };
  show();
  timer = setTimeout(tick, state.speed);
}

const toggle = () => (state.playing ? stop() : play());

function keys(e) {
  if (state.phase !== 'ready' || !state.model.steps.length || e.ctrlKey || e.metaKey || e.altKey) return;
  const el = e.target;
  const tag = el && el.tagName;
  if (tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && el.type !== 'range')) return;
  // The slider moves itself with the arrows, Home, End and the page keys (its input event steps).
  if (tag === 'INPUT' && e.key !== ' ') return;
  if (e.key === ' ' && (tag === 'BUTTON' || tag === 'A')) return;
  const act = {
    ArrowRight: () => (e.shiftKey ? byGroup(1) : go(state.at + 1)),
    ArrowLeft: () => (e.shiftKey ? byGroup(-1) : go(state.at - 1)),
    PageDown: () => byGroup(1),
    PageUp: () => byGroup(-1),
    Home: () => go(0),
    End: () => go(state.model.steps.length - 1),
    ' ': toggle,
  }[e.key];
  if (!act) return;
  e.preventDefault();
  act();
}

// ---- Drawing -------------------------------------------------------------------------------------

// The View of step `i`: its position, what moved at it, the woken monster, the last throw.
function viewAt(i) {
  const model = state.model;
  const step = model.steps[i];
  const v = new View();
  v.onSnapshot(snapshotOf(model, step));
  const before = i > 0 ? model.steps[i - 1].position : null;
  if (model.game === 'spook') {
    const moves = before ? spookMoves(before, step.position) : [];
    const die = step.kind === 'activation' ? step.face : step.kind === 'round' ? step.activation : null;
    const character = (step.kind === 'activation' && step.character) || CHARACTER_OF_FACE[die];
    if (character) v.activation = { character, face: die, moved: step.kind === 'activation' ? moves : [] };
    v.lastMoves = step.kind === 'activation' ? [] : moves.filter((m) => m.to > m.from);
  } else {
    const moves = before ? ludoMoves(before, step.position, model.options.arm || 8) : [];
    v.lastMoves = moves.filter((m) => m.seat === step.seat && m.to >= 0).slice(0, 1);
    v.thrower = step.seat;
  }
  return v;
}

const nameOf = (seat) => state.model.names[seat] || t('seat {n}', { n: seat + 1 });

export function render() {
  document.title = t('SpookLudo: replay of game {id}', { id });
  pageBar();
  $('story-wrap').hidden = true;
  $('reactions').hidden = true;
  document.body.dataset.screen = 'replay';
  built = false;
  const screen = $('screen');
  if (state.phase === 'loading') return replace(screen, h('p', { class: 'connecting' }, t('Loading the game…')));
  if (state.phase === 'missing') {
    return replace(screen, h('section', { class: 'card', id: 'replay-missing' }, h('h2', null, t('No such game')),
      h('p', null, t('There is no game {id} on this server: check the address, or find the game in the history.', { id })),
      h('p', null, h('a', { href: '/history' }, t('The history of finished games')))));
  }
  if (state.phase === 'failed') return replace(screen, h('p', { class: 'alert', id: 'replay-failed' }, state.failure));
  const model = state.model;
  const head = h('section', { class: 'replay-head' },
    h('h2', { class: 'screen-title' }, t('Replay and analysis')),
    h('p', { class: 'lead' }, optionsText(model.options)),
    houseRulesText(model.options) ? h('p', { id: 'replay-rules' }, houseRulesText(model.options), ' ',
      teamsText(model.options, model.players, (seat) => model.names[seat] || t('seat {n}', { n: seat + 1 }))) : null,
    h('p', { class: 'small' }, sentence(t('Game {id}: {record}'), { id, record: h('a', { href: `/games/${encodeURIComponent(id)}`, id: 'replay-record' }, t('its record')) })),
    h('p', { id: 'replay-analysis', role: 'status', class: 'replay-analysis' }));
  if (model.table) {
    replace(screen, head, h('p', { class: 'card', id: 'replay-table' }, t('A game at one table: the server saw only the dice, never the coins, so there are no boards to replay. The record holds every die and announcement.')));
    return showStatus();
  }
  const spook = model.game === 'spook';
  const controls = h('section', { class: 'card replay-controls', 'aria-label': t('Replay controls') },
    h('div', { class: 'row replay-buttons' },
      button('replay-first', '⇤', tc('replay control', 'Start'), t('To the start (Home)'), () => go(0)),
      button('replay-back-group', '«', spook ? tc('replay control', 'Round') : tc('replay control', 'Turn'), spook ? t('Back a round (Shift+←)') : t('Back a turn (Shift+←)'), () => byGroup(-1)),
      button('replay-back', '‹', tc('replay control', 'Step'), t('Back a step (←)'), () => go(state.at - 1)),
      button('replay-play', '▶', tc('replay control', 'Play'), t('Play (space)'), toggle),
      button('replay-next', '›', tc('replay control', 'Step'), t('Forward a step (→)'), () => go(state.at + 1), true),
      button('replay-next-group', '»', spook ? tc('replay control', 'Round') : tc('replay control', 'Turn'), spook ? t('Forward a round (Shift+→)') : t('Forward a turn (Shift+→)'), () => byGroup(1), true),
      button('replay-last', '⇥', tc('replay control', 'End'), t('To the end (End)'), () => go(model.steps.length - 1), true),
      h('label', { class: 'small replay-speed' }, t('Speed'), ' ',
        h('select', { id: 'replay-speed', 'data-fk': 'replay-speed', onchange: (e) => { state.speed = Number(e.target.value); } },
          SPEEDS.map((ms) => h('option', { value: ms, selected: ms === state.speed }, t('{s} s a step', { s: ms / 1000 })))))),
    h('label', { class: 'replay-slider-label' }, h('span', { id: 'replay-where' }),
      h('input', { type: 'range', id: 'replay-slider', 'data-fk': 'replay-slider', min: 0, max: Math.max(0, model.steps.length - 1), step: 1, value: state.at,
        oninput: (e) => go(Number(e.target.value)) })),
    h('p', { class: 'small replay-keys' }, t('Keys: ← → a step, Shift+← Shift+→ (or PageUp PageDown) a round or turn, Home and End, space to play or pause.')));
  // The step and its choices beside the boards on a wide screen, above them on a phone.
  replace(screen, head, controls,
    h('div', { class: 'replay-main' },
      h('div', { class: 'replay-side' },
        h('section', { class: 'card replay-now', 'aria-labelledby': 'replay-moment' },
          h('h3', { id: 'replay-moment' }), h('p', { id: 'replay-step' }), h('div', { id: 'replay-end' })),
        h('div', { id: 'replay-decisions' })),
      h('div', { class: 'replay-boards' }, h('div', { id: 'replay-boards' }), spook ? legend() : null)),
    summary());
  built = true;
  showStatus();
  show();
}

// A control: its symbol and a short word (after the word when it goes forward), its full name for
// a screen reader and as its tooltip, with the key.
function button(id, symbol, word, label, onclick, forward = false) {
  const sym = h('span', { class: 'sym', 'aria-hidden': 'true' }, symbol);
  const text = h('span', { class: 'word' }, word);
  return h('button', { type: 'button', id, 'data-fk': id, class: 'replay-btn', 'aria-label': label, title: label, onclick },
    forward ? [text, ' ', sym] : [sym, ' ', text]);
}

// The analysis's state in words.
function showStatus() {
  const el = $('replay-analysis');
  if (!el || !state.model) return;
  const spook = state.model.game === 'spook';
  const coarse = spook ? t('Meanwhile the replay shows the position after each round.') : t('Meanwhile the replay shows the position after each throw.');
  let text = '';
  if (state.model.table) text = '';
  else if (state.analysis === 'loading') text = `${t('The analysis is being computed.')} ${coarse}`;
  else if (state.analysis === 'waiting' && state.why) {
    text = `${t('The server refuses the analysis for now ({reason}); it is asked again in {n} s.', { reason: state.why, n: Math.max(1, Math.round((state.retryAt - performance.now()) / 1000)) })} ${coarse}`;
  } else if (state.analysis === 'waiting') text = `${t('The analysis is being computed.')} ${coarse}`;
  else if (state.analysis === 'none') text = t('This server does not analyse games: the replay shows the positions without the analysis.');
  else if (state.analysis === 'failed') text = t('The analysis cannot be had ({reason}): the replay shows the positions without it.', { reason: state.why });
  el.textContent = text;
  el.hidden = !text;
}

function showControls() {
  const model = state.model;
  const n = model.steps.length;
  const slider = $('replay-slider');
  if (!slider) return;
  const step = model.steps[state.at];
  const where = t('Step {n} of {total}: {moment}', { n: state.at + 1, total: n, moment: words.momentText(model, step) });
  slider.value = String(state.at);
  slider.setAttribute('aria-valuetext', where);
  $('replay-where').textContent = where;
  const playing = $('replay-play');
  const label = state.playing ? t('Pause (space)') : t('Play (space)');
  playing.setAttribute('aria-label', label);
  playing.title = label;
  playing.setAttribute('aria-pressed', String(state.playing));
  playing.querySelector('.sym').textContent = state.playing ? '‖' : '▶';
  playing.querySelector('.word').textContent = state.playing ? tc('replay control', 'Pause') : tc('replay control', 'Play');
  for (const [button, off] of [['replay-first', state.at === 0], ['replay-back', state.at === 0], ['replay-back-group', state.at === 0],
    ['replay-next', state.at >= n - 1], ['replay-next-group', state.at >= n - 1], ['replay-last', state.at >= n - 1]]) {
    const b = $(button);
    // Kept focusable at the ends (a disabled button would throw the keyboard's focus out).
    b.setAttribute('aria-disabled', String(off));
  }
}

// Step `state.at` drawn: the moment, its sentences (also said politely), the end, the decisions, the boards.
function show() {
  if (!built) return;
  const model = state.model;
  const step = model.steps[state.at];
  if (!step) return;
  showControls();
  const v = viewAt(state.at);
  const lines = words.stepLines(model, state.at, v);
  const last = state.at === model.steps.length - 1;
  $('replay-moment').textContent = words.momentText(model, step);
  $('replay-step').textContent = lines.join(' ');
  replace($('replay-end'), last ? endPart() : null);
  const live = $('replay-live');
  if (live) live.textContent = `${words.momentText(model, step)}. ${lines.join(' ')}${last ? ' ' + $('replay-end').textContent : ''}`;
  replace($('replay-decisions'), decisions(step));
  replace($('replay-boards'), boards(v, step));
}

// The end: the winners (or why the game was abandoned) and the places.
function endPart() {
  const model = state.model;
  const spook = model.game === 'spook';
  const winners = model.winners.map(nameOf);
  const order = model.players.filter((seat) => model.places[seat] > 0).sort((a, b) => model.places[a] - model.places[b] || a - b);
  return [
    h('p', { class: 'winner', id: 'replay-result' }, model.status === 'finished' ? winnerText(winners, model.length, spook, model.options.teams)
      : `${abandonedText((state.record && state.record.result) || {})} ${t('The replay ends where the game stopped.')}`),
    order.length ? h('ol', { class: 'places', id: 'replay-places' }, order.map((seat) => h('li', { value: model.places[seat] },
      t('{place}. {name} (seat {seat})', { place: model.places[seat], name: nameOf(seat), seat: seat + 1 })))) : null,
  ];
}

function decisions(step) {
  if (!step.decisions.length) return null;
  const model = state.model;
  return h('section', { class: 'replay-decisions', 'aria-labelledby': 'replay-dec-h' },
    h('h3', { id: 'replay-dec-h' }, t('The choices at this step')),
    step.decisions.map((d) => {
      const said = words.decisionLines(model, d, nameOf(d.seat));
      const best = words.wasBest(d);
      return h('article', { class: ['card', 'replay-decision', best ? 'is-best' : 'is-costly'], id: `decision-${d.index}`, 'aria-label': nameOf(d.seat) },
        said.lines.map((line, k) => h('p', { class: k === 0 ? 'chose' : 'small' }, line)),
        said.cost ? h('p', { class: 'cost' }, said.cost) : null,
        said.meaning ? h('p', { class: 'small meaning' }, said.meaning) : null,
        (d.options || []).length > 1 ? h('ol', { class: 'replay-options', 'aria-label': t('The options, numbered as on the board') }, d.options.map((o) => {
          const chosen = o.piece === (d.chosen || {}).piece && o.to === (d.chosen || {}).to;
          const isBest = o.piece === (d.best || {}).piece && o.to === (d.best || {}).to;
          return h('li', { class: [chosen && 'chosen', isBest && 'best'] }, words.moveWords(model, o), ' ',
            h('span', { class: 'small' }, words.optionValue(d, o)), ' ',
            chosen ? h('span', { class: 'tag t-you' }, t('chosen')) : null, isBest ? h('span', { class: 'tag t-done' }, t('best')) : null);
        })) : null);
    }));
}

function boards(v, step) {
  const model = state.model;
  if (model.game === 'ludo') {
    const d = step.decisions[0];
    return [h('div', { class: 'ludo-wrap' }, ludoBoard(v, () => {}, d ? { seat: d.seat, options: d.options || [] } : null)),
      h('ul', { class: 'plain replay-players' }, model.players.map((seat) => h('li', { class: seat === step.seat && 'turn' },
        colourMark(v.ludoColour(seat)), ' ', v.seatName(seat))))];
  }
  const woken = v.activation ? letterOf(v.activation.character) : null;
  const big = model.players.length <= 2;
  return h('section', { class: ['others', 'replay-spook', big && 'wide'], 'aria-label': t('The boards') }, model.players.map((seat) => {
    const targets = new Map();
    for (const d of step.decisions.filter((x) => x.seat === seat)) {
      (d.options || []).forEach((o, k) => {
        const square = Math.min(o.to, 40);
        if (!targets.has(square)) targets.set(square, []);
        targets.get(square).push(k + 1);
      });
    }
    const pieces = v.spookPositions[seat] || [];
    return h('div', { class: 'other' },
      h('h4', null, v.seatName(seat), ' ', h('span', { class: 'small' }, t('at {squares}', { squares: pieces.map((p) => (p >= 40 ? t('church') : p)).join(', ') })),
        v.spookFinished[seat] ? h('span', { class: 'tag t-done' }, t('done, round {round}', { round: v.spookFinished[seat] })) : null),
      spookBoard(v, seat, { big, targets, woken, moves: v.lastMoves }));
  }));
}

// Every player's summary of the analysis; the worst moment a link that goes there.
function summary() {
  const model = state.model;
  if (!model.summary || !model.summary.length) return null;
  return h('section', { class: 'card replay-summary', id: 'replay-summary', 'aria-labelledby': 'replay-sum-h' },
    h('h3', { id: 'replay-sum-h' }, t('Summary')),
    h('ul', { class: 'plain' }, model.summary.map((s) => {
      const name = s.name || nameOf(s.seat);
      const best = s.best_choices ?? model.decisions.filter((d) => d.seat === s.seat && d.counted !== false && words.wasBest(d)).length;
      const worst = words.worstText(model, s);
      return h('li', { class: 'replay-player', dataset: { seat: s.seat } },
        h('h4', null, name),
        h('p', null, words.startText(s)),
        h('p', null, words.costText(s, best)),
        worst && s.worst ? h('p', null, h('a', { href: `?step=${s.worst.step}`, class: 'replay-worst', onclick: (e) => {
          e.preventDefault();
          go(s.worst.step);
          document.querySelector('.replay-controls')?.scrollIntoView({ block: 'start' });
        } }, worst)) : null,
        h('p', null, words.luckText(s, name)),
        h('p', null, words.diceText(s)),
        h('p', null, words.finishText(model, s, s.seat)));
    })));
}
