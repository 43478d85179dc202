// The page's texts in the reader's language, from the catalogues in po/ (GNU gettext, served at
// /i18n/<lang>.po, the languages at /i18n/languages.json). The English text is the message id:
// t('Seats: {taken} of {seats} taken', { taken: 2, seats: 4 }). scripts/po-update.sh finds every
// t/tn/tc call with xgettext.
//
// The page reads the .po files itself, rather than a JSON made from them: the server needs no
// build step it lacks (no Node, no gettext tools to build it), and each language is one file, the
// same for the page and the terminal client, which translators edit and `msgfmt --check` checks.
//
// Which language: `?lang=xx` in the address (tests: `?lang=qps`, the pseudo-language, every text
// wrapped in ⟦…⟧), else the one chosen on the page (the switch, kept in localStorage), else the
// first of the browser's languages that has a catalogue (ms-MY is ms), else English. setup()
// loads it before the page's first drawing; setLanguage() changes it at once and the page is
// drawn again (onLanguageChange).
import { savedLanguage, saveLanguage } from './store.js';

const PSEUDO = 'qps'; // the pseudo-language: English wrapped in ⟦…⟧, to find texts not translated
const CONTEXT_GLUE = '\u0004'; // gettext's separator of a msgctxt and its msgid

const fill = (text, args) => (args ? String(text).replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : String(text));

let current = 'en';
let catalogue = null; // the current language's: { messages: Map(key -> [msgstr...]), plural: n -> index }
let known = [{ lang: 'en', name: 'English' }]; // /i18n/languages.json
const loaded = new Map(); // lang -> its catalogue, once fetched (bounded by the languages there are)
const listeners = [];

// ---- The API ------------------------------------------------------------------------------------

// `msgid` in the page's language, its {name} places filled from `args`.
export function t(msgid, args) {
  return translated(msgid, msgid, args);
}

// The form for `n` (English: `one` for 1, `other` otherwise); {n} is filled with n.
export function tn(one, other, n, args) {
  const all = { n, ...args };
  const english = n === 1 ? one : other;
  if (current === PSEUDO) return `⟦${fill(english, all)}⟧`;
  const forms = catalogue?.messages.get(one);
  if (forms) {
    const form = forms[catalogue.plural(Number(n))];
    if (form) return fill(form, all);
  }
  return fill(english, all);
}

// `msgid` in a context (gettext's msgctxt), for one English word that translates two ways.
export function tc(context, msgid, args) {
  return translated(context + CONTEXT_GLUE + msgid, msgid, args);
}

// The page's language (a BCP 47 tag: 'en', 'ms'; 'qps' for the pseudo-language).
export function lang() {
  return current;
}

// The languages the page can be read in, as the server lists them: [{ lang, name }], English first.
export function languages() {
  return known;
}

// Calls `f` after each change of language (the page draws itself again).
export function onLanguageChange(f) {
  listeners.push(f);
}

function translated(key, msgid, args) {
  if (current === PSEUDO) return `⟦${fill(msgid, args)}⟧`;
  const forms = catalogue?.messages.get(key);
  return fill(forms && forms[0] ? forms[0] : msgid, args);
}

// ---- Choosing and loading -----------------------------------------------------------------------

// The language to start in, and its catalogue loaded: awaited before the page's first drawing.
// A server that cannot give the catalogues leaves the page in English.
export async function setup() {
  const fromAddress = new URLSearchParams(location.search).get('lang');
  const stored = savedLanguage();
  const early = fromAddress || stored; // fetched beside the list when it is one
  const earlyLoad = early && early !== 'en' && early !== PSEUDO && /^[A-Za-z][\w-]*$/.test(early) ? fetchCatalogue(early) : null;
  earlyLoad?.catch(() => {}); // awaited below only when it is the one chosen
  try {
    const res = await fetch('/i18n/languages.json');
    if (res.ok) {
      const list = await res.json();
      if (Array.isArray(list)) known = list.filter((l) => l && typeof l.lang === 'string' && typeof l.name === 'string');
    }
  } catch {
    /* no list: English only (and the pseudo-language) */
  }
  if (!known.some((l) => l.lang === 'en')) known.unshift({ lang: 'en', name: 'English' });
  // The first of these the server has a catalogue for (a choice whose catalogue has gone falls
  // back to the browser's languages).
  const browser = navigator.languages?.length ? navigator.languages : [navigator.language];
  const chosen = pick([fromAddress, stored, ...browser]) || 'en';
  await use(chosen, chosen === early ? earlyLoad : null);
}

// The first of `tags` the page has (exactly, else by its language alone: ms-MY is ms).
function pick(tags) {
  for (const tag of tags) {
    if (typeof tag !== 'string') continue;
    if (tag === PSEUDO) return PSEUDO;
    const norm = tag.replace(/_/g, '-').toLowerCase();
    const exact = known.find((l) => l.lang.replace(/_/g, '-').toLowerCase() === norm);
    if (exact) return exact.lang;
    const base = known.find((l) => l.lang.toLowerCase() === norm.split('-')[0]);
    if (base) return base.lang;
  }
  return null;
}

// Reads the page in `tag` from now on, remembered in this browser, and draws the page again.
export async function setLanguage(tag) {
  const chosen = pick([tag]) || 'en';
  saveLanguage(chosen);
  // The address's ?lang= would override the choice at the next load: it goes.
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  if (chosen === current) return;
  await use(chosen, null);
  for (const f of listeners) f(current);
}

async function use(tag, pending) {
  let cat = null;
  if (tag !== 'en' && tag !== PSEUDO) {
    try {
      cat = loaded.get(tag) || (await (pending || fetchCatalogue(tag)));
      loaded.set(tag, cat);
    } catch {
      tag = 'en'; // the catalogue cannot be had: English
    }
  }
  current = tag;
  catalogue = cat;
  document.documentElement.lang = tag;
}

async function fetchCatalogue(tag) {
  const res = await fetch(`/i18n/${encodeURIComponent(tag)}.po`);
  if (!res.ok) throw new Error(`no catalogue for ${tag}`);
  return parsePo(await res.text());
}

// ---- The .po format -----------------------------------------------------------------------------

// A catalogue from the text of a .po file: its translated entries (fuzzy and empty ones left out:
// their English shows) by msgid, or msgctxt \u0004 msgid, and its plural rule (the header's
// Plural-Forms; English's when it has none or one this page cannot read).
export function parsePo(text) {
  const messages = new Map();
  let plural = (n) => (n === 1 ? 0 : 1);
  let entry = null; // { ctx, id, plural, strs: [], fuzzy }
  let field = null; // [object, key] the next continued string adds to
  let fuzzy = false;
  const flush = () => {
    if (entry && entry.id !== undefined) {
      if (entry.id === '') {
        const forms = /^Plural-Forms:(.*)$/im.exec(entry.strs[0] || '');
        const rule = forms && /plural\s*=\s*([^;]+)/.exec(forms[1]);
        if (rule) {
          try {
            plural = pluralRule(rule[1]);
          } catch {
            /* unreadable: English's rule */
          }
        }
      } else if (!entry.fuzzy && entry.strs.length && entry.strs.every((s) => s)) {
        messages.set(entry.ctx === undefined ? entry.id : entry.ctx + CONTEXT_GLUE + entry.id, entry.strs);
      }
    }
    entry = null;
    field = null;
  };
  const start = () => {
    if (!entry || entry.strs.length) {
      flush();
      entry = { ctx: undefined, id: undefined, strs: [], fuzzy };
      fuzzy = false;
    }
    return entry;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) {
      flush();
      continue;
    }
    if (line.startsWith('#')) {
      if (line.startsWith('#,') && /\bfuzzy\b/.test(line)) fuzzy = true;
      continue; // comments, references, obsolete entries (#~)
    }
    const m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s*(".*")$/.exec(line);
    if (m) {
      const value = unquote(m[3]);
      if (m[1] === 'msgctxt') {
        start().ctx = value;
        field = [entry, 'ctx'];
      } else if (m[1] === 'msgid') {
        const e = entry && entry.id === undefined && !entry.strs.length ? entry : start();
        e.id = value;
        field = [e, 'id'];
      } else if (m[1] === 'msgid_plural') {
        if (entry) field = [{}, 'ignored'];
      } else if (entry) {
        const index = m[2] === undefined ? 0 : Number(m[2]);
        if (index < 16) {
          entry.strs[index] = value;
          field = [entry.strs, index];
        }
      }
      continue;
    }
    if (line.startsWith('"') && field) field[0][field[1]] += unquote(line);
  }
  flush();
  return { messages, plural };
}

// A C string literal's content ("a\"b\n" -> a"b + newline).
function unquote(quoted) {
  const inner = quoted.slice(1, -1);
  return inner.replace(/\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))/g, (m, oct, hex, c) => {
    if (oct) return String.fromCharCode(parseInt(oct, 8));
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    return { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' }[c] ?? c;
  });
}

// The plural rule of a Plural-Forms header (a C expression in n: ?:, ||, &&, comparisons,
// + - * / %, !, parentheses), read here into a function rather than run by eval: the page's
// Content-Security-Policy forbids that, and a catalogue's text is not code. Throws when unreadable.
export function pluralRule(source) {
  const tokens = source.match(/\s*(\d+|n|\|\||&&|==|!=|<=|>=|[<>?:!()+\-*/%])/g);
  if (!tokens || tokens.join('').replace(/\s/g, '') !== source.replace(/\s/g, '')) throw new Error('unreadable plural rule');
  const list = tokens.map((s) => s.trim());
  let at = 0;
  const peek = () => list[at];
  const take = (want) => {
    if (want !== undefined && list[at] !== want) throw new Error('unreadable plural rule');
    return list[at++];
  };
  const binary = (next, ops) => () => {
    let left = next();
    while (ops[peek()]) {
      const op = ops[take()];
      const l = left;
      const r = next();
      left = (n) => op(l(n), r(n));
    }
    return left;
  };
  const num = (b) => (b ? 1 : 0);
  const primary = () => {
    const tok = take();
    if (tok === 'n') return (n) => n;
    if (/^\d+$/.test(tok)) {
      const v = Number(tok);
      return () => v;
    }
    if (tok === '(') {
      const e = ternary();
      take(')');
      return e;
    }
    if (tok === '!') {
      const e = primary();
      return (n) => num(!e(n));
    }
    if (tok === '-') {
      const e = primary();
      return (n) => -e(n);
    }
    throw new Error('unreadable plural rule');
  };
  const mul = binary(primary, { '*': (a, b) => a * b, '/': (a, b) => (b ? Math.trunc(a / b) : 0), '%': (a, b) => (b ? a % b : 0) });
  const add = binary(mul, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const rel = binary(add, { '<': (a, b) => num(a < b), '>': (a, b) => num(a > b), '<=': (a, b) => num(a <= b), '>=': (a, b) => num(a >= b) });
  const eq = binary(rel, { '==': (a, b) => num(a === b), '!=': (a, b) => num(a !== b) });
  const and = binary(eq, { '&&': (a, b) => num(a && b) });
  const or = binary(and, { '||': (a, b) => num(a || b) });
  function ternary() {
    const cond = or();
    if (peek() !== '?') return cond;
    take('?');
    const yes = ternary();
    take(':');
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (at !== list.length) throw new Error('unreadable plural rule');
  return (n) => {
    const index = rule(Math.abs(Math.trunc(n)));
    return Number.isFinite(index) && index >= 0 ? index : 0;
  };
}
