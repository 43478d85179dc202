// How the page reads a catalogue (web/js/i18n.js, without a browser): a .po file's entries with
// their contexts, plural forms and escapes, fuzzy and empty entries left to English, and the
// header's plural rule read by a small evaluator that takes gettext's C expressions and nothing
// else. And po/ms.po as the page reads it: every entry's {placeholders} the same as its English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from './harness.js';
import { parsePo, pluralRule } from '../../web/js/i18n.js';

test('a catalogue is read with its contexts, plural forms and escapes; fuzzy and empty entries are left to English', () => {
  const po = [
    '# a comment', 'msgid ""', 'msgstr ""', '"Language: xx\\n"', '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"', '',
    'msgid "Room"', 'msgstr "Bilik"', '',
    'msgctxt "seat"', 'msgid "left"', 'msgstr "sudah keluar"', '',
    'msgid "left"', 'msgstr "kiri"', '',
    '#, fuzzy', 'msgid "Fuzzy"', 'msgstr "Kabur"', '',
    'msgid "Empty"', 'msgstr ""', '',
    'msgid "{n} seat"', 'msgid_plural "{n} seats"', 'msgstr[0] "{n} place"', 'msgstr[1] "{n} "', '"places"', '',
    'msgid "Say \\"hi\\"\\n"', 'msgstr "Dis \\"salut\\"\\n"', '',
    '#~ msgid "Old"', '#~ msgstr "Vieux"',
  ].join('\n');
  const c = parsePo(po);
  assert.deepEqual(c.messages.get('Room'), ['Bilik']);
  assert.deepEqual(c.messages.get('seat\u0004left'), ['sudah keluar']);
  assert.deepEqual(c.messages.get('left'), ['kiri']);
  assert.equal(c.messages.has('Fuzzy'), false);
  assert.equal(c.messages.has('Empty'), false);
  assert.equal(c.messages.has('Old'), false);
  assert.deepEqual(c.messages.get('{n} seat'), ['{n} place', '{n} places']);
  assert.deepEqual(c.messages.get('Say "hi"\n'), ['Dis "salut"\n']);
  assert.deepEqual([0, 1, 2, 5].map(c.plural), [0, 0, 1, 1]);
});

test('plural rules are gettext\'s C expressions, read without eval; anything else is refused', () => {
  const slavic = pluralRule('(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)');
  assert.deepEqual([1, 2, 5, 11, 21, 22, 25, 111].map(slavic), [0, 1, 2, 2, 0, 1, 2, 2]);
  assert.deepEqual([0, 1, 2].map(pluralRule('n != 1')), [1, 0, 1]);
  assert.deepEqual([0, 1, 2].map(pluralRule('0')), [0, 0, 0]);
  assert.deepEqual([0, 1, 2, 3].map(pluralRule('n==0 ? 0 : n==1 ? 1 : 2')), [0, 1, 2, 2]);
  for (const bad of ['n; alert(1)', 'n +', 'constructor', '(n', 'n ? 1', 'n = 1', 'this', '`n`', 'n..1']) {
    assert.throws(() => pluralRule(bad), `${bad} is refused`);
  }
});

test('po/ms.po as the page reads it: every entry translated, with the same {placeholders} as its English (a plural entry: as its English plural, since Malay has one form for every n)', () => {
  const text = fs.readFileSync(path.join(repo, 'po', 'ms.po'), 'utf8');
  const c = parsePo(text);
  assert.deepEqual([0, 1, 7].map(c.plural), [0, 0, 0], 'Malay has one form');
  assert.ok(c.messages.size > 100);
  const ids = [...text.matchAll(/^(?:msgctxt "((?:[^"\\]|\\.)*)"\n)?msgid "((?:[^"\\]|\\.)+)"$(?:\nmsgid_plural "((?:[^"\\]|\\.)+)"$)?/gm)];
  for (const [, ctx, id, plural] of ids) {
    const msgid = JSON.parse(`"${id}"`);
    const english = plural === undefined ? msgid : JSON.parse(`"${plural}"`);
    const key = ctx === undefined ? msgid : `${JSON.parse(`"${ctx}"`)}\u0004${msgid}`;
    const forms = c.messages.get(key);
    assert.ok(forms, `"${msgid}" is translated`);
    const names = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const form of forms) assert.deepEqual(names(form), names(english), `"${form}" keeps the placeholders of "${english}"`);
  }
});
