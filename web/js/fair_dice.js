// The fair dice stream of docs/fair-dice.md, byte by byte, as the page recomputes it to check a
// game's dice by itself (dice_check.js): the context from the client seeds, the blocks
// HMAC-SHA256(server seed, context || u64be(counter) || u32be(attempt)), and the draw of a uniform
// integer in [0, n) by rejection sampling. The hashing is the browser's WebCrypto where the page
// may use it (a secure context: https://, localhost), else the page's own (sha256.js). No DOM:
// node imports it too (tests/web/dice_stream.test.js).
import { sha256, hmacSha256 } from './sha256.js';

export const CONTEXT_LABEL = 'spookludo/fair-dice/v1';

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// 64 lowercase or uppercase hex digits (a server seed) as 32 bytes; null when it is not that.
export function seedBytes(hex) {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// The stream's context: the label, the number of client seeds, then per seed in increasing seat
// order u32be(seat) || u32be(byte length) || its UTF-8 bytes. `seeds`: [{ seat, seed }], the
// seats as the stream numbers them (the players in play order, 0..n-1; a table's devices).
export function streamContext(seeds) {
  const enc = new TextEncoder();
  const sorted = seeds.slice().sort((a, b) => a.seat - b.seat);
  const parts = [enc.encode(CONTEXT_LABEL), u32(sorted.length)];
  for (const s of sorted) {
    const bytes = enc.encode(s.seed);
    parts.push(u32(s.seat), u32(bytes.length), bytes);
  }
  return concat(parts);
}

function u32(x) {
  return new Uint8Array([x >>> 24, x >>> 16, x >>> 8, x].map((b) => b & 0xff));
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// The hashing: `crypto.subtle` (asynchronous) or the page's own code.
export function webCrypto(subtle) {
  return {
    name: 'webcrypto',
    sha256: async (bytes) => new Uint8Array(await subtle.digest('SHA-256', bytes)),
    async hmac(key) {
      const k = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      return async (message) => new Uint8Array(await subtle.sign('HMAC', k, message));
    },
  };
}

export function ownCrypto() {
  return {
    name: 'js',
    sha256: async (bytes) => sha256(bytes),
    async hmac(key) {
      const mac = hmacSha256(key);
      return async (message) => mac(message);
    },
  };
}

// WebCrypto where this page has it (a secure context), else the page's own implementation.
export function pageCrypto() {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  return subtle && globalThis.isSecureContext !== false ? webCrypto(subtle) : ownCrypto();
}

// SHA-256 of the server seed's 32 bytes as hex: what the server committed to. null: not a seed.
export async function commitmentOf(seedHex, crypto = pageCrypto()) {
  const seed = seedBytes(seedHex);
  return seed ? toHex(await crypto.sha256(seed)) : null;
}

const TWO64 = 1n << 64n;

export class FairStream {
  // `seedHex`: the revealed server seed; `seeds`: the client seeds, [{ seat, seed }].
  static async open(seedHex, seeds, crypto = pageCrypto()) {
    const key = seedBytes(seedHex);
    if (!key) throw new Error('the server seed is not 64 hex digits');
    const s = new FairStream();
    s.context = streamContext(seeds);
    s.mac = await crypto.hmac(key);
    s.crypto = crypto.name;
    return s;
  }

  // block(counter, attempt): 32 bytes.
  block(counter, attempt) {
    const m = new Uint8Array(this.context.length + 12);
    m.set(this.context);
    const view = new DataView(m.buffer);
    view.setBigUint64(this.context.length, BigInt(counter));
    view.setUint32(this.context.length + 8, attempt);
    return this.mac(m);
  }

  // Draw number `counter` of a uniform integer in [0, n).
  async draw(counter, n) {
    const range = BigInt(n);
    const limit = TWO64 - (TWO64 % range);
    for (let attempt = 0; ; attempt++) {
      const b = await this.block(counter, attempt);
      const word = new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);
      if (word < limit) return Number(word % range);
    }
  }

  // The Spook boards' assignment for `count` boards (counters 0 .. count-2): board_of_seat, the
  // index of the published board each player (in play order) gets.
  async assignment(count) {
    const boardOf = Array.from({ length: count }, (_, i) => i);
    for (let i = 0; i + 1 < count; i++) {
      const last = count - 1 - i;
      const j = await this.draw(i, last + 1);
      [boardOf[last], boardOf[j]] = [boardOf[j], boardOf[last]];
    }
    return boardOf;
  }
}
