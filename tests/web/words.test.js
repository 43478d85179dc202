// The page's words for the server's codes (web/js/words.js), without a browser: every notice
// kind, event kind and error code PROTOCOL.md lists gets its own wording (not "The server said:
// ..."), and every example message of PROTOCOL.md is worded with all its {placeholders} filled.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, copyFileSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const protocol = readFileSync(join(root, 'protocol', 'PROTOCOL.md'), 'utf8');

let words;
let i18n;
before(async () => {
  // web/js holds ES modules for the browser; node reads them as such from a folder that says so.
  const dir = mkdtempSync(join(tmpdir(), 'spookludo-words-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const f of readdirSync(join(root, 'web', 'js'))) if (f.endsWith('.js')) copyFileSync(join(root, 'web', 'js', f), join(dir, f));
  // The little of a browser that i18n.js's language choice touches (the address, the history,
  // <html lang>, the remembered choice): the pseudo-language needs no catalogue from a server.
  globalThis.location ??= new URL('http://localhost/');
  globalThis.history ??= { state: null, replaceState() {} };
  globalThis.document ??= { documentElement: {} };
  const store = new Map();
  globalThis.localStorage ??= { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
  words = await import(pathToFileURL(join(dir, 'words.js')).href);
  i18n = await import(pathToFileURL(join(dir, 'i18n.js')).href);
});

// The section "Words and languages" and its tables' first column.
function section(title) {
  const start = protocol.indexOf(`## ${title}`);
  assert.ok(start >= 0, `PROTOCOL.md has a section ${title}`);
  const end = protocol.indexOf('\n## ', start + 3);
  return protocol.slice(start, end < 0 ? undefined : end);
}
function tableAfter(text, heading) {
  const at = text.indexOf(heading);
  assert.ok(at >= 0, `PROTOCOL.md has ${heading}`);
  const rows = [];
  let seenTable = false;
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (line.startsWith('|')) { seenTable = true; rows.push(line); } else if (seenTable) break;
  }
  const ids = [];
  for (const row of rows.slice(2)) {
    const first = row.split('|')[1] || '';
    for (const m of first.matchAll(/`([a-z_0-9]+)`/g)) ids.push(m[1]);
  }
  return ids;
}
const words_ = () => section('Words and languages');
const noticeKinds = () => tableAfter(words_(), '**Notices**');
const errorCodes = () => tableAfter(section('Errors'), '| code | meaning |');
const eventKinds = () => {
  const m = protocol.match(/Event kinds: ([^;]+);/);
  assert.ok(m, 'PROTOCOL.md lists the Ludo event kinds');
  return [...m[1].matchAll(/`([a-z_]+)`/g)].map((x) => x[1]);
};
// Every JSON example of a message of `type` (one line, or a line and its continuation lines).
const examples = (type) => {
  const lines = protocol.split('\n').map((l) => l.trim());
  const out = [];
  lines.forEach((line, i) => {
    if (!line.startsWith(`{"type":"${type}"`)) return;
    for (let more = 0, text = line; more < 4 && i + more < lines.length; ++more, text += lines[i + more] || '') {
      try { out.push(JSON.parse(text)); return; } catch { /* a continuation line follows */ }
    }
  });
  return out;
};
const isFallback = (text) => /^The server said:/.test(text);
const unfilled = (text) => /\{[a-z_]+\}/.test(text);

test('words: every notice kind in PROTOCOL.md is worded by the page, not the fallback', () => {
  const kinds = noticeKinds();
  assert.ok(kinds.length >= 15, `the notice kinds: ${kinds}`);
  for (const kind of kinds) {
    const text = words.noticeText({ type: 'notice', kind, seat: 1, name: 'Ben', text: 'ENGLISH' });
    assert.ok(!isFallback(text) && text !== 'ENGLISH', `notice ${kind}: ${text}`);
    assert.ok(!unfilled(text), `notice ${kind} leaves a placeholder: ${text}`);
  }
});

test('words: every notice example of PROTOCOL.md is worded as the server words it in English', () => {
  const list = examples('notice');
  assert.ok(list.length >= 20);
  for (const m of list) {
    const text = words.noticeText(m);
    assert.ok(!unfilled(text), `${JSON.stringify(m)} -> ${text}`);
    if (!m.failed && m.kind !== 'journal') assert.equal(text, m.text, `the English wording of ${m.kind}`);
  }
});

test('words: every error code in PROTOCOL.md is worded by the page, not the fallback', () => {
  const codes = errorCodes();
  assert.ok(codes.length >= 25, `the error codes: ${codes}`);
  for (const code of codes) {
    // version_mismatch without its args is another version's server: the page shows its words.
    const args = code === 'version_mismatch' ? { client: 1, server: 2 } : {};
    const text = words.errorText({ type: 'error', code, message: 'ENGLISH', args });
    assert.ok(!isFallback(text) && !text.includes('ENGLISH'), `error ${code}: ${text}`);
    assert.ok(!unfilled(text), `error ${code} leaves a placeholder: ${text}`);
  }
  assert.ok(isFallback(words.errorText({ code: 'from_a_newer_server', message: 'new words' })), 'an unknown code falls back to the message');
  assert.equal(words.errorText({ code: 'version_mismatch', message: 'this server speaks protocol 2, the client 1: update the client' }),
    'this server speaks protocol 2, the client 1: update the client', "another version's server without args: its own words");
  assert.match(words.errorText({ code: 'from_a_newer_server', message: 'new words' }), /new words/);
});

test('words: every error example of PROTOCOL.md is worded with its parameters', () => {
  const list = examples('error');
  assert.ok(list.length >= 15);
  for (const e of list) {
    const text = words.errorText(e);
    assert.ok(!isFallback(text), `${e.code}: ${text}`);
    assert.ok(!unfilled(text), `${JSON.stringify(e)} -> ${text}`);
  }
  const exact = words.errorText({ code: 'illegal_choice', args: { reason: 'exact_throw', piece: 1, square: 38, face: 4, needed: 2 } });
  assert.match(exact, /38/);
  assert.match(exact, /exact throw of 2/);
  assert.match(words.errorText({ code: 'server_full', args: { limit: 'rooms_per_address', holds: 10, max: 10 } }), /holds 10 open rooms/);
  assert.match(words.errorText({ code: 'bad_name', args: { reason: 'invisible', char: 'U+202E' } }), /U\+202E/);
});

test('words: every event kind in PROTOCOL.md and every table announcement is worded', () => {
  for (const kind of eventKinds()) {
    const text = words.eventText({ kind, seat: 1, colour: 'yellow', piece: 2, face: 6, from: 3, to: 9, square: 18, turn: 5, text: 'ENGLISH' });
    assert.ok(!isFallback(text) && text !== 'ENGLISH', `event ${kind}: ${text}`);
    assert.ok(!unfilled(text), `event ${kind}: ${text}`);
  }
  const named = words.eventText({ kind: 'moved', seat: 1, colour: 'yellow', piece: 2, from: 3, to: 9 }, { name: () => 'Ben' });
  assert.equal(named, 'Ben (yellow) moves piece 2 from 3 to 9');
  // A table game's announcements: the same English as the server's text.
  for (const type of ['roll', 'activation', 'roll_off', 'throw', 'turn_skipped']) {
    const list = examples(type).filter((m) => m.table || type === 'turn_skipped');
    assert.ok(list.length > 0, `a table example of ${type}`);
    for (const m of list) assert.equal(words.eventText(m), m.text, `${type}: ${JSON.stringify(m)}`);
  }
  const last = { names: ['Ann', 'Ben', 'Cid'], last: 'Throw 2: Cid throws 4. Next: Ann.', face: 4, last_kind: 'throw', last_step: 2, last_seat: 2, last_next: 0 };
  assert.equal(words.tableLastText(last), last.text || last.last);
  assert.equal(words.abandonedText({ status: 'abandoned', cause: 'host', reason: 'the host ended the game' }), 'The game was abandoned: the host ended the game.');
});

test('words: in the test pseudo-language every wording is wrapped, its placeholders filled', async (t) => {
  const set = i18n.setLanguage || i18n.setLang || i18n.useLanguage;
  if (typeof set !== 'function') {
    t.skip('i18n.js has no way to choose a language yet (a stub): the English wording is tested above');
    return;
  }
  await set('qps');
  try {
    const outside = (text) => text.replace(/⟦[^⟦⟧]*(⟦[^⟦⟧]*⟧[^⟦⟧]*)*⟧/g, '').trim();
    for (const m of examples('notice')) {
      const text = words.noticeText(m);
      assert.ok(text.startsWith('⟦') && !unfilled(text), `${m.kind}: ${text}`);
    }
    for (const e of examples('error')) {
      const text = words.errorText(e);
      assert.ok(text.startsWith('⟦') && !unfilled(text), `${e.code}: ${text}`);
      assert.equal(outside(text), '', `${e.code}: ${text}`);
    }
  } finally {
    await set('en');
  }
});
