// The words for what the server reports by code: a notice's `kind`, a game event's `kind`, an
// error's `code`, each with its parameters, worded in the page's language (i18n.js). The server's
// English `text`/`message` is the fallback for a code this page does not know.
// (Stub: the wording by code lands with the languages work.)
import { moreTimeNoticeText } from './more_time.js';

export function noticeText(m) {
  const moreTime = moreTimeNoticeText(m); // settings.time_factor, hurry, ask_time (more_time.js)
  if (moreTime !== null) return moreTime;
  return m.text || m.kind;
}

export function eventText(e) {
  return e.text || e.kind;
}

export function errorText(e) {
  return `${e.message} (${e.code})`;
}
