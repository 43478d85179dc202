#!/usr/bin/env python3
"""The figures of A B A B comparisons of spookludo-load runs (bench/tls_vs_plain.sh,
bench/journal_on_off.sh), read from its --json reports.

  ab_summary.py line REPORT.json FIGURE...
      one run's figures on one line
  ab_summary.py table DIR ROUNDS A B "A's heading" "B's heading" MODE=FIGURE,FIGURE... ...
      a Markdown table of the medians of A and B (DIR/MODE-KIND-ROUND.json) and the median of
      the rounds' B / A ratios, the figures given for each mode

FIGURE: cpu (server CPU per decision), rate (decisions per second), p99 (server p99 round trip),
txn (journal transactions per decision), bytes_decision, bytes_game (bytes the server wrote to
files), rss_connection (resident memory per connection), rss_room (per room).
"""
import json
import statistics
import sys

FIGURES = {
    "cpu": ("server CPU per decision (us)", "cpu/decision %.1f us",
            lambda j: j.get("server_cpu_us_per_decision") or 0),
    "rate": ("decisions per second", "%.0f decisions/s", lambda j: j.get("decisions_per_s") or 0),
    "p99": ("server p99 round trip (ms)", "p99 %.2f ms", lambda j: (j.get("server_rtt_ms") or {}).get("p99") or 0),
    "txn": ("journal transactions per decision", "%.2f transactions/decision",
            lambda j: j.get("server_journal_transactions_per_decision") or 0),
    "bytes_decision": ("bytes written to files per decision", "%.0f bytes/decision",
                       lambda j: j.get("server_file_bytes_per_decision") or 0),
    "bytes_game": ("bytes written to files per finished game", "%.0f bytes/game",
                   lambda j: j.get("server_file_bytes_per_game") or 0),
    "rss_connection": ("resident memory per connection (KB)", "rss/connection %.1f KB",
                       lambda j: (j.get("server_rss_bytes_per_connection") or 0) / 1024),
    "rss_room": ("resident memory per room (KB)", "rss/room %.1f KB",
                 lambda j: (j.get("server_rss_bytes_per_room") or 0) / 1024),
}


def line(report, names):
    j = json.load(open(report))
    print(", ".join(FIGURES[n][1] % FIGURES[n][2](j) for n in names))


def table(out, rounds, a, b, a_heading, b_heading, specs):
    def load(mode, kind, r):
        return json.load(open(f"{out}/{mode}-{kind}-{r}.json"))
    print()
    print(f"| mode | figure | {a_heading} (median) | {b_heading} (median) | {b_heading} / {a_heading} "
          "(median of the rounds' ratios) |")
    print("|---|---|---|---|---|")
    for spec in specs:
        mode, names = spec.split("=", 1)
        for n in names.split(","):
            heading, _, get = FIGURES[n]
            xs = [get(load(mode, a, r)) for r in range(1, rounds + 1)]
            ys = [get(load(mode, b, r)) for r in range(1, rounds + 1)]
            ratios = [y / x for x, y in zip(xs, ys) if x]
            extra = ""
            if n in ("rss_connection", "rss_room"):
                extra = f" (+{statistics.median(y - x for x, y in zip(xs, ys)):.1f} KB)"
            ratio = f"{statistics.median(ratios):.2f}x{extra}" if ratios else "-"
            print(f"| {mode} | {heading} | {statistics.median(xs):.2f} | {statistics.median(ys):.2f} | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
    elif len(sys.argv) >= 3 and sys.argv[1] == "line":
        line(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 8 and sys.argv[1] == "table":
        table(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8:])
    else:
        sys.exit(__doc__)
