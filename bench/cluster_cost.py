#!/usr/bin/env python3
"""What clustering costs on one machine: the same spookludo-load run against a server on its own
(its journal in SQLite) and against clusters of 1, 2 and 3 nodes through one Redis (the rooms'
journal in Redis), the load's rooms created and joined through the nodes in turn (redirects
followed). On one machine this measures overhead, not scaling: every node shares the same cores.

    bench/cluster_cost.py [ROUNDS]      (default 2; the configurations in turn, round after round)

Modes: paced (600 rooms of 4, pace 1 s: CPU per decision) and full (40 rooms at full speed:
decisions per second). Every node runs one I/O thread. CPU is the nodes' and Redis's together
(Redis's share printed apart); the round trip is the load generator's (decision sent to answer
received). Needs a release build (scripts/build.sh release), redis-server and python3.
"""
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOAD = os.path.join(ROOT, "build/release/bench/spookludo-load")
SERVER = os.path.join(ROOT, "build/release/server/spookludo-server")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
MODES = {
    "paced": ["--mode", "paced", "--rooms", "600", "--duration", "30", "--warmup", "10"],
    "full": ["--mode", "full", "--rooms", "40", "--duration", "15", "--warmup", "3"],
}
CONFIGS = ["alone", "1 node", "2 nodes", "3 nodes"]
work = tempfile.mkdtemp(prefix="spookludo-cluster-bench-")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, within=20):
    until = time.time() + within
    while time.time() < until:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("%s did not answer" % url)


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(config, mode, index):
    procs, urls, pids, redis = [], [], [], None
    d = os.path.join(work, "%s-%s-%d" % (config.replace(" ", ""), mode, index))
    os.makedirs(d)
    nodes = 1 if config == "alone" else int(config.split()[0])
    limits = ["--max-rooms", "2000", "--max-connections", "5000", "--max-connections-per-address", "5000",
              "--max-rooms-per-address", "0", "--records-kept", "100", "--threads", "1", "--log-level", "warn"]
    try:
        if config != "alone":
            rport = free_port()
            redis = subprocess.Popen(["/usr/bin/redis-server", "--port", str(rport), "--bind", "127.0.0.1", "--dir", d,
                                      "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.3)
        for i in range(nodes):
            port = free_port()
            args = [SERVER, "--bind", "127.0.0.1", "--port", str(port), "--data-dir", os.path.join(d, "n%d" % i)] + limits
            if redis:
                args += ["--cluster", "redis://127.0.0.1:%d" % rport, "--node-id", "n%d" % i,
                         "--public-url", "http://127.0.0.1:%d" % port]
            p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(os.path.join(d, "n%d.log" % i), "w"))
            procs.append(p)
            urls.append("ws://127.0.0.1:%d" % port)
            pids.append(p.pid)
            wait_http("http://127.0.0.1:%d/healthz" % port)
        time.sleep(3 if redis else 1)  # the board pools solved, every node in every view
        redis_before = cpu_of(redis.pid) if redis else 0
        t0 = time.time()
        out = subprocess.run([LOAD, "--url", ",".join(urls), "--pid", ",".join(map(str, pids + ([redis.pid] if redis else []))),
                              "--json"] + MODES[mode], capture_output=True, text=True, timeout=600)
        if out.returncode != 0:
            raise RuntimeError("spookludo-load failed: " + out.stderr[-2000:])
        r = json.loads(out.stdout)
        r["redis_cpu_s"] = (cpu_of(redis.pid) - redis_before) if redis else 0
        r["redis_cpu_s_window"] = r["redis_cpu_s"] * r["seconds"] / (time.time() - t0) if redis else 0
        return r
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        if redis:
            redis.terminate()
            redis.wait()


def figures(r):
    decisions = r["decisions_per_s"]
    return {
        "rate": decisions,
        "cpu": r.get("server_cpu_us_per_decision", float("nan")),
        "redis": r["redis_cpu_s_window"] * 1e6 / max(1, decisions * r["seconds"]) if decisions else 0,
        "p50": r["client_rtt_us"]["p50"] / 1000.0,
        "p99": r["client_rtt_us"]["p99"] / 1000.0,
        "redirects": r.get("redirects", 0),
    }


results = {}
try:
    for mode in MODES:
        for k in range(1, ROUNDS + 1):
            for config in CONFIGS:
                f = figures(run(config, mode, k))
                results.setdefault((mode, config), []).append(f)
                print("%-5s %-7s round %d: %8.0f decisions/s, %6.1f us CPU per decision (Redis %5.1f of it), round trip "
                      "p50 %.2f ms p99 %.2f ms, %d redirects" % (mode, config, k, f["rate"], f["cpu"], f["redis"], f["p50"],
                                                                 f["p99"], f["redirects"]), flush=True)
    print()
    print("medians of %d rounds" % ROUNDS)
    print("| mode | configuration | decisions/s | CPU us/decision (Redis's share) | vs alone | round trip p50 / p99 ms |")
    print("|---|---|---|---|---|---|")
    for mode in MODES:
        base = statistics.median(f["cpu"] for f in results[(mode, "alone")])
        base_rate = statistics.median(f["rate"] for f in results[(mode, "alone")])
        for config in CONFIGS:
            fs = results[(mode, config)]
            med = {key: statistics.median(f[key] for f in fs) for key in ("rate", "cpu", "redis", "p50", "p99")}
            ratio = med["cpu"] / base if mode == "paced" else med["rate"] / base_rate
            print("| %s | %s | %.0f | %.1f (%.1f) | %.2fx %s | %.2f / %.2f |" %
                  (mode, config, med["rate"], med["cpu"], med["redis"], ratio, "CPU" if mode == "paced" else "rate",
                   med["p50"], med["p99"]))
finally:
    shutil.rmtree(work, ignore_errors=True)
