// The page's own dice check under node alone (no browser): its SHA-256 and HMAC against NIST's and
// RFC 4231's vectors, the stream against docs/fair-dice.md's vectors (with the page's own hashing
// and with WebCrypto), and the check against real games: `spookludo sim` records of every variant
// and option set, and games served by a real server to terminal bots (their transcripts are the
// messages a page gets). Every record also passes `spookludo verify`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256, hmacSha256 } from '../../web/js/sha256.js';
import { FairStream, toHex, ownCrypto, webCrypto, commitmentOf } from '../../web/js/fair_dice.js';
import { DiceWatch, checkGame } from '../../web/js/dice_check.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLIENT = process.env.SPOOKLUDO_CLIENT_BINARY || path.join(repo, 'build/release/client/spookludo');
const SERVER = process.env.SPOOKLUDO_SERVER_BINARY || path.join(repo, 'build/release/server/spookludo-server');
const enc = new TextEncoder();
const hex = (s) => Uint8Array.from(s.match(/../g), (b) => parseInt(b, 16));
const BOTH = [ownCrypto(), webCrypto(globalThis.crypto.subtle)];
const quick = { pause: async () => {} };

test('SHA-256 gives the NIST vectors', () => {
  const vectors = [
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    ['abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1'],
  ];
  for (const [text, digest] of vectors) assert.equal(toHex(sha256(enc.encode(text))), digest, JSON.stringify(text));
  assert.equal(toHex(sha256(new Uint8Array(1000000).fill(0x61))), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  // Every length around the padding's edges agrees with node's own (OpenSSL's) SHA-256.
  for (let n = 0; n < 200; n++) {
    const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
    assert.equal(toHex(sha256(data)), createHash('sha256').update(data).digest('hex'), `length ${n}`);
  }
});

test('HMAC-SHA256 gives the RFC 4231 vectors', () => {
  const cases = [
    ['0b'.repeat(20), toHex(enc.encode('Hi There')), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [toHex(enc.encode('Jefe')), toHex(enc.encode('what do ya want for nothing?')), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
    ['aa'.repeat(20), 'dd'.repeat(50), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    ['0102030405060708090a0b0c0d0e0f10111213141516171819', 'cd'.repeat(50), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
    ['aa'.repeat(131), toHex(enc.encode('Test Using Larger Than Block-Size Key - Hash Key First')), '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
    ['aa'.repeat(131), toHex(enc.encode('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.')),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2'],
  ];
  for (const [key, data, mac] of cases) assert.equal(toHex(hmacSha256(hex(key))(hex(data))), mac, `key ${key.slice(0, 16)}...`);
  // Test case 5: the output truncated to 128 bits.
  assert.equal(toHex(hmacSha256(hex('0c'.repeat(20)))(enc.encode('Test With Truncation'))).slice(0, 32), 'a3b6167473100ee06e0c796c2955552b');
});

test("the stream gives docs/fair-dice.md's vectors, with the page's own hashing and with WebCrypto", async () => {
  const seed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  for (const c of BOTH) {
    assert.equal(await commitmentOf(seed, c), '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd', c.name);
    const s = await FairStream.open(seed, [{ seat: 2, seed: "carol's lucky socks" }, { seat: 0, seed: 'alice' }], c);
    assert.equal(toHex(s.context), '73706f6f6b6c75646f2f666169722d646963652f7631000000020000000000000005616c69636500000002000000136361726f6c2773206c75636b7920736f636b73');
    assert.equal(toHex(await s.block(0, 0)), 'c3dfea3757bc33abd4e6a51677642ccdba1f1b54640417fcaa32545cb12502ae');
    assert.equal(toHex(await s.block(1, 0)), '6ad32ea8645f2d503af1f882899d46a83dbeb70863ee0dea4a625313a349aad4');
    const faces = [];
    for (let i = 0; i < 20; i++) faces.push((await s.draw(i, 6)) + 1);
    assert.equal(faces.join(' '), '2 3 2 5 5 3 2 3 4 3 5 4 1 2 2 4 4 4 2 6', c.name);
    assert.deepEqual(await s.assignment(4), [0, 1, 2, 3]);
    const none = await FairStream.open(seed, [], c);
    assert.equal(toHex(none.context), '73706f6f6b6c75646f2f666169722d646963652f763100000000');
    const bare = [];
    for (let i = 0; i < 20; i++) bare.push((await none.draw(i, 6)) + 1);
    assert.equal(bare.join(' '), '1 6 6 1 3 3 3 1 4 1 2 2 5 2 4 3 6 3 4 5', c.name);
  }
});

// ---- Real games ------------------------------------------------------------------------------

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spookludo-dice-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(argv, ms = 60000) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout: ms });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// Runs the commands two at a time (the machine's two cores): [{ code, out }] in their order.
async function runAll(argvs) {
  const results = [];
  let next = 0;
  const one = (argv) => new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
  const worker = async () => {
    while (next < argvs.length) {
      const i = next++;
      results[i] = await one(argvs[i]);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

// Every variant and option set the simulator plays (bots only: no client seeds).
const VARIANTS = [
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((players) => ({ game: 'spook', players, pieces: 2 })),
  { game: 'spook', players: 3, pieces: 1 },
  { game: 'spook', players: 4, pieces: 3 },
  { game: 'spook', players: 5, pieces: 2, balanced_boards: false },
  { game: 'spook', players: 4, pieces: 1, play_on: true },
  ...[2, 3, 4].map((players) => ({ game: 'ludo', players })),
  { game: 'ludo', players: 4, arm: 6 },
  { game: 'ludo', players: 3, entry: 'start_square' },
  { game: 'ludo', players: 4, three_sixes: true },
  { game: 'ludo', players: 2, arm: 6, entry: 'start_square', three_sixes: true, play_on: true },
];

// The messages a page gets during `record`'s game, as the server sends them (room seats = game seats).
function messagesOf(record) {
  const id = 'SIMUL-1-00000000';
  const players = record.seats.map((s) => s.room_seat ?? s.seat);
  const out = [{ type: 'commitment', game_id: id, commitment: record.commitment, boards: record.boards || [] }];
  const assignment = [];
  (record.assignment || []).forEach((b, p) => (assignment[players[p]] = b));
  out.push({ type: 'game_started', game_id: id, options: record.options, players, assignment,
    client_seeds: record.client_seeds.map((c) => ({ seat: players[c.seat], seed: c.seed })) });
  const dice = record.draws.filter((d) => d.purpose !== 'assignment');
  if (record.options.game === 'spook') {
    dice.forEach((d, i) => out.push({ type: d.purpose === 'movement' ? 'roll' : 'activation', round: Math.floor(i / 2) + 1, face: d.value + 1 }));
  } else {
    const rollOff = dice.filter((d) => d.purpose === 'roll_off');
    out.push({ type: 'roll_off', events: rollOff.map((d, i) => ({ kind: 'roll_off_throw', seat: i, face: d.value + 1 })) });
    dice.filter((d) => d.purpose === 'throw').forEach((d, i) => out.push({ type: 'throw', turn: i + 1, face: d.value + 1 }));
  }
  return { id, out, over: { type: 'game_over', game_id: id, status: record.result.status, length: record.result.length, server_seed: record.server_seed, record: `/records/${id}` } };
}

function watched(messages) {
  const w = new DiceWatch();
  for (const m of messages) w.observe(m);
  return w;
}

const corpus = []; // { name, file, record }

before(async () => {
  const folders = VARIANTS.map((v, i) => path.join(dir, `sim-${i}`));
  const sims = await runAll(VARIANTS.map((v, i) => [CLIENT, 'sim', '--options', JSON.stringify(v), '--policy', 'random', '--games', '1',
    '--seed', String(1000 + i), '--records', folders[i], '--no-progress']));
  sims.forEach((r, i) => assert.equal(r.code, 0, `${JSON.stringify(VARIANTS[i])}: ${r.out}`));
  folders.forEach((folder, i) => {
    for (const f of fs.readdirSync(folder)) corpus.push({ name: JSON.stringify(VARIANTS[i]), file: path.join(folder, f) });
  });
  for (const c of corpus) c.record = JSON.parse(fs.readFileSync(c.file, 'utf8'));
});

test('every draw of every simulated game is what the page computes, and spookludo verify agrees', async () => {
  assert.equal(corpus.length, VARIANTS.length);
  const verified = await runAll(corpus.map((c) => [CLIENT, 'verify', '--quiet', c.file]));
  verified.forEach((v, i) => assert.equal(v.code, 0, `${corpus[i].name}: ${v.out}`));
  for (const c of corpus) {
    const { id, out, over } = messagesOf(c.record);
    const dice = c.record.draws.filter((d) => d.purpose !== 'assignment').length;
    // As a page that saw the whole game, without the record and with it.
    const alone = await checkGame(watched(out).forGame(id), over, null, quick);
    assert.equal(alone.verdict, 'fair', `${c.name}: ${JSON.stringify(alone)}`);
    assert.equal(alone.checked, dice, c.name);
    assert.equal(alone.total, dice, c.name);
    assert.equal(alone.boards, c.record.options.game === 'spook' && c.record.seats.length > 1, c.name);
    const withRecord = await checkGame(watched(out).forGame(id), over, c.record, quick);
    assert.deepEqual([withRecord.verdict, withRecord.checked, withRecord.total, withRecord.fromRecord], ['fair', dice, dice, 0], c.name);
  }
});

test('a die changed on the way (or shown again otherwise), or another seed revealed, is named', async () => {
  for (const c of corpus.filter((x) => x.record.seats.length === 4)) {
    const { id, out, over } = messagesOf(c.record);
    const spook = c.record.options.game === 'spook';
    const at = out.findIndex((m) => (spook ? m.type === 'activation' && m.round === 3 : m.type === 'throw' && m.turn === 9));
    const real = out[at].face;
    out[at] = { ...out[at], face: (real % 6) + 1 };
    const r = await checkGame(watched(out).forGame(id), over, c.record, quick);
    assert.equal(r.verdict, 'unfair', c.name);
    assert.deepEqual(r.bad, spook ? { kind: 'activation', step: 3, face: (real % 6) + 1, expected: real } : { kind: 'throw', step: 9, face: (real % 6) + 1, expected: real });
    const other = await checkGame(watched(messagesOf(c.record).out).forGame(id), { ...over, server_seed: '11'.repeat(32) }, c.record, quick);
    assert.equal(other.verdict, 'commitment', c.name);
    if (!spook) continue;
    // A snapshot that shows round 3's movement die otherwise than its roll did: that face is checked too.
    const honest = messagesOf(c.record).out;
    const roll = honest.find((m) => m.type === 'roll' && m.round === 3).face;
    const snapshot = { type: 'room', state: 'playing', game_id: id, options: c.record.options, game: { round: 3, roll: (roll % 6) + 1, phase: 'choosing' } };
    const twice = await checkGame(watched([...honest, snapshot]).forGame(id), over, c.record, quick);
    assert.deepEqual([twice.verdict, twice.bad], ['unfair', { kind: 'movement', step: 3, face: (roll % 6) + 1, expected: roll }], c.name);
  }
});

test('a page that joined late checks the dice it saw and counts the others from the record', async () => {
  for (const c of corpus.filter((x) => x.record.seats.length === 3)) {
    const { id, out, over } = messagesOf(c.record);
    const spook = c.record.options.game === 'spook';
    // It came in at round (throw) 5: a snapshot, then the messages from there on.
    const from = out.findIndex((m) => (spook ? m.type === 'roll' && m.round === 5 : m.type === 'throw' && m.turn === 5));
    const snapshot = { type: 'room', state: 'playing', game_id: id, commitment: c.record.commitment, boards: c.record.boards, options: c.record.options, game: {} };
    const late = watched([snapshot, ...out.slice(from)]).forGame(id);
    const dice = c.record.draws.filter((d) => d.purpose !== 'assignment').length;
    const r = await checkGame(late, over, c.record, quick);
    const seen = out.length - from;
    assert.deepEqual([r.verdict, r.checked, r.total, r.fromRecord, r.seedsFrom], ['fair', seen, dice, dice - seen, 'record'], c.name);
    assert.deepEqual(r.joinedAt, { kind: spook ? 'round' : 'turn', n: 5 }, c.name);
    // Without the record it cannot place the dice in the stream: it says so.
    assert.equal((await checkGame(late, over, null, quick)).why, 'no_seeds', c.name);
  }
});

test('an abandoned game is checked as far as it went, its last round cut after its movement roll', async () => {
  for (const c of corpus.filter((x) => x.record.seats.length === 2)) {
    const { id, out, over } = messagesOf(c.record);
    const spook = c.record.options.game === 'spook';
    // It stopped in round (at throw) 6, its movement roll shown and no more; the record went with the server.
    const cut = out.findIndex((m) => (spook ? m.type === 'activation' && m.round === 6 : m.type === 'throw' && m.turn === 7));
    const seen = out.slice(0, cut);
    const dice = seen.filter((m) => ['roll', 'activation', 'throw'].includes(m.type)).length
      + (seen.find((m) => m.type === 'roll_off')?.events.length || 0);
    const r = await checkGame(watched(seen).forGame(id), { ...over, status: 'abandoned', length: 5 }, null, quick);
    assert.deepEqual([r.verdict, r.checked, r.total], ['fair', dice, null], c.name);
  }
});

// ---- Games served by a real server, to terminal bots with client seeds -------------------------

async function servedGame(args, label) {
  const data = path.join(dir, `server-${label}`);
  const server = spawn(SERVER, ['--port', '0', '--bind', '127.0.0.1', '--data-dir', path.join(data, 'db'), '--export-records', path.join(data, 'records'), '--pace-ms', '0', '--log-level', 'info'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let text = '';
    const port = await new Promise((resolve, reject) => {
      const take = (chunk) => {
        text += chunk;
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      };
      server.stdout.on('data', take);
      server.stderr.on('data', take);
      server.on('exit', () => reject(new Error(`the server ended: ${text}`)));
      setTimeout(() => reject(new Error(`the server did not start: ${text}`)), 10000);
    });
    const transcript = path.join(data, 'transcript.jsonl');
    const bot = spawn(CLIENT, ['bot', `ws://127.0.0.1:${port}`, ...args, '--policy', 'random', '--start', '--quiet', '--transcript', transcript], { stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    bot.stdout.on('data', (c) => (said += c));
    bot.stderr.on('data', (c) => (said += c));
    const code = await new Promise((resolve) => bot.on('exit', resolve));
    assert.equal(code, 0, said);
    const messages = fs.readFileSync(transcript, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const over = messages.find((m) => m.type === 'game_over');
    const file = path.join(data, 'records', `${over.game_id}.json`);
    return { messages, over, file, record: JSON.parse(fs.readFileSync(file, 'utf8')) };
  } finally {
    server.kill('SIGTERM');
  }
}

test("served games: the page's check of the messages a player got agrees with the record and spookludo verify", async () => {
  for (const [label, args] of [['spook', ['--create', 'spook', '--players', '3', '--count', '3', '--pieces', '1']], ['ludo', ['--create', 'ludo', '--players', '2', '--count', '2']]]) {
    const g = await servedGame(args, label);
    assert.equal(run([CLIENT, 'verify', g.file]).code, 0);
    assert.ok(g.record.client_seeds.length >= 2, 'the bots sent their seeds');
    const w = watched(g.messages);
    const dice = g.record.draws.filter((d) => d.purpose !== 'assignment').length;
    for (const record of [null, g.record]) {
      const r = await checkGame(w.forGame(g.over.game_id), g.over, record, quick);
      assert.deepEqual([r.verdict, r.checked, r.total, r.seedsFrom], ['fair', dice, dice, 'seen'], `${label}: ${JSON.stringify(r)}`);
    }
    // A client seed other than the one published: not the stream the dice came from.
    const forged = g.messages.map((m) => (m.type === 'game_started' ? { ...m, client_seeds: m.client_seeds.map((c, i) => (i ? c : { ...c, seed: `${c.seed}x` })) } : m));
    const r = await checkGame(watched(forged).forGame(g.over.game_id), g.over, null, quick);
    assert.equal(r.verdict, 'unfair', label);
  }
});
