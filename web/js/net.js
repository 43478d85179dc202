// The connection to the game server: ws(s)://<this page's host>/ws, the protocol's hello, and
// coming back by itself. In a cluster the page stays on the node it came from and only the
// WebSocket follows a `redirect` to the node that has the room; after failed attempts it goes
// round the cluster's nodes (any of them sends it on). A lost connection is tried again with a growing pause (0.5 s up to
// 10 s); a page that becomes visible again or a network that comes back tries at once. A silent
// connection is checked with the protocol's ping: no pong within 6 s and it is dropped and
// opened anew (a phone that slept keeps a dead socket open otherwise).

import { t } from './i18n.js';

export const PROTOCOL_VERSION = 1;
const CLIENT_NAME = 'spookludo-web 0.1.0';

export function serverUrl(loc = window.location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

// A cluster node's address (welcome's nodes, a redirect's url: http(s)://host[:port][/prefix]) as
// its WebSocket URL; null when it is not such an address.
export function nodeSocketUrl(node) {
  let u;
  try {
    u = new URL(node);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}${u.pathname.replace(/\/+$/, '')}/ws`;
}

const MAX_REDIRECTS = 4;

export class Connection {
  // handlers: onopen() once the server's welcome is in (send the room's message then),
  // onmessage(m) for every server message (the welcome too, just before onopen), onstatus(text or '') for the page's connection line, onlost() when dropped.
  constructor(handlers) {
    this.h = handlers;
    this.ws = null;
    this.welcomed = false;
    this.wanted = false; // keep a connection up (a room to be in)
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.lastHeard = 0;
    this.target = null; // the node a redirect sent us to (null: this page's server)
    this.redirects = 0; // since the last joined
    this.nodes = []; // the cluster's live nodes, from the welcome
    const kick = () => this.nudge();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') kick();
    });
    window.addEventListener('online', kick);
    window.addEventListener('pageshow', kick);
  }

  get open() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed); }

  start() {
    this.wanted = true;
    if (!this.ws) this.connect();
  }

  // Stop for good (left the room): no reconnection.
  stop() {
    this.wanted = false;
    this.target = null;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.drop();
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // Try now: after a sleep, a network change, a page shown again. A connection that looks open
  // is checked with a ping.
  nudge() {
    if (!this.wanted) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.checkAlive();
      return;
    }
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.attempt = 0;
    this.connect();
  }

  connect() {
    this.drop();
    this.welcomed = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.lost();
      return;
    }
    this.ws = ws;
    if (this.attempt > 0) this.h.onstatus(t('Connecting again (try {n})…', { n: this.attempt + 1 }));
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, client: CLIENT_NAME }));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
      let m;
      try {
        m = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!m || typeof m !== 'object') return;
      if (m.type === 'redirect') {
        const next = nodeSocketUrl(m.url || '');
        if (next && this.redirects < MAX_REDIRECTS) {
          this.redirects += 1;
          this.target = next;
          this.attempt = 0;
          this.connect();
          return;
        }
      }
      if (m.type === 'joined') this.redirects = 0;
      if (m.type === 'welcome') {
        if (Array.isArray(m.nodes)) this.nodes = m.nodes.filter((n) => typeof n === 'string').slice(0, 64);
        this.welcomed = true;
        this.attempt = 0;
        this.h.onstatus('');
        this.schedulePing();
        this.h.onmessage(m); // where others reach the server (public_url, lan_urls)
        this.h.onopen();
        return;
      }
      if (m.type === 'pong') return;
      this.h.onmessage(m);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      this.lost();
    };
    ws.onerror = () => {};
  }

  // Where to connect: the node a redirect named, and after two failed attempts the cluster's
  // nodes in turn (then this page's server again).
  url() {
    if (this.attempt >= 2 && this.nodes.length) {
      const next = nodeSocketUrl(this.nodes[this.attempt % (this.nodes.length + 1)] || '');
      if (next) return next;
      return serverUrl();
    }
    return this.target || serverUrl();
  }

  drop() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = ws.onmessage = ws.onopen = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        /* already closed */
      }
    }
  }

  lost() {
    this.drop();
    this.redirects = 0; // the limit is for nodes that send the page round in a circle, not for one that is down
    this.h.onlost();
    if (!this.wanted) return;
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.attempt, 5));
    this.attempt += 1;
    this.h.onstatus(t('The connection was lost: trying again in {n} s…', { n: Math.ceil(delay / 1000) }));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.wanted) this.connect();
    }, delay);
  }

  schedulePing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > 20000) this.checkAlive();
    }, 5000);
  }

  checkAlive() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed || this.pongTimer) return;
    try {
      this.ws.send(JSON.stringify({ type: 'ping', t: Date.now() }));
    } catch {
      this.lost();
      return;
    }
    this.pongTimer = setTimeout(() => {
      this.pongTimer = null;
      this.lost();
    }, 6000);
  }
}
