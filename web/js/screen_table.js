// A game at one table (options.table): paper boards and coins, the server's fair dice. In the
// lobby the host switches it on and enters the names at the table; in the game this screen shows
// the last die and what it means large (the shared screen), and the host's controls: "Next roll"
// (button, N or Space), "Skip turn" (Ludo), pause, the table's own pace, and "End game" naming the
// winners. Everyone else (a phone at the table) sees the same die and may add a client seed while
// the seed window is open.
import { h } from './dom.js';
import { view, send, render } from './session.js';
import { confirmStep } from './shared.js';
import { speakSwitch } from './announce.js';
import { t } from './i18n.js';
import { andList, seedsText } from './game_words.js';
import { tableLastText, seedByText } from './words.js';

let namesDraft = null;  // the names as typed in the lobby (kept across redraws)
let winners = new Set(); // the names ticked for "End game"
let phoneSeedSent = '';  // the game id this phone sent its seed for
let big = false;         // the host's page drawn as the table's shared screen (app.js)

// The host's page as the table's shared screen: the television's layout (screen_tv.js) with the
// host's keys and a small row of buttons; Escape (or "Controls") goes back.
export const tableBig = () => big && isTableGame() && view.amHost;
export function setTableBig(on) {
  big = Boolean(on);
  render();
}
export function tableHostBar() {
  const s = view.snapshot;
  const seeding = s.state === 'seeding';
  return h('div', { class: 'row tv-hostbar', id: 'table-hostbar' },
    h('button', { type: 'button', class: 'primary', id: 'table-next', 'aria-keyshortcuts': 'N Space', onclick: next },
      seeding ? t('Close the seeds and start (N)') : t('Next roll (N)')),
    s.options.game === 'ludo' && !seeding ? h('button', { type: 'button', id: 'table-skip', 'aria-keyshortcuts': 'S', onclick: () => send({ type: 'skip_turn' }) }, t('Skip turn (S)')) : null,
    view.paused
      ? h('button', { type: 'button', id: 'resume-game', onclick: () => send({ type: 'resume_game' }) }, t('Resume the game'))
      : h('button', { type: 'button', id: 'pause-game', onclick: () => send({ type: 'pause' }) }, t('Pause the game')),
    h('button', { type: 'button', id: 'table-small', 'aria-keyshortcuts': 'Escape', onclick: () => setTableBig(false) }, t('Controls (Esc)')));
}

export const isTableGame = () => Boolean(view.snapshot && view.snapshot.options && view.snapshot.options.table);

// The lobby: the host's switch and the names.
export function tableLobbyControls(s) {
  const o = s.options;
  if (namesDraft === null) namesDraft = (o.table_names || []).join(', ');
  const names = () => namesDraft.split(',').map((n) => n.trim()).filter((n) => n);
  const useNames = () => send({ type: 'set_options', options: { ...o, table: true, table_names: names(), players: names().length } });
  return h('section', { class: 'card host', id: 'table-lobby', 'aria-labelledby': 'table-h' },
    h('h3', { id: 'table-h' }, t('A game at one table')),
    h('p', { class: 'small' }, t('Paper boards and coins: the server throws the fair dice and this screen announces them; people move their own coins.')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'table-on', checked: Boolean(o.table), onchange: (e) => {
      if (e.target.checked) useNames();
      else send({ type: 'set_options', options: { ...o, table: false, table_names: [] } });
    } }), ' ', t('table game')),
    h('div', { class: 'field' }, h('label', { for: 'table-names' }, t('Names at the table (comma between them)')),
      h('input', { id: 'table-names', value: namesDraft, oninput: (e) => { namesDraft = e.target.value; } })),
    h('div', { class: 'row' }, h('button', { type: 'button', id: 'table-names-go', onclick: useNames }, t('Use these names'))),
    o.table ? h('p', { id: 'table-names-set' }, (o.table_names || []).length ? t('At the table: {names}', { names: o.table_names.join(', ') }) : t('At the table: (no names yet)')) : null);
}

// While paused the server refuses it, and the story says so.
function next() {
  send({ type: 'next' });
}

// The game: the die and its announcement large, and the host's controls.
export function tableScreen() {
  const s = view.snapshot;
  const tb = s.table || { names: s.options.table_names || [], next: 'start', seeds_by: [] };
  const ludo = s.options.game === 'ludo';
  const host = view.amHost;
  const els = [];
  const seeding = s.state === 'seeding';
  if (seeding && !host && view.isSpectator && phoneSeedSent !== s.game_id) {
    els.push(h('div', { class: 'row' }, h('button', { type: 'button', id: 'table-seed', onclick: () => {
      phoneSeedSent = s.game_id;
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      send({ type: 'client_seed', seed: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''), by: 'a phone at the table' });
    } }, t('Add this phone’s seed to the dice'))));
  }
  els.push(h('section', { class: 'card table-die', 'aria-live': 'polite', 'aria-labelledby': 'table-die-h' },
    h('h2', { id: 'table-die-h' }, seeding ? t('The dice are committed: seeds may come in') : t('The die')),
    h('p', { id: 'table-face', class: 'table-face' }, tb.face ? String(tb.face) : '–'),
    h('p', { id: 'table-last', class: 'table-last' },
      tableLastText(tb) || (seeding ? seedsText((tb.seeds_by || []).map(seedByText)) : t('The first roll waits for the host.'))),
    // The host's page on the table's television says the dice aloud too (as /tv/CODE does).
    speakSwitch()));
  if (host) {
    const paused = view.paused;
    const pace = tb.pace_ms || 0;
    els.push(h('section', { class: 'card host', 'aria-labelledby': 'table-host-h' },
      h('h3', { id: 'table-host-h' }, t('You are the host')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary big', id: 'table-next', 'aria-keyshortcuts': 'N Space', onclick: next },
          seeding ? t('Close the seeds and start (N)') : t('Next roll (N)')),
        ludo && !seeding ? h('button', { type: 'button', id: 'table-skip', 'aria-keyshortcuts': 'S', onclick: () => send({ type: 'skip_turn' }) }, t('Skip turn (S)')) : null,
        paused
          ? h('button', { type: 'button', id: 'resume-game', class: 'primary', onclick: () => send({ type: 'resume_game' }) }, t('Resume the game'))
          : h('button', { type: 'button', id: 'pause-game', onclick: () => send({ type: 'pause' }) }, t('Pause the game'))),
      h('div', { class: 'row' }, h('button', { type: 'button', id: 'table-big', onclick: () => setTableBig(true) },
        t('This screen on the television: the die large, Next with N or Space'))),
      h('div', { class: 'field' }, h('label', { for: 'table-pace' }, t('Dice by themselves')),
        h('select', { id: 'table-pace', onchange: (e) => send({ type: 'set_settings', settings: { table_pace_ms: Number(e.target.value) } }) },
          [[0, t('no: on Next')], [10000, t('every {n} s', { n: 10 })], [20000, t('every {n} s', { n: 20 })], [30000, t('every {n} s', { n: 30 })], [60000, t('every minute')]]
            .map(([v, text]) => h('option', { value: v, selected: v === pace }, text)))),
      seeding ? null : h('fieldset', { id: 'table-winners' }, h('legend', null, t('End the game: the winners')),
        (tb.names || []).map((name, i) => h('label', { class: 'check' }, h('input', { type: 'checkbox', id: `winner-${i}`, checked: winners.has(name),
          onchange: (e) => { if (e.target.checked) winners.add(name); else winners.delete(name); } }), ' ', name)),
        h('div', { class: 'row' }, h('button', { type: 'button', id: 'table-end', class: 'danger', onclick: () => {
          const names = [...winners];
          if (!names.length) {
            view.say('error', t('Tick the winner or winners first.'));
            render();
            return;
          }
          confirmStep(names.length > 1 ? t('End the game with {names} as the winners?', { names: andList(names) }) : t('End the game with {name} as the winner?', { name: names[0] }), t('End the game'), () => {
            send({ type: 'declare_winners', names });
            winners = new Set();
          });
        } }, t('End game'))))));
  }
  return els;
}

// N or Space: the next roll; S (Ludo): skip the turn (the host's page).
export function tableKeys(e) {
  if (!isTableGame() || !view.amHost || e.ctrlKey || e.metaKey || e.altKey) return false;
  const tag = e.target && e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON') return false;
  if (e.key === 'Escape' && big) {
    setTableBig(false);
    return true;
  }
  if (e.key === 'n' || e.key === 'N' || e.key === ' ') {
    e.preventDefault();
    next();
    return true;
  }
  if ((e.key === 's' || e.key === 'S') && view.snapshot.options.game === 'ludo') {
    e.preventDefault();
    send({ type: 'skip_turn' });
    return true;
  }
  return false;
}
