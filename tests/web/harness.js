// What the browser tests share: a real spookludo-server on a free loopback port (a fresh data
// directory, a fast pace), real terminal bots (`spookludo bot`), `spookludo verify`, and Debian's
// Chromium driven by playwright-core, on a phone's viewport and a desktop's.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import https from 'node:https';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const SERVER = process.env.SPOOKLUDO_SERVER_BINARY || path.join(repo, 'build/release/server/spookludo-server');
export const CLIENT = process.env.SPOOKLUDO_CLIENT_BINARY || path.join(repo, 'build/release/client/spookludo');
export const CHROMIUM = process.env.SPOOKLUDO_CHROMIUM || '/usr/bin/chromium';

export const PHONE = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const DESKTOP = { viewport: { width: 1280, height: 800 } };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits until `check()` returns something truthy (polling), or throws `what` after `ms`.
export async function until(check, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(50);
  }
}

// A child process whose output is kept (and written to a log file in `dir`).
export class Child {
  constructor(label, argv, dir, { stdin = 'ignore' } = {}) {
    this.label = label;
    this.out = '';
    this.exit = null;
    this.log = fs.createWriteStream(path.join(dir, `${label}.log`));
    this.proc = spawn(argv[0], argv.slice(1), { stdio: [stdin, 'pipe', 'pipe'] });
    const take = (chunk) => {
      this.out += chunk.toString();
      this.log.write(chunk);
    };
    this.proc.stdout.on('data', take);
    this.proc.stderr.on('data', take);
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => {
      this.exit = code === null ? 128 : code;
      this.signal = signal;
      resolve(this.exit);
    }));
  }
  async waitFor(re, ms = 20000) {
    return until(() => {
      const m = re.exec(this.out);
      if (!m && this.exit !== null) throw new Error(`${this.label} ended (${this.exit}) before printing ${re}:\n${this.out.slice(-2000)}`);
      return m;
    }, `${this.label} printing ${re}:\n${this.out.slice(-1500)}`, ms);
  }
  async wait(ms = 60000) {
    let handle;
    const timer = new Promise((r) => (handle = setTimeout(() => r('timeout'), ms)));
    const result = await Promise.race([this.exited, timer]);
    clearTimeout(handle);
    if (result === 'timeout') throw new Error(`${this.label} still running after ${ms} ms:\n${this.out.slice(-2000)}`);
    return result;
  }
  kill(signal = 'SIGTERM') {
    if (this.exit === null) this.proc.kill(signal);
  }
}

// The terminal client (`spookludo ARGS...`) on a pseudo-terminal of its own (util-linux
// `script`; 80x24, no colour), with a state directory of its own (`home`, its XDG_STATE_HOME: the
// kept seats). `screen()` is what it drew, escapes removed; `write(keys)` types; `killClient`
// signals the client itself (killing `script` would hang its terminal up, which the client takes
// as leaving on purpose).
export function terminal(label, args, { dir, home }) {
  const quoted = [CLIENT, ...args].map((a) => `'${String(a).replace(/'/g, "'\\''")}'`).join(' ');
  const child = new Child(label, ['env', `XDG_STATE_HOME=${home}`, 'NO_COLOR=1', 'TERM=xterm-256color', 'COLUMNS=80', 'LINES=24',
    'script', '-qfec', `stty rows 24 cols 80; exec ${quoted}`, '/dev/null'], dir, { stdin: 'pipe' });
  child.screen = () => stripEscapes(child.out);
  child.write = (keys) => child.proc.stdin.write(keys);
  child.waitScreen = (text, ms = 20000) => until(() => {
    if (child.screen().includes(text)) return true;
    if (child.exit !== null) throw new Error(`${label} ended (${child.exit}) before showing "${text}":\n${child.screen().slice(-2500)}`);
    return false;
  }, `${label} showing "${text}":\n${child.screen().slice(-2500)}`, ms);
  // The client's own process: the newest descendant of script running the client binary.
  child.killClient = (signal = 'SIGKILL') => {
    for (const pid of descendants(child.proc.pid)) {
      let cmd = '';
      try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
      if (cmd.startsWith(CLIENT + '\0')) { process.kill(pid, signal); return pid; }
    }
    throw new Error(`${label}: no client process under script (${child.proc.pid})`);
  };
  return child;
}

function descendants(pid) {
  const parent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  const out = [];
  for (let todo = [pid]; todo.length;) {
    const p = todo.shift();
    for (const [child, of] of parent) if (of === p) { out.push(child); todo.push(child); }
  }
  return out;
}

// A terminal's output as text: CSI and OSC sequences and carriage returns removed.
export function stripEscapes(text) {
  return text.replace(/\x1b\[[0-?]*[ -\/]*[@-~]/g, '').replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '').replace(/\x1b[()][0-9A-Za-z]/g, '')
    .replace(/\x1b[=>78DEHM]/g, '').replace(/\r/g, '');
}

// The server, which serves the page itself (GET / and /r/<CODE>, its files under hashed names).
// With --tls-cert and --tls-key among `extra`, over https:// and wss://, its certificate checked
// against `ca` (PEM text).
export async function startServer(extra = [], { ca } = {}) {
  const tls = extra.includes('--tls-cert');
  for (const f of [SERVER, CLIENT]) if (!fs.existsSync(f)) throw new Error(`not built: ${f} (scripts/build.sh release)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-web-'));
  // The records are also exported as files (--export-records), which the tests verify.
  const argv = [SERVER, ...(extra.includes('--port') ? [] : ['--port', '0']), '--bind', '127.0.0.1', '--data-dir', path.join(dir, 'data'),
    '--export-records', path.join(dir, 'records'), ...(extra.includes('--pace-ms') ? [] : ['--pace-ms', '0']), '--log-level', 'info', ...extra];
  let server = new Child('server', argv, dir);
  const m = await server.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
  const port = Number(m[1]);
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const ws = `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}`;
  if (!(await servesPage(base, ca))) throw new Error(`${base}/ does not answer the web client's page`);
  const s = {
    dir, port, base, server,
    ws,
    recordFile: (id) => path.join(dir, 'records', `${id}.json`),
    bot(label, args) {
      return new Child(label, [CLIENT, 'bot', ws, ...args], dir);
    },
    async verify(target) {
      const v = new Child(`verify-${Date.now()}`, [CLIENT, 'verify', target], dir);
      const code = await v.wait(30000);
      return { code, out: v.out };
    },
    // Stops the server (SIGTERM), runs `between(dataDir)`, and starts it again on the same port
    // and data directory (its journal takes the rooms up again).
    async restart(between = () => {}) {
      server.kill('SIGTERM');
      await server.wait(10000);
      await between(path.join(dir, 'data'));
      const again = argv.map((a) => a);
      const at = again.indexOf('--port');
      if (at >= 0) again[at + 1] = String(port);
      server = new Child(`server-${Date.now()}`, again, dir);
      s.server = server;
      await server.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
    },
    async stop() {
      server.kill('SIGTERM');
      await server.wait(10000).catch(() => server.kill('SIGKILL'));
      if (!process.env.SPOOKLUDO_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}

async function servesPage(base, ca) {
  return new Promise((resolve) => {
    const req = (base.startsWith('https:') ? https : http).get(`${base}/`, { ca }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('<title>SpookLudo</title>')));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(3000, () => {
      req.destroy();
      resolve(false);
    });
  });
}

// A private CA (ca.pem) and a server's certificate from it for 127.0.0.1 and localhost (cert.pem,
// key.pem), two days each, made in the folder `d` by the openssl command.
export function makeCertificates(d) {
  const openssl = (...args) => execFileSync('openssl', args, { cwd: d, stdio: ['ignore', 'pipe', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-days', '2', '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=SpookLudo test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-new', ...ec, '-keyout', 'key.pem', '-out', 'cert.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(d, 'cert.ext'), [
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
    'subjectKeyIdentifier=hash',
    'authorityKeyIdentifier=keyid',
  ].join('\n') + '\n');
  openssl('x509', '-req', '-in', 'cert.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2',
    '-sha256', '-extfile', 'cert.ext', '-out', 'cert.pem');
}

// The base64 SHA-256 of a certificate's public key (its DER SubjectPublicKeyInfo): what
// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints.
export function spkiHash(pemFile) {
  const spki = new crypto.X509Certificate(fs.readFileSync(pemFile)).publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(spki).digest('base64');
}

// A page of another site (its own port on this machine), for the Origin check.
export function otherSite() {
  const srv = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>another site</title><p>another site</p>');
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

// A loopback port nobody listens on now (a cluster's node must know its address before it starts).
export function freePort() {
  return new Promise((resolve) => {
    const srv = http.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A redis-server of the test's own (Debian's, installed by scripts/setup.sh test) on a free port.
export async function startRedis() {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-web-redis-'));
  const redis = new Child('redis', ['/usr/bin/redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--save', '', '--appendonly', 'no'], dir);
  await redis.waitFor(/Ready to accept connections/);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      redis.kill('SIGTERM');
      await redis.wait(10000).catch(() => redis.kill('SIGKILL'));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// `args`: more of Chromium's switches.
export async function launch(args = []) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (scripts/setup.sh test installs Debian's chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', ...args] });
}

// A browser with a profile of its own in `profile` (a folder), rather than launch()'s incognito
// contexts (an incognito window cannot install a page as an app): its one context, on `device`.
export async function launchProfile(profile, device, args = []) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (scripts/setup.sh test installs Debian's chromium)`);
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', ...args], ...device });
}

// A page that fails the test on any error it logs or throws. Its context blocks service workers
// unless `device` says `serviceWorkers: 'allow'`: the page's (web/sw.js, on 127.0.0.1 as on any
// secure origin) would otherwise fill a cache for every context of every test, for nothing they
// check; installable.test.js tests it.
export async function newPage(browser, device, errors) {
  const context = await browser.newContext({ serviceWorkers: 'block', ...device });
  return watched(await context.newPage(), errors);
}

// `page`, its errors (thrown, or logged to its console) pushed onto `errors`.
export function watched(page, errors) {
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket|ERR_CONNECTION|Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return page;
}

// The page's current room code (from the top bar).
export async function roomCode(page) {
  await page.locator('#bar-room').waitFor({ timeout: 15000 });
  return (await page.locator('#bar-room').textContent()).trim();
}

// Plays whatever decision the page shows by pressing its first option's button, until `done()`.
// With `keys`, by pressing the option's number on the keyboard instead.
export async function answerDecisions(page, done, { ms = 120000, pick = 0, stop, keys = false } = {}) {
  const end = Date.now() + ms;
  let answered = 0;
  while (!(await done())) {
    if ((stop && stop.value) || page.isClosed()) return answered;
    if (Date.now() > end) throw new Error(`the game did not end within ${ms} ms (answered ${answered})`);
    const buttons = page.locator('#decision button.option:not([disabled])');
    const count = await buttons.count().catch(() => 0);
    if (count > 0) {
      try {
        if (keys) await page.keyboard.press(String(Math.min(pick, count - 1) + 1));
        else await buttons.nth(Math.min(pick, count - 1)).click({ timeout: 1000 });
        answered++;
      } catch {
        /* the decision went away (answered, timed out, redrawn): look again */
      }
    }
    await sleep(40);
  }
  return answered;
}

export { sleep };

// Waits until the page asks its player to choose (a decision's options). A Ludo throw with one
// distinct move is played at once, so about one game in a hundred on arms of 6 never asks (no
// second piece out before the bot wins): a game that ends first is followed by a rematch, which
// the page's player (the host) starts, up to `games` games.
export async function untilDecision(page, { ms = 90000, games = 4 } = {}) {
  for (let game = 1; ; game++) {
    const end = Date.now() + ms;
    for (;;) {
      if ((await page.locator('#decision button.option:not([disabled])').count()) > 0) return game;
      if ((await page.locator('#end-winner').count()) > 0) break;
      if (Date.now() > end) throw new Error(`no decision within ${ms} ms (game ${game})`);
      await sleep(50);
    }
    if (game === games) throw new Error(`${games} games ended without asking the player to choose`);
    await page.click('#end-close');
    await page.click('#start');
    await until(async () => (await page.locator('#end-winner').count()) === 0, 'the rematch started');
  }
}

// One server (with `args`) and one browser for a test file: started before its tests, stopped
// after them; `party.server` and `party.browser` are there once the tests run.
export function serverAndBrowser(args = []) {
  const party = { server: null, browser: null };
  before(async () => {
    party.server = await startServer(args);
    party.browser = await launch();
  });
  after(async () => {
    await party.browser?.close();
    await party.server?.stop();
  });
  return party;
}
