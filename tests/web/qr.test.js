// The lobby's QR code (web/js/qr.js, the page's own encoder) read back by a real decoder,
// zbarimg (Debian's zbar-tools), for join links and longer texts up to version 10.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { qrMatrix } from '../../web/js/qr.js';

function pbm(grid, scale = 4, quiet = 4) {
  const n = grid.length;
  const size = (n + 2 * quiet) * scale;
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [];
    for (let x = 0; x < size; x++) {
      const gx = Math.floor(x / scale) - quiet;
      const gy = Math.floor(y / scale) - quiet;
      row.push(gx >= 0 && gy >= 0 && gx < n && gy < n && grid[gy][gx] ? 1 : 0);
    }
    rows.push(row.join(' '));
  }
  return `P1\n${size} ${size}\n${rows.join('\n')}\n`;
}

test('the QR code of a join link (and of longer texts, up to version 10) reads back with zbarimg', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-qr-'));
  try {
    const texts = ['http://127.0.0.1:7777/r/KQZTM', 'https://party.example.org/r/HRBKT', 'http://[2001:db8::1]:7777/r/ABCDE',
      'x'.repeat(60), `http://10.0.0.2:7777/r/ZZZZZ?${'y'.repeat(150)}`];
    const sizes = [];
    for (const [i, text] of texts.entries()) {
      const grid = qrMatrix(text);
      sizes.push(grid.length);
      const file = path.join(dir, `${i}.pbm`);
      fs.writeFileSync(file, pbm(grid));
      const out = execFileSync('zbarimg', ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      assert.equal(out.replace(/\n$/, ''), text);
    }
    assert.ok(sizes.some((s) => s >= 45), 'a symbol of version 7 or more (with its version information) was made');
    assert.equal(qrMatrix('z'.repeat(300)), null, 'too long: no code');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
