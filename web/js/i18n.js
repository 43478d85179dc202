// The page's texts in the reader's language, from the catalogues in po/ (GNU gettext, served at
// /i18n/<lang>.po). The English text is the message id: t('Seats: {taken} of {seats} taken',
// { taken: 2, seats: 4 }). scripts/po-update.sh finds every t/tn/tc call with xgettext.
// (Stub of the API: the catalogue loading lands with the languages work.)

const fill = (text, args) => (args ? String(text).replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : String(text));

// `msgid` in the page's language, its {name} places filled from `args`.
export function t(msgid, args) {
  return fill(msgid, args);
}

// The form for `n` (English: `one` for 1, `other` otherwise); {n} is filled with n.
export function tn(one, other, n, args) {
  return fill(n === 1 ? one : other, { n, ...args });
}

// `msgid` in a context (gettext's msgctxt), for one English word that translates two ways.
export function tc(context, msgid, args) {
  return fill(msgid, args);
}

// The page's language (a BCP 47 tag: 'en', 'ms').
export function lang() {
  return 'en';
}
