#!/usr/bin/env python3
"""Memory of the server's board-solution cache under a loop of games with random boards.

Starts spookludo-server, then from one connection creates a room (Spook, 8 seats, 3 pieces,
balanced_boards false), fills it with bots and N times starts a game and ends it at once: every
game solves 8 new boards. Prints the server's resident memory before and after, and its
solution-cache metrics.

    bench/solution_cache_loop.py build/release/server/spookludo-server [--games 30] [server flags]

Standard library only (a minimal WebSocket client: masked text frames, no extensions).
"""
import argparse
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WebSocket:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(head.decode(errors="replace"))

    def send(self, message):
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _need(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += chunk

    def read(self):
        while True:
            self._need(2)
            opcode, n = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
            at = 2
            if n == 126:
                self._need(4)
                n, at = struct.unpack(">H", self.buffer[2:4])[0], 4
            elif n == 127:
                self._need(10)
                n, at = struct.unpack(">Q", self.buffer[2:10])[0], 10
            self._need(at + n)
            payload, self.buffer = self.buffer[at:at + n], self.buffer[at + n:]
            if opcode == 0x1:
                return json.loads(payload)
            if opcode == 0x8:
                raise EOFError("close frame")
            # pings of the keep-alive: this script answers nothing and is done long before it matters

    def expect(self, type_):
        while True:
            m = self.read()
            if m["type"] == type_:
                return m
            if m["type"] == "error":
                return m


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def metrics(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return {line.split()[0]: line.split()[1] for line in text.splitlines()
            if line.startswith("spookludo_solution") or line.startswith("spookludo_solves")}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--games", type=int, default=30)
    args, server_flags = ap.parse_known_args()  # the rest goes to the server
    server_flags = [f for f in server_flags if f != "--"]
    port = free_port()
    data = tempfile.mkdtemp(prefix="spookludo-cache-loop-")
    server = subprocess.Popen([args.server, "--port", str(port), "--bind", "127.0.0.1", "--data-dir", data,
                               "--log-level", "warn"] + server_flags)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(3)  # the balanced pools are solved at start: let that finish first
        ws = WebSocket(port)
        ws.send({"type": "hello", "protocol": 1, "client": "solution_cache_loop"})
        ws.expect("welcome")
        ws.send({"type": "create_room", "name": "Ann",
                 "options": {"game": "spook", "players": 8, "pieces": 3, "balanced_boards": False},
                 "settings": {"pace_ms": 10000, "decision_ms": 600000}})
        ws.expect("joined")
        for _ in range(7):
            ws.send({"type": "add_bot", "policy": "random"})
        for _ in range(8):
            ws.expect("room")
        before = rss_kb(server.pid)
        t0 = time.time()
        refused = 0
        for game in range(args.games):
            ws.send({"type": "start"})
            m = ws.expect("commitment")
            if m["type"] == "error":
                refused += 1
                print(f"game {game + 1}: refused: {m['code']}: {m['message']}")
                continue
            ws.send({"type": "client_seed", "seed": f"seed {game}"})
            ws.expect("game_started")
            ws.send({"type": "end_game"})
            ws.expect("game_over")
        elapsed = time.time() - t0
        time.sleep(0.5)
        after = rss_kb(server.pid)
        print(f"{args.games} games ({refused} refused) in {elapsed:.1f} s: resident memory "
              f"{before / 1024:.1f} MB before, {after / 1024:.1f} MB after (+{(after - before) / 1024:.1f} MB)")
        for k, v in metrics(port).items():
            print(f"  {k} {v}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
