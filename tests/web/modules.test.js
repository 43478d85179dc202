// Every module of the page parses as an ES module (a duplicate import, a stray token), without a
// browser: a page whose one module fails to parse shows nothing at all, and the browser tests
// would only say that no control was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js');

test('every module of the page parses as an ES module', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  assert.ok(files.length > 10, `the page's modules in ${dir}`);
  for (const f of files) {
    const run = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: readFileSync(join(dir, f)) });
    assert.equal(run.status, 0, `${f}: ${run.stderr}`);
  }
});
