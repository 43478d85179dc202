#!/usr/bin/env python3
"""The crash loop: a real server with rooms of bot processes (Spook and Ludo, some with hints, some
too slow for their decisions' time) and rooms of one bot process whose other seats are the
server's own bots (every policy, both games, several option sets) is stopped at random moments,
STOPS times, half of them with SIGKILL and half with SIGTERM, in a random order, and started
again on the same port and data directory each time. A room whose game ends makes way for
another of its kind, so that games are under way at every stop.

Then: no room was lost (the log and /metrics), every game finished, every record verifies (`spookludo verify URL`), and every roll, move,
activation and throw in each bot's --transcript is in the final record at the same step (a
client that was away between a crash and its return misses steps: gaps are fine, a different
die is not). No die anyone saw was rolled again differently.

usage: crash_loop.py SERVER_BINARY CLIENT_BINARY [STOPS]
(CRASH_LOOP_SEED: the stops' randomness; the run prints it.)
"""
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from transcripts import check_transcript

SERVER, CLIENT = sys.argv[1], sys.argv[2]
STOPS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
work = tempfile.mkdtemp(prefix="spookludo-crash-loop-")
data = os.path.join(work, "data")
SEED = int(os.environ.get("CRASH_LOOP_SEED", str(int(time.time()))))
rng = random.Random(SEED)


def fail(message, log=None):
    print("crash loop: FAILED: " + message, flush=True)
    if log and os.path.exists(log):
        with open(log, errors="replace") as f:
            print("---- " + log + " (last lines)\n" + "".join(f.readlines()[-40:]), flush=True)
    print("(work directory kept: " + work + ")")
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
URL = "ws://127.0.0.1:%d" % PORT
HTTP = "http://127.0.0.1:%d" % PORT
server = None
server_log = os.path.join(work, "server.log")


def start_server():
    global server
    log = open(server_log, "a")
    log.write("==== start\n")
    log.flush()
    server = subprocess.Popen(
        [SERVER, "--port", str(PORT), "--bind", "127.0.0.1", "--data-dir", data, "--pace-ms", "100",
         "--decision-ms", "2000", "--reconnect-ms", "60000", "--log-level", "info",
         # Every bot comes from 127.0.0.1: under a sanitizer the games run longer and more than the
         # default ten rooms of one address are open at once.
         "--max-rooms-per-address", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    until = time.time() + 20
    while time.time() < until:
        if server.poll() is not None:
            fail("the server exited with %s at start" % server.returncode, server_log)
        try:
            with urllib.request.urlopen(HTTP + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)
    fail("the server did not answer /healthz within 20 s", server_log)


# The rooms: (name, bot arguments). Each is one `spookludo bot` process seating every player.
KINDS = [
    ("spook", ["--create", "spook", "--players", "3", "--count", "3", "--pieces", "2"]),
    ("spook-hints", ["--create", "spook", "--players", "2", "--count", "2", "--pieces", "3", "--hints",
                     "--policy", "greedy"]),
    ("ludo", ["--create", "ludo", "--players", "4", "--count", "4", "--arm", "6"]),
    # Thinks longer than its decisions' 1 s: every choice is the server's (timeout), the bot's
    # answers come too late.
    ("spook-slow", ["--create", "spook", "--players", "2", "--count", "2", "--pieces", "2", "--think", "1200",
                    "--decision-ms", "1000", "--policy", "random"]),
    # One player connection (the host) and the server's own bots in the other seats: the rooms a
    # host fills from the lobby (b, g, r). Their moves are the server's, made again on a replay.
    # (Ludo's games are long: these rooms step every 20 ms, so that many of them end and start
    # again between the stops.)
    ("ludo-server-best", ["--create", "ludo", "--players", "4", "--count", "1", "--fill-after", "0",
                          "--policy", "best", "--pace-ms", "20"]),
    ("ludo-server-greedy", ["--create", "ludo", "--players", "3", "--count", "1", "--fill-after", "0",
                            "--policy", "greedy", "--arm", "6", "--entry", "start_square", "--three-sixes",
                            "--pace-ms", "20"]),
    ("ludo-server-random", ["--create", "ludo", "--players", "4", "--count", "1", "--fill-after", "0",
                            "--policy", "random", "--arm", "6", "--play-on", "--pace-ms", "20"]),
    ("spook-server-random", ["--create", "spook", "--players", "4", "--count", "1", "--fill-after", "0",
                             "--policy", "random", "--pieces", "3"]),
    ("spook-server-greedy", ["--create", "spook", "--players", "3", "--count", "1", "--fill-after", "0",
                             "--policy", "greedy", "--hints", "--play-on"]),
    ("spook-server-best", ["--create", "spook", "--players", "5", "--count", "1", "--fill-after", "0",
                           "--policy", "best", "--pieces", "1"]),
]
bots = []  # dicts: name, proc, transcript, out


def start_bot(kind, args):
    n = len(bots)
    transcript = os.path.join(work, "%02d-%s.jsonl" % (n, kind))
    out = os.path.join(work, "%02d-%s.out" % (n, kind))
    proc = subprocess.Popen([CLIENT, "bot", URL, "--start", "--name", "%s%d" % (kind, n), "--transcript", transcript]
                            + args, stdout=open(out, "w"), stderr=subprocess.STDOUT)
    bots.append({"name": kind, "proc": proc, "transcript": transcript, "out": out})


def seated(b):
    """Every bot of the process is in its room (its first bot's transcript shows a snapshot with
    every seat taken), or the process is over. Until then a kill would stop a bot that never got
    in: such a client gives up at once (exit 2), as it should for a wrong address."""
    if b["proc"].poll() is not None:
        return True
    try:
        with open(b["transcript"]) as f:
            for line in f:
                m = json.loads(line) if line.strip() else {}
                if m.get("type") == "room" and m.get("seats") and all(not s.get("free") for s in m["seats"]):
                    return True
    except (OSError, ValueError):
        pass
    return False


def wait_seated():
    until = time.time() + 60
    while not all(seated(b) for b in bots):
        if time.time() > until:
            fail("bots did not get into their rooms within 60 s", server_log)
        time.sleep(0.05)


os.makedirs(data)
start_server()
for kind, args in KINDS:
    start_bot(kind, args)

print("crash loop: seed %d, %d stops" % (SEED, STOPS), flush=True)
started = time.time()
signals = [signal.SIGKILL] * ((STOPS + 1) // 2) + [signal.SIGTERM] * (STOPS // 2)
rng.shuffle(signals)
stops = {signal.SIGKILL: 0, signal.SIGTERM: 0}
for sig in signals:
    wait_seated()
    time.sleep(rng.uniform(0.2, 1.6))
    server.send_signal(sig)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        fail("the server did not stop within 30 s of %s" % sig.name, server_log)
    if sig == signal.SIGTERM and server.returncode != 0:
        fail("the server exited with %d on SIGTERM" % server.returncode, server_log)
    stops[sig] += 1
    time.sleep(rng.uniform(0.0, 0.8))  # the clients find nobody for a moment
    start_server()
    # A room whose game is over makes way for another, so that games are running at every stop.
    for b in list(bots):
        if b["proc"].poll() is not None and not b.get("replaced"):
            b["replaced"] = True
            kind, args = next(k for k in KINDS if k[0] == b["name"])
            start_bot(kind, args)
    if time.time() - started > 60 + 12 * STOPS:
        fail("the loop ran for %d s" % (time.time() - started), server_log)
kills = stops[signal.SIGKILL]
print("crash loop: %d SIGKILLs and %d SIGTERMs in %.0f s; waiting for the games to end"
      % (kills, stops[signal.SIGTERM], time.time() - started), flush=True)

for b in bots:
    try:
        code = b["proc"].wait(timeout=300)
        print("crash loop: %s bots done %.0f s after the loop" % (b["name"], time.time() - started), flush=True)
    except subprocess.TimeoutExpired:
        fail("the %s bots did not finish within 5 minutes of the last kill" % b["name"], b["out"])
    if code != 0:
        fail("the %s bots exited with %d" % (b["name"], code), b["out"])


checked = 0
for b in bots:
    if b["proc"].returncode != 0:
        fail("the %s bots exited with %d" % (b["name"], b["proc"].returncode), b["out"])
    checked += check_transcript(b["name"], b["transcript"], HTTP, CLIENT, fail)

with urllib.request.urlopen(HTTP + "/metrics", timeout=5) as r:
    metrics = r.read().decode()
server.send_signal(signal.SIGTERM)
server.wait(timeout=10)
with open(server_log, errors="replace") as f:
    lost = [line for line in f if "cannot be taken up" in line]
if lost:
    fail("rooms were lost on a restart:\n" + "".join(lost[:10]), server_log)
if "spookludo_rooms_lost_total 0" not in metrics:
    fail("/metrics counts lost rooms", server_log)
games = {}
for b in bots:
    kind = "ludo" if b["name"].startswith("ludo") else "spook"
    games[kind] = games.get(kind, 0) + 1
print("crash loop: %d SIGKILLs, %d SIGTERMs; %d games finished and verified (%d Ludo, %d Spook; %d with server bots), "
      "%d steps of the transcripts found in the records"
      % (kills, stops[signal.SIGTERM], len(bots), games.get("ludo", 0), games.get("spook", 0),
         sum(1 for b in bots if "server" in b["name"]), checked))
shutil.rmtree(work, ignore_errors=True)
