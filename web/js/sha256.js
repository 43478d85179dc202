// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain JavaScript, for the dice check
// (dice_check.js) on a page that is not a secure context: browsers give `crypto.subtle` only to
// https:// pages and localhost, and most parties open the server as http://<its address>:7777.
// Where `crypto.subtle` exists the page uses it instead (fair_dice.js). No DOM: node runs it too
// (tests/web/dice_stream.test.js checks it against NIST's and RFC 4231's vectors).

// The constants: the first 32 bits of the fractional parts of the cube roots of the first 64
// primes (K) and of the square roots of the first 8 (INITIAL), as FIPS 180-4 defines them.
const primes = [];
for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p)) primes.push(n);
const frac = (x) => (x - Math.floor(x)) * 0x100000000 >>> 0;
const K = Uint32Array.from(primes, (p) => frac(Math.cbrt(p)));
const INITIAL = primes.slice(0, 8).map((p) => frac(Math.sqrt(p)) | 0);

const w = new Uint32Array(64);

// One 64-byte block of `data` at `at` into the state `h` (8 words).
function compress(h, data, at) {
  for (let i = 0; i < 16; i++, at += 4) w[i] = (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3];
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15];
    const b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, hh] = h;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0;
  h[1] = (h[1] + b) | 0;
  h[2] = (h[2] + c) | 0;
  h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0;
  h[5] = (h[5] + f) | 0;
  h[6] = (h[6] + g) | 0;
  h[7] = (h[7] + hh) | 0;
}

// The hash of `data` (a Uint8Array) continuing from `state` (after `done` bytes already hashed,
// a multiple of 64): the 32-byte digest.
function finish(state, done, data) {
  const h = state.slice();
  const whole = data.length - (data.length % 64);
  for (let at = 0; at < whole; at += 64) compress(h, data, at);
  const rest = data.length - whole;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(data.subarray(whole));
  tail[rest] = 0x80;
  const bits = (done + data.length) * 8;
  const end = tail.length;
  // The length in bits, big-endian in the last 8 bytes (messages here are far below 2^53 bits).
  const high = Math.floor(bits / 0x100000000);
  tail[end - 8] = high >>> 24;
  tail[end - 7] = high >>> 16;
  tail[end - 6] = high >>> 8;
  tail[end - 5] = high;
  tail[end - 4] = bits >>> 24;
  tail[end - 3] = bits >>> 16;
  tail[end - 2] = bits >>> 8;
  tail[end - 1] = bits;
  for (let at = 0; at < end; at += 64) compress(h, tail, at);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = h[i] >>> 16;
    out[i * 4 + 2] = h[i] >>> 8;
    out[i * 4 + 3] = h[i];
  }
  return out;
}

// SHA-256 of a Uint8Array: 32 bytes.
export function sha256(data) {
  return finish(INITIAL, 0, data);
}

// HMAC-SHA256 with one key for many messages: the key's inner and outer blocks are hashed once.
// Returns mac(message) -> 32 bytes.
export function hmacSha256(key) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const state = (pad) => {
    const b = block.map((x) => x ^ pad);
    const h = INITIAL.slice();
    compress(h, b, 0);
    return h;
  };
  const inner = state(0x36);
  const outer = state(0x5c);
  return (message) => finish(outer, 64, finish(inner, 64, message));
}
