// Draws the installable page's icons (web/icons/*.png) from web/favicon.svg with Debian's
// Chromium, through the browser tests' playwright-core (scripts/setup.sh test installs both).
// Run once after the favicon changes, and commit the PNGs: the build embeds web/ as it is and
// runs no Node.
//
//   node scripts/make-icons.mjs
//
// icon-192.png, icon-512.png: the favicon as it is (rounded corners, transparent outside them),
// for "purpose": "any". maskable-512.png: the background to every edge and the ghost inside the
// middle 80% circle that a launcher's mask always keeps ("purpose": "maskable").
// apple-touch-icon.png (180 px): the background to every edge too, which iOS rounds itself.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(repo, 'tests/web/package.json'));
const { chromium } = require('playwright-core');

const favicon = fs.readFileSync(path.join(repo, 'web/favicon.svg'), 'utf8').trim();
const background = /<rect\b[^>]*fill="(#[0-9a-fA-F]{6})"[^>]*\/>/.exec(favicon);
if (!background) throw new Error('web/favicon.svg: no background <rect ... fill="#rrggbb"/> first');
const ghost = favicon.slice(favicon.indexOf(background[0]) + background[0].length, favicon.lastIndexOf('</svg>'));

// The ghost on a square background to every edge, drawn at `scale` about the middle (the
// favicon's 32 units: the ghost's farthest points are 15.6 units from the middle).
const fullBleed = (scale) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background[1]}"/>` +
  `<g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${ghost}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: fullBleed(0.78) }, // 15.6 * 0.78 < 12.8, the safe circle's radius
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.9) },
];

const out = path.join(repo, 'web/icons');
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.SPOOKLUDO_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, svg } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: path.join(out, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    console.log(`web/icons/${file}: ${size}x${size}, ${fs.statSync(path.join(out, file)).size} bytes`);
  }
} finally {
  await browser.close();
}
