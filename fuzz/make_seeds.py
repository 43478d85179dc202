#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/) from the project's real
inputs: the client messages captured from a run of the server tests (kept in
corpus/client_message, which this script does not rewrite), the server messages and records in
tests/client/data, records written by `spookludo sim --records`, the balanced board pool, the
positions of the Ludo tests and the protocol's examples. Run it from the repository root after
changing one of those; files are named by the SHA-1 of their content, so reruns add nothing twice.

    fuzz/make_seeds.py [RECORDS_DIR...]
"""
import glob
import hashlib
import json
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def frame(opcode, payload, mask=None, fin=True):
    b0 = (0x80 if fin else 0) | opcode
    n = len(payload)
    m = 0x80 if mask else 0
    if n < 126:
        head = struct.pack("!BB", b0, m | n)
    elif n <= 0xFFFF:
        head = struct.pack("!BBH", b0, m | 126, n)
    else:
        head = struct.pack("!BBQ", b0, m | 127, n)
    if mask:
        head += mask
        payload = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
    return head + payload


def raw_stream(stream):
    # websocket.cpp, raw mode: byte 0 even, byte 1 odd (the real limit), ten chunking bytes.
    return bytes([0, 1, 3, 200, 7, 255, 1, 0, 9, 2, 5, 8]) + stream


def main():
    # The protocol's examples: client messages (PROTOCOL.md) and the captured traffic.
    proto = open(os.path.join(ROOT, "protocol", "PROTOCOL.md"), encoding="utf-8").read()
    client_types = {"hello", "create_room", "join_room", "watch", "resume", "client_seed", "choose", "set_options",
                    "set_settings", "add_bot", "remove_seat", "kick", "start", "pause", "resume_game", "end_game",
                    "leave", "ping", "react"}
    for line in re.findall(r'^(\{"type":.*\})\s*$', proto, re.M):
        try:
            if json.loads(line)["type"] in client_types:
                put("client_message", line)
        except ValueError:
            pass
    client_messages = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(CORPUS, "client_message", "*")))]

    # WebSocket, server role: sessions of real client messages, masked, with pings, fragments
    # and a close, as a client sends them.
    mask = b"\x37\xfa\x21\x3d"
    for i in range(0, len(client_messages), 6):
        group = client_messages[i:i + 6]
        stream = b"".join(frame(1, m, mask) for m in group)
        put("websocket_server", raw_stream(stream))
    if client_messages:
        m = client_messages[0]
        put("websocket_server", raw_stream(frame(1, m[:5], mask, fin=False) + frame(9, b"t", mask) +
                                           frame(0, m[5:], mask) + frame(8, b"\x03\xe8bye", mask)))
        put("websocket_server", raw_stream(frame(10, b"", mask) + frame(2, b"\x00\x01", mask) + frame(8, b"", mask)))
        put("websocket_server", raw_stream(frame(1, b"x" * 5000, mask)))

    # WebSocket, client role: the server messages of two real games, unmasked.
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "client", "data", "*.jsonl"))):
        lines = open(path, "rb").read().splitlines()
        for i in range(0, min(len(lines), 120), 8):
            put("websocket_client", raw_stream(b"".join(frame(1, l) for l in lines[i:i + 8])))
        put("websocket_client", raw_stream(frame(9, b"") + frame(1, lines[0][:3], fin=False) + frame(0, lines[0][3:]) +
                                           frame(8, b"\x03\xe9shutting down")))

    # Frames mode seeds (websocket.cpp): byte 0 odd, then limit, count and frame descriptions.
    for target in ("websocket_server", "websocket_client"):
        put(target, bytes([1, 1, 4, 0x00, 5]) + b"hello" + b"\x01\x02\x03\x04" + bytes([0x43, 3]) + b"abc" +
            b"\x05\x06\x07\x08" + bytes([0x02, 2]) + b"de" + b"\x00\x00\x00\x00" + bytes([0x05, 2]) + b"\x03\xe8" +
            b"\x09\x09\x09\x09")

    # HTTP: what clients send the server (the WebSocket upgrade of Beast's client, the health
    # check, the records a party fetches), byte 0 the read size.
    upgrade = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               "User-Agent: spookludo 0.1.0\r\n\r\n")
    requests = [
        upgrade,
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nUser-Agent: spookludo-server --healthcheck\r\nConnection: close\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /records/KQZTM-1764489600000-630dcd29 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n",
        "HEAD /records/../secret HTTP/1.0\r\n\r\n",
        "POST /records/x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
        "GET /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        upgrade.replace("/ws", "/records/abc"),
        # The web client (issue #17): its page, a file by its build's name, gzip, revalidation, and
        # a browser's upgrade with its Origin, the server's own and another site's.
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n",
        "GET /r/KQZTM?x=1 HTTP/1.1\r\nHost: [::1]:7777\r\nAccept-Encoding: br;q=1, gzip;q=0, *;q=0.5\r\n\r\n",
        "GET /v/0123456789ab/js/app.js HTTP/1.1\r\nHost: a\r\nIf-None-Match: W/\"x\", \"0123456789abcdef-gz\"\r\n\r\n",
        "HEAD /index.html HTTP/1.1\r\nHost: party.example\r\nIf-None-Match: *\r\n\r\n",
        upgrade.replace("User-Agent", "Origin: http://127.0.0.1:7777\r\nUser-Agent"),
        upgrade.replace("User-Agent", "Origin: https://EVIL.example:443\r\nUser-Agent"),
        upgrade.replace("User-Agent", "Origin: null\r\nUser-Agent"),
        # Over the limits (414, 431, 413) and malformed (400).
        "GET /players/" + "n" * 10240 + " HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: a\r\nCookie: " + "c" * 10240 + "\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 9000\r\n\r\n" + "b" * 9000,
        "GET /healthz HTTP/9\r\n\r\n",
    ]
    for r in requests:
        put("http_request", bytes([0x40]) + r.encode())
        put("http_request", bytes([0x11]) + r.encode())
    for code in ("kqztm", " KQ ZTM\t", "abcde"):
        put("http_request", bytes([0]) + code.encode())

    # Records: the test data and records written by spookludo sim.
    record_files = sorted(glob.glob(os.path.join(ROOT, "tests", "client", "data", "*.record.json")))
    for d in sys.argv[1:]:
        record_files += sorted(glob.glob(os.path.join(d, "**", "*.json"), recursive=True))
    options = set()
    for path in record_files:
        text = open(path, "rb").read()
        put("record_verify", text)
        options.add(json.dumps(json.loads(text)["options"], sort_keys=True))

    # Game options: those of the records, the protocol's examples, and the other game's keys.
    for line in re.findall(r'"options":(\{[^{}]*\})', proto):
        options.add(line)
    options.update(['{"game":"ludo"}', '{"game":"spook"}', '{"game":"ludo","players":4,"arm":6,"entry":"start_square",'
                    '"three_sixes":true,"play_on":true}', '{"game":"spook","players":8,"pieces":3,'
                    '"balanced_boards":false}'])
    # Ludo's house rules: each key, the preset alone, with the rules it may take, and refused.
    options.update(['{"game":"ludo","safe_squares":true}', '{"game":"ludo","bonus_throws":true}',
                    '{"game":"ludo","players":3,"capture_to_home":true}', '{"game":"ludo","teams":true}',
                    '{"game":"ludo","preset":"home_rules"}',
                    '{"game":"ludo","players":4,"preset":"home_rules","teams":true,"capture_to_home":true}',
                    '{"game":"ludo","preset":"home_rules","arm":8}', '{"game":"ludo","preset":"grandma"}',
                    '{"game":"ludo","players":3,"teams":true}', '{"game":"ludo","teams":true,"play_on":true}',
                    '{"game":"ludo","players":2,"table":true,"table_names":["Ann","Ben"],"safe_squares":true}'])
    for o in options:
        put("game_options", o)

    # Boards: board files of pool boards (byte 0: the report's piece count), single notations.
    pool = re.findall(r'"([.HCSWX+]{40})"', open(os.path.join(ROOT, "common", "src", "spook", "board_pool_data.inc")).read())
    for i in range(0, 12, 2):
        f = {"boards": [{"name": "Board %c" % (65 + k), "squares": pool[i + k]} for k in range(2)]}
        put("board_file", bytes([i % 4]) + json.dumps(f, indent=2).encode())
    put("board_file", bytes([0]) + json.dumps({"boards": [{"name": "Bat", "squares": s} for s in pool[:8]]}).encode())
    put("board_file", bytes([1]) + b".HCSWXHCSW | .XHCSWXHCS\n.WXHCSWXHC\t.SWXHCSWX+")

    # Ludo positions from the tests (byte 0: the options, 2 to 4 players), some with play after.
    positions = set()
    for path in glob.glob(os.path.join(ROOT, "tests", "ludo", "*.cpp")):
        positions.update(re.findall(r'"((?:green|yellow|red|blue)\+?\*?:[^"]*)"', open(path).read()))
    for p in sorted(positions):
        players = p.count(":")
        if 2 <= players <= 4:
            # 'B' and '+' are written under capture_to_home only: those positions with it alone.
            if "+" not in p and "B" not in p:
                put("ludo_notation", bytes([players - 2]) + p.encode())
                put("ludo_notation", bytes([players - 2 + 4]) + p.encode() + b"\n" + bytes(range(1, 60, 3)))
            # The house rules (ludo_drive.h: bit 6, then a byte of rules) on the modern board: all
            # four at 4 players (teams), the other three below.
            house = 0x0F if players == 4 else 0x07
            put("ludo_notation", bytes([players - 2 + 4 + 64, house]) + p.encode() + b"\n" + bytes(range(2, 80, 3)))

    # Engines: every option byte with a short script (the fuzzer grows the scripts).
    script = bytes([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4]) * 4
    for a in range(0, 256, 7):
        put("engine_spook", bytes([a, 0]) + script)
        put("engine_spook", bytes([a & 0x1f, 1]) + script)
    for a in range(0, 64, 3):
        put("engine_ludo", bytes([a, 0]) + script)
        put("engine_ludo", bytes([a, 1]) + script)
    # Ludo's house rules: bit 6 of the options byte, then a byte of rules (ludo_drive.h): every
    # combination of safe_squares, bonus_throws, capture_to_home, teams and the preset.
    for h in range(32):
        a = 64 | ((h * 7) % 64)
        put("engine_ludo", bytes([a, h, 0]) + script)
        put("engine_ludo", bytes([a, h, 1]) + script)


if __name__ == "__main__":
    main()
