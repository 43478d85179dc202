// The screen of a page that the service worker (../sw.js) started from its copy on this device
// while the game server cannot be reached (app.js fetches this module then only, from that copy):
// it says so, asks the server again after a growing pause (3 s up to 15 s), at once on its button
// or when the device's network comes back, and loads the page from the server as soon as it answers.
import { $, h, replace } from './dom.js';
import { t } from './i18n.js';

const PAUSES_S = [3, 5, 10, 15];

let answers = async () => false; // app.js's question to the server: does it answer?
let tries = 0;
let next = 0; // when the next try starts (Date.now()), 0 while one runs
let timer = null;

// Draws the screen and starts trying; `serverAnswers()` resolves to whether the server answered.
export function start(serverAnswers) {
  answers = serverAnswers;
  document.body.dataset.screen = 'offline';
  replace($('screen'), h('section', { class: 'card', id: 'offline', 'aria-labelledby': 'offline-h' },
    h('h2', { id: 'offline-h', class: 'screen-title' }, t('The game server cannot be reached')),
    h('p', null, t('This page started from the copy kept on this device, but the game itself needs the server.')),
    h('p', null, t('Check that this device is on the same network as the server (or online, for a server on the internet) and that the server is running. The page carries on by itself as soon as the server answers.')),
    h('p', { id: 'offline-status', role: 'status', 'aria-live': 'polite' }),
    h('div', { class: 'row' }, h('button', { id: 'offline-retry', class: 'primary', onclick: () => attempt() }, t('Try again now')))));
  addEventListener('online', () => attempt());
  wait();
}

// The status line: the seconds until the next try, or the try under way.
function status() {
  const el = $('offline-status');
  if (!el) return;
  const secs = Math.max(1, Math.ceil((next - Date.now()) / 1000));
  el.textContent = next ? t('Trying again in {n} s…', { n: secs }) : t('Asking the server…');
}

function wait() {
  next = Date.now() + 1000 * PAUSES_S[Math.min(tries, PAUSES_S.length - 1)];
  clearInterval(timer);
  timer = setInterval(() => (Date.now() >= next ? attempt() : status()), 250);
  status();
}

async function attempt() {
  if (!next) return; // a try is under way
  next = 0;
  clearInterval(timer);
  status();
  tries += 1;
  if (await answers()) location.reload(); // the page from the server, the newest
  else wait();
}
