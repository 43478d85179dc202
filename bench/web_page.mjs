// The web client's weight and its time to interactive, on loopback, at a phone's viewport
// (360x640): a real spookludo-server (build/release) and Debian's Chromium through playwright-core
// (tests/web's pinned copy: run `scripts/setup.sh test` first).
//
//   node bench/web_page.mjs [LOADS]        (default 15 loads of each kind)
//
// Each load opens a join link (/r/CODE) and times, in the page's own clock, the moment the join
// form's button exists (the modules fetched, parsed and run, the first screen drawn): that is
// "interactive" here. Cold loads use a fresh browser context (empty cache, gzip); warm loads
// reload in the same context (index revalidated, 304; the versioned files from the cache). Each
// kind runs as is, with the CPU slowed 4x (Chromium's throttling, a mid-range phone), and with
// that and 40 ms more of round trip (Chromium's network emulation: a phone on Wi-Fi).
// Prints medians (min-max) and the bytes that crossed the wire (headers included).
import { startServer, launch, PHONE } from '../tests/web/harness.js';

const loads = Number(process.argv[2] || 15);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs, unit = 'ms', digits = 0) =>
  `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

const marker = () => {
  const seen = () => {
    if (window.__interactive === undefined && document.getElementById('join-go')) window.__interactive = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
};

async function once(context, page, cdp, url, reload) {
  let bytes = 0;
  let requests = 0;
  const onFinished = (e) => {
    bytes += e.encodedDataLength;
    requests++;
  };
  cdp.on('Network.loadingFinished', onFinished);
  if (reload) await page.reload({ waitUntil: 'load' });
  else await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__interactive !== undefined, null, { timeout: 20000 });
  const t = await page.evaluate(() => ({
    interactive: window.__interactive,
    dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
    load: performance.getEntriesByType('navigation')[0].loadEventEnd,
  }));
  // Late finishes (the favicon) still count.
  await new Promise((r) => setTimeout(r, 100));
  cdp.off('Network.loadingFinished', onFinished);
  return { ...t, bytes, requests };
}

const server = await startServer();
const browser = await launch();
try {
  const url = `${server.base}/r/KQZTM`;
  const rows = [];
  for (const [slow, latency] of [[1, 0], [4, 0], [4, 40]]) {
    const cold = [];
    const warm = [];
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext(PHONE);
      await context.addInitScript(marker);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slow });
      if (latency)
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
      cold.push(await once(context, page, cdp, url, false));
      warm.push(await once(context, page, cdp, url, true));
      await context.close();
    }
    for (const [kind, xs] of [['cold (empty cache)', cold], ['warm (reload)', warm]])
      rows.push(`| ${kind} | ${slow === 1 ? 'as is' : `${slow}x slower`}${latency ? `, +${latency} ms round trip` : ''} | ${fmt(xs.map((x) => x.interactive))} | ${fmt(xs.map((x) => x.dcl))} | ${fmt(xs.map((x) => x.bytes / 1024), 'KB', 1)} | ${median(xs.map((x) => x.requests))} |`);
  }
  console.log(`web client at 360x640 on loopback, ${loads} loads each (median (min-max)):`);
  console.log('| load | CPU, network | interactive | DOMContentLoaded | bytes on the wire | files loaded |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  await browser.close();
  await server.stop();
}
