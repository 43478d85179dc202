// What more than one screen uses: a button that copies a text (the lobby's invitation, the
// record's commands), the download of the last game's record kept in this page (the first screen
// and the end), a seat's Spook squares in words (the game and the end), and the question asked
// again before a destructive step (the dialog of index.html; the lobby and the game).
import { $, h, sentence } from './dom.js';
import { view, savedRecord } from './session.js';
import { t } from './i18n.js';

export function copyButton(text, label) {
  return h('button', { type: 'button', class: 'small-btn', onclick: async (e) => {
    const b = e.currentTarget;
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = t('Copied');
    } catch {
      b.textContent = t('Select and copy it');
    }
  } }, label);
}

// The download of the saved record and the command that checks the downloaded file.
export function recordDownload(prefix) {
  if (!savedRecord) return [];
  const cmd = `spookludo verify ${savedRecord.file}`;
  return [
    h('p', null, sentence(t('{link} and check the file where it was saved, also once the server has gone:'), {
      link: h('a', { href: savedRecord.href, download: savedRecord.file, id: `${prefix}-download` }, t('Download the record ({file})', { file: savedRecord.file })),
    })),
    h('pre', { class: 'cmd', id: `${prefix}-verify-file` }, cmd), copyButton(cmd, t('Copy the command')),
  ];
}

// Where a seat's Spook pieces stand, in words ('' for none).
export function positionsText(seat) {
  const pieces = view.spookPositions[seat] || [];
  return pieces.length ? t('at {squares}', { squares: pieces.map((p) => (p >= 40 ? t('church') : p)).join(', ') }) : '';
}

let afterConfirm = null; // what the dialog's yes does

// Asks again before a destructive step (the dialog of index.html): `action` runs on yes.
export function confirmStep(text, yes, action) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yes;
  afterConfirm = action;
  dialog.returnValue = '';
  dialog.showModal();
  $('confirm-no').focus();
}

$('confirm').addEventListener('close', () => {
  const action = afterConfirm;
  afterConfirm = null;
  if ($('confirm').returnValue === 'yes' && action) action();
});
