#!/usr/bin/env python3
"""The cluster's tests (issue #19): real spookludo-server nodes on 127.0.0.1, one real
redis-server (append-only file, fsync every second) started here, and `spookludo bot` processes
creating and joining rooms through random nodes. In every scenario every game finishes, every
record verifies (`spookludo verify` against a node that did not necessarily play it: the history
is the cluster's), and every roll, activation, move and throw a bot saw is its record's.

usage: cluster.py SERVER_BINARY CLIENT_BINARY SCENARIO
  play       three nodes, 30 rooms created through random nodes, the second player of each
             joining through a random node
  kill       kill -9 the node with the most rooms mid-game: its rooms play their next step on the
             other two within 10 s of its heartbeat's expiry
  partition  SIGSTOP a node past its expiry, then SIGCONT: it plays none of the rooms it lost
  drain      SIGTERM a node with rooms: they move to the others, and finish
  redis      Redis stopped for 10 s and started again: games pause, new rooms are refused with
             `unavailable`, then the games finish and new rooms are made again
  restart    kill -9 a node and start it again at once under the same id: it takes its own rooms
             up again (before anyone else may), and they finish
Prints what it measured (for BENCHMARKS.md) and exits 1 at the first failure.
"""
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from transcripts import check_transcript

SERVER, CLIENT, SCENARIO = sys.argv[1], sys.argv[2], sys.argv[3]
REDIS_SERVER = "/usr/bin/redis-server"
REDIS_CLI = "/usr/bin/redis-cli"
work = tempfile.mkdtemp(prefix="spookludo-cluster-%s-" % SCENARIO)
rng = random.Random(int(os.environ.get("CLUSTER_SEED", str(int(time.time())))))
nodes = {}
bots = []
redis = None


def log(message):
    print("cluster %s: %s" % (SCENARIO, message), flush=True)


def fail(message, path=None):
    print("cluster %s: FAILED: %s" % (SCENARIO, message), flush=True)
    for p in ([path] if path else []) + [n.log for n in nodes.values()]:
        if p and os.path.exists(p):
            with open(p, errors="replace") as f:
                print("---- %s (last lines)\n%s" % (p, "".join(f.readlines()[-30:])), flush=True)
    print("(work directory kept: %s)" % work, flush=True)
    cleanup()
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, within, message, every=0.05):
    until = time.time() + within
    while time.time() < until:
        if what():
            return
        time.sleep(every)
    fail(message)


def http_get(url, timeout=3):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except OSError:
        return 0, ""


class Redis:
    def __init__(self):
        self.port = free_port()
        self.dir = os.path.join(work, "redis")
        os.makedirs(self.dir)
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "yes", "--appendfsync", "everysec", "--daemonize", "no"],
            stdout=open(os.path.join(self.dir, "redis.log"), "a"), stderr=subprocess.STDOUT)
        wait_for(lambda: self.cli("PING") == "PONG", 10, "redis-server did not start")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=20)

    def cli(self, *args):
        r = subprocess.run([REDIS_CLI, "-p", str(self.port), "--raw"] + list(args), capture_output=True, text=True)
        return r.stdout.strip()

    @property
    def url(self):
        return "redis://127.0.0.1:%d" % self.port


class Node:
    def __init__(self, node_id):
        self.id = node_id
        self.port = free_port()
        self.log = os.path.join(work, node_id + ".log")
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--data-dir", os.path.join(work, self.id),
             "--cluster", redis.url, "--node-id", self.id, "--public-url", self.http, "--pace-ms", "300",
             "--decision-ms", "3000", "--reconnect-ms", "60000", "--log-level", "info",
             # Every room here comes from 127.0.0.1: 30 parties, not one household.
             "--max-rooms-per-address", "0"],
            stdout=open(self.log, "a"), stderr=subprocess.STDOUT)
        wait_for(lambda: http_get(self.http + "/healthz")[0] == 200, 20, "node %s did not start" % self.id)

    @property
    def http(self):
        return "http://127.0.0.1:%d" % self.port

    @property
    def ws(self):
        return "ws://127.0.0.1:%d" % self.port

    def alive(self):
        return self.proc.poll() is None

    def rooms(self):
        status, body = http_get(self.http + "/metrics")
        for line in body.splitlines():
            if line.startswith("spookludo_rooms "):
                return int(float(line.split()[1]))
        return -1


def start_nodes(n=3):
    for i in range(1, n + 1):
        nodes["n%d" % i] = Node("n%d" % i)
    # Every node sees every other before rooms are made (placement, redirects).
    for node in nodes.values():
        wait_for(lambda: all(e.get("alive") for e in json.loads(http_get(node.http + "/cluster")[1] or "{}").get("nodes", []))
                 and len(json.loads(http_get(node.http + "/cluster")[1] or "{}").get("nodes", [])) == n,
                 15, "node %s did not see the others" % node.id)


def live_nodes():
    return [n for n in nodes.values() if n.alive()]


def random_node():
    return rng.choice(live_nodes())


class Bot:
    """One `spookludo bot` process: a room's creator (who starts it once every seat is taken), or
    a player joining a room by its code."""

    def __init__(self, name, args, node):
        self.name = name
        self.transcript = os.path.join(work, name + ".jsonl")
        self.out = os.path.join(work, name + ".out")
        self.proc = subprocess.Popen([CLIENT, "bot", node.ws, "--name", name, "--transcript", self.transcript] + args,
                                     stdout=open(self.out, "w"), stderr=subprocess.STDOUT)
        self.via = node.id
        bots.append(self)

    def room(self):
        try:
            for line in open(self.out):
                if line.startswith("room "):
                    return line.split()[1]
        except OSError:
            pass
        return None

    def lines(self):
        out = []
        try:
            with open(self.transcript) as f:
                for line in f:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass  # the line being written
        except OSError:
            pass
        return out

    def steps(self):
        return sum(1 for m in self.lines() if m.get("type") in ("roll", "activation", "moves", "throw", "move"))


def make_room(i, game="spook", server_bots=None):
    """A room of two players: its creator through a random node, its second player through another
    random node, by the room's code. With `server_bots` (a policy): its creator and the server's
    own bots of that policy in three more seats (a host who fills the lobby with b, g or r)."""
    if server_bots:
        args = ["--create", game, "--players", "4", "--count", "1", "--start", "--fill-after", "0", "--policy",
                server_bots, "--quiet"]
        if game == "ludo":
            # Four seats of server bots: at the nodes' 300 ms a step their Ludo games took three
            # minutes; at 100 ms they are still mid-game when a node is killed. (A Spook game of
            # server bots at 100 ms could end before the kill: it keeps the nodes' pace.)
            args += ["--pace-ms", "100"]
    else:
        args = ["--create", game, "--players", "2", "--count", "1", "--start", "--fill-after", "120", "--quiet"]
    args += ["--pieces", "2"] if game == "spook" else ["--arm", "6"]
    host = Bot("r%02d-host" % i, args, random_node())
    wait_for(lambda: host.room() or host.proc.poll() is not None, 20, "room %d was not made" % i)
    code = host.room()
    if not code:
        fail("room %d's creator ended: %s" % (i, open(host.out).read()))
    if not server_bots:
        Bot("r%02d-guest" % i, ["--room", code, "--count", "1", "--quiet"], random_node())
    return host, code


def owner_of(code):
    return redis.cli("HGET", "spookludo:room:" + code, "node")


def wait_games(within):
    until = time.time() + within
    for b in bots:
        try:
            code = b.proc.wait(timeout=max(1, until - time.time()))
        except subprocess.TimeoutExpired:
            fail("%s did not finish its game within %d s" % (b.name, within), b.out)
        if code != 0:
            fail("%s exited with %d" % (b.name, code), b.out)


def check_all():
    """Every game's record verifies and every step each bot saw is its record's, the record read
    from a node chosen at random (every node lists the cluster's games)."""
    checked = 0
    for b in bots:
        overs = [m for m in b.lines() if m.get("type") == "game_over"]
        if not overs or "record" not in overs[-1]:
            fail("%s saw no finished game" % b.name, b.transcript)
        node = random_node()
        url = node.http + overs[-1]["record"]
        wait_for(lambda: http_get(url)[0] == 200, 10, "%s is not on node %s within 10 s" % (url, node.id))
        checked += check_transcript(b.name, b.transcript, node.http, CLIENT, fail)
    status, body = http_get(random_node().http + "/games?per_page=100")
    listed = json.loads(body).get("total", 0) if status == 200 else 0
    return checked, listed


def cleanup():
    for b in bots:
        if b.proc.poll() is None:
            b.proc.kill()
    for n in nodes.values():
        if n.proc.poll() is None:
            if n.proc.returncode is None:
                try:
                    n.proc.send_signal(signal.SIGCONT)
                except ProcessLookupError:
                    pass
            n.proc.kill()
    if redis and redis.proc.poll() is None:
        redis.proc.kill()


def wait_mid_game(rooms, steps=4):
    wait_for(lambda: all(h.steps() >= steps for h, _ in rooms), 60, "the games did not get going within 60 s")


def busiest(rooms):
    """The node with the most of these rooms: its id, its Node, the codes of its rooms."""
    count = {}
    for _, code in rooms:
        count.setdefault(owner_of(code), []).append(code)
    victim_id = max(count, key=lambda k: len(count[k]))
    return victim_id, nodes[victim_id], set(count[victim_id])


def wait_moved(codes, node_id, within, whose):
    """Until every one of these rooms is another live node's."""
    wait_for(lambda: all(owner_of(c) not in ("", node_id) for c in codes), within,
             "%s rooms were not taken over within %d s" % (whose, within))


def finish_and_check(what="every game finished and verified"):
    """Waits for every bot's game, checks every transcript against its record, and says so."""
    wait_games(300)
    checked, listed = check_all()
    log("%s; %d steps of the transcripts are their records' (no step shown twice with different dice)" % (what, checked))
    return listed


def first_step_after(bots_of, t0, within):
    """For each bot, when its transcript first showed a step after t0 (seconds since t0)."""
    seen = {b.name: b.steps() for b in bots_of}
    when = {}
    until = time.time() + within
    while len(when) < len(bots_of) and time.time() < until:
        for b in bots_of:
            if b.name not in when and (b.steps() > seen[b.name] or b.proc.poll() is not None):
                when[b.name] = time.time() - t0
        time.sleep(0.05)
    return when


def scenario_play():
    start_nodes()
    made = [make_room(i, "spook" if i % 3 else "ludo") for i in range(30)]
    on = {}
    for _, code in made:
        on[owner_of(code)] = on.get(owner_of(code), 0) + 1
    log("30 rooms made through random nodes, on %s" % json.dumps(on, sort_keys=True))
    listed = finish_and_check()
    if listed < 30:
        fail("/games lists %d of the cluster's 30 games" % listed)
    log("/games on a node lists %d games" % listed)


def no_room_lost():
    """No node logged a room it could not take up (every room of a dead node goes on)."""
    for n in nodes.values():
        with open(n.log, errors="replace") as f:
            lost = [line for line in f if "cannot be taken up" in line]
        if lost:
            fail("node %s lost rooms:\n%s" % (n.id, "".join(lost[:5])), n.log)


def scenario_kill():
    start_nodes()
    # Both games, rooms of two player connections and rooms of a host and the server's bots of
    # every policy (their moves are made again by the node that takes the room over).
    kinds = [("spook", None), ("ludo", None), ("ludo", "best"), ("ludo", "greedy"), ("ludo", "random"),
             ("spook", "best"), ("spook", "greedy"), ("spook", "random"), ("ludo", None)]
    rooms = [make_room(i, game, policy) for i, (game, policy) in enumerate(kinds)]
    wait_mid_game(rooms)
    # The node to kill: the one whose rooms cover the most of (Ludo, Spook) x (players, server
    # bots), then the one with the most rooms.
    cover, count = {}, {}
    for (game, policy), (_, code) in zip(kinds, rooms):
        owner = owner_of(code)
        if owner == "":
            continue  # already over and closed
        cover.setdefault(owner, set()).add((game, policy is None))
        count.setdefault(owner, set()).add(code)
    victim_id = max(count, key=lambda k: (len(cover[k]), len(count[k])))
    victim, lost = nodes[victim_id], count[victim_id]
    log("node %s has rooms of %s" % (victim_id, ", ".join(sorted("%s with %s" % (g, "players" if p else "server bots")
                                                               for g, p in cover[victim_id]))))
    ttl_ms = int(redis.cli("PTTL", "spookludo:node:" + victim_id) or "6000")
    victim.proc.send_signal(signal.SIGKILL)
    t_kill = time.time()
    victim.proc.wait()
    expiry = ttl_ms / 1000.0
    log("node %s killed with %d rooms (%s); its heartbeat expires %.2f s later" % (victim_id, len(lost),
                                                                                   " ".join(sorted(lost)), expiry))
    hosts = [h for h, code in rooms if code in lost]
    when = first_step_after(hosts, t_kill, 30)
    for h in hosts:
        if h.name not in when:
            fail("%s's room played no step within 30 s of the kill" % h.name, h.out)
        if when[h.name] > expiry + 10:
            fail("%s's room played its next step %.1f s after the kill, %.1f s after the expiry" %
                 (h.name, when[h.name], when[h.name] - expiry))
    for (h, code) in rooms:
        if code not in lost:
            continue
        owner = owner_of(code)
        # A room whose game ended and whose players left is closed: it has no owner, and that is
        # no loss (its record is checked below with the others).
        if owner == victim_id or (owner == "" and h.proc.poll() is None):
            fail("room %s is still the dead node's" % code)
    after = sorted(when.values())
    log("its rooms played again %.2f s (median) / %.2f s (worst) after the kill, %.2f / %.2f s after the expiry" %
        (statistics.median(after), after[-1], statistics.median(after) - expiry, after[-1] - expiry))
    finish_and_check()
    no_room_lost()


def scenario_partition():
    start_nodes()
    rooms = [make_room(i) for i in range(9)]
    wait_mid_game(rooms)
    victim_id, victim, lost = busiest(rooms)
    victim.proc.send_signal(signal.SIGSTOP)
    log("node %s stopped (SIGSTOP) with %d rooms" % (victim_id, len(lost)))
    wait_moved(lost, victim_id, 20, "the stopped node's")
    time.sleep(1)
    victim.proc.send_signal(signal.SIGCONT)
    log("node %s continued (SIGCONT); its rooms are the others' now" % victim_id)
    # Back, it must find that its rooms are played elsewhere and play none of them.
    wait_for(lambda: victim.rooms() == 0, 20, "node %s still holds rooms 20 s after it came back" % victim_id)
    finish_and_check()
    fenced = sum(1 for line in open(victim.log) if "FENCED" in line)
    log("node %s's writes refused as fenced: %d" % (victim_id, fenced))
    for code in lost:
        if owner_of(code) == victim_id:
            fail("room %s went back to the node that lost it" % code)


def scenario_drain():
    start_nodes()
    rooms = [make_room(i) for i in range(9)]
    wait_mid_game(rooms)
    victim_id, victim, lost = busiest(rooms)
    victim.proc.send_signal(signal.SIGTERM)
    t0 = time.time()
    code = victim.proc.wait(timeout=30)
    if code != 0:
        fail("node %s exited with %d after SIGTERM" % (victim_id, code), victim.log)
    exited = time.time() - t0
    wait_moved(lost, victim_id, 15, "the drained node's")
    log("node %s drained (SIGTERM, exit 0 in %.2f s); its %d rooms were the others' %.2f s after the SIGTERM" %
        (victim_id, exited, len(lost), time.time() - t0))
    finish_and_check()


def scenario_restart():
    start_nodes()
    rooms = [make_room(i) for i in range(6)]
    wait_mid_game(rooms)
    victim_id, victim, mine = busiest(rooms)
    victim.proc.send_signal(signal.SIGKILL)
    victim.proc.wait()
    victim.start()  # at once, under the same id and address: before its heartbeat expired
    t0 = time.time()
    wait_for(lambda: victim.rooms() == len(mine), 15, "node %s did not take its %d rooms up again" % (victim_id, len(mine)))
    for code in mine:
        if owner_of(code) != victim_id:
            fail("room %s went to node %s, not back to the node that restarted" % (code, owner_of(code)))
    log("node %s killed and started again: its %d rooms were its own again %.2f s after the start" %
        (victim_id, len(mine), time.time() - t0))
    finish_and_check()


def create_refused(node):
    """A `spookludo bot` that tries to make a room: refused with `unavailable`, exit 2."""
    out = os.path.join(work, "refused-%d.out" % time.time_ns())
    p = subprocess.run([CLIENT, "bot", node.ws, "--create", "spook", "--players", "1", "--quiet"], stdout=open(out, "w"),
                       stderr=subprocess.STDOUT, timeout=30)
    text = open(out).read()
    return p.returncode == 2 and "[unavailable]" in text, text


def scenario_redis():
    global redis
    start_nodes()
    rooms = [make_room(i) for i in range(6)]
    wait_mid_game(rooms)
    redis.stop()
    t0 = time.time()
    log("redis-server stopped")
    # New rooms are refused, through every node, with the documented error.
    wait_for(lambda: all(http_get(n.http + "/healthz")[0] == 503 for n in nodes.values()), 8,
             "the nodes did not say they lost their lease")
    for n in nodes.values():
        refused, text = create_refused(n)
        if not refused:
            fail("a new room through %s while Redis is down was not refused with unavailable: %s" % (n.id, text))
    # The games pause (at the latest when the leases end): no step for a while.
    time.sleep(max(0.0, 8 - (time.time() - t0)))
    before = {h.name: h.steps() for h, _ in rooms}
    time.sleep(1.5)
    moved = [h.name for h, _ in rooms if h.steps() != before[h.name]]
    if moved:
        fail("games went on without Redis: %s" % " ".join(moved))
    paused = sum(1 for h, _ in rooms if any(m.get("type") == "notice" and m.get("kind") == "journal" for m in h.lines()))
    running = sum(1 for h, _ in rooms if not any(m.get("type") == "game_over" for m in h.lines()))
    if paused < running:
        fail("%d games were running without Redis, %d said they paused" % (running, paused))
    time.sleep(max(0.0, 10 - (time.time() - t0)))
    redis.start()
    log("redis-server started again after %.1f s; %d of %d games said they paused" % (time.time() - t0, paused,
                                                                                      len(rooms)))
    wait_for(lambda: all(http_get(n.http + "/healthz")[0] == 200 for n in nodes.values()), 15,
             "the nodes did not get their lease back")
    # New rooms are made again.
    make_room(100)
    finish_and_check("every game finished and verified, the new room's too")


redis = Redis()
try:
    {"play": scenario_play, "kill": scenario_kill, "partition": scenario_partition, "drain": scenario_drain,
     "redis": scenario_redis, "restart": scenario_restart}[SCENARIO]()
except SystemExit:
    raise
except BaseException as e:
    import traceback
    traceback.print_exc()
    fail("the test failed: %r" % e)
cleanup()
if os.environ.get("CLUSTER_KEEP") is None:
    shutil.rmtree(work, ignore_errors=True)
