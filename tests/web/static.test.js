// What the page's files must be, read from web/ itself: the room's page at most 100 KB
// gzip-compressed in all, the replay's and the history's own modules (fetched at their addresses
// only) at most 30 KB more, the installable page's (service worker, manifest, icons, offline
// screen) at most 40 KB, nothing fetched from elsewhere, no inline script or style (the server's Content-Security-Policy
// allows neither), and no HTML built from strings (text goes in as text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { repo } from './harness.js';

const web = path.join(repo, 'web');
const files = (function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
})(web);

// The modules of a game's replay and of the history's pages (/replay/<id>, /history...): a
// player's page in a room never fetches them.
const elsewhere = /\/js\/(screen_replay|replay_data|replay_words|screen_history|history_shared)\.js$/;
// The installable page's files, which the page itself does not load: the service worker (the
// browser fetches it, and it fetches the page's files into its cache, in the background after
// the page has started), the manifest and its icons (read by the browser to install the page),
// and the screen of a page started without the server (offline.js, fetched then only, from the
// service worker's copy).
const installable = /\/web\/(sw\.js|manifest\.webmanifest|icons\/.*|js\/offline\.js)$/;

test('the page weighs at most 100 KB gzip-compressed, all its files together; the replay and the history add at most 30 KB, the installable page\'s files 40 KB', () => {
  let total = 0;
  let more = 0;
  let app = 0;
  for (const f of files) {
    const size = zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
    if (elsewhere.test(f)) more += size;
    else if (installable.test(f)) app += size;
    else total += size;
  }
  assert.ok(total <= 100 * 1024, `the room's page: ${total} bytes`);
  assert.ok(more > 0 && more <= 30 * 1024, `the replay's and the history's modules: ${more} bytes`);
  assert.ok(app > 0 && app <= 40 * 1024, `the service worker, the manifest, the icons and the offline screen: ${app} bytes`);
});

test('the page fetches nothing from elsewhere: no URL of another site, no web fonts', () => {
  for (const f of files.filter((f) => !f.endsWith('.png'))) {
    const text = fs.readFileSync(f, 'utf8');
    const urls = (text.match(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'`)]*/gi) || []).filter((u) => !u.includes('www.w3.org/2000/svg'));
    assert.deepEqual(urls, [], `${path.relative(repo, f)} names another site`);
    assert.ok(!/@import|@font-face|url\(\s*["']?https?:/i.test(text), `${path.relative(repo, f)} loads a font or a stylesheet`);
  }
});

test('no inline script, no event handler attributes, no style attributes in the page', () => {
  const html = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    assert.match(m[0], /\ssrc=/, 'every script is a file');
    assert.equal(m[1].trim(), '', 'no inline script');
  }
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no onclick= and the like');
  assert.doesNotMatch(html, /\sstyle\s*=/i, 'no style attributes');
  assert.doesNotMatch(html, /<style\b/i, 'no style element');
});

test('the scripts never parse strings as HTML', () => {
  for (const f of files.filter((f) => f.endsWith('.js'))) {
    const text = fs.readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|\beval\s*\(|new Function\b/, path.relative(repo, f));
    assert.doesNotMatch(text, /setAttribute\(\s*['"](style|on[a-z]+)['"]/, `${path.relative(repo, f)} sets a style or handler attribute`);
  }
});

test('the service worker parses as a script once the server has put its build line before it', () => {
  const build = 'const BUILD = {"version":"0123456789abcdef","files":["/"],"catalogues":["/i18n/ms.po"]};\n';
  const text = fs.readFileSync(path.join(web, 'sw.js'), 'utf8');
  assert.doesNotThrow(() => new vm.Script(build + text, { filename: 'sw.js' }));
  assert.match(text, /\bBUILD\.version\b/, 'it names its cache by the build');
});
