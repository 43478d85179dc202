"""What a bot saw against what its game's record says (shared by the crash loop and the cluster
tests): every roll, activation and throw in a `spookludo bot --transcript` is the record's at the
same step, every chosen move is in the record's choices, and no step was shown twice with
different dice.
"""
import json
import subprocess
import urllib.request


def faces(draws, purpose):
    return [d["value"] + 1 for d in draws if d["purpose"] == purpose]


def check_transcript(name, transcript, http_base, client, fail):
    """Verifies the game's record (`spookludo verify URL`, fetched from `http_base`) and checks
    the transcript against it; calls fail(message, file) on the first difference. Returns how
    many steps of the transcript were checked."""
    messages = [json.loads(line) for line in open(transcript) if line.strip()]
    overs = [m for m in messages if m.get("type") == "game_over"]
    if not overs:
        fail("the %s bots' transcript has no game_over" % name, transcript)
    over = overs[-1]
    if over.get("status") != "finished" or "record" not in over:
        fail("the %s game did not finish: %s" % (name, json.dumps(over)), transcript)
    url = http_base + over["record"]
    verified = subprocess.run([client, "verify", url], capture_output=True, text=True)
    if verified.returncode != 0:
        fail("%s does not verify: %s%s" % (url, verified.stdout, verified.stderr), None)
    with urllib.request.urlopen(url, timeout=5) as r:
        record = json.load(r)
    draws = record["draws"]
    movement, activation, throws = faces(draws, "movement"), faces(draws, "activation"), faces(draws, "throw")
    chosen = {(c["step"], c["seat"], c["piece"]) for c in record["choices"]}
    seen_rounds = {}
    checked = 0
    for m in messages:
        t = m.get("type")
        if t == "game_started":
            seen_rounds = {}
        elif t == "roll":
            r = m["round"]
            if seen_rounds.setdefault(("roll", r), m["face"]) != m["face"]:
                fail("%s: round %d's roll was shown as %s, then as %s" % (name, r, seen_rounds[("roll", r)], m["face"]),
                     transcript)
            if r > len(movement) or movement[r - 1] != m["face"]:
                fail("%s: round %d's roll %d is not the record's" % (name, r, m["face"]), transcript)
        elif t == "activation":
            r = m["round"]
            if r > len(activation) or activation[r - 1] != m["face"]:
                fail("%s: round %d's activation %d is not the record's" % (name, r, m["face"]), transcript)
        elif t == "moves":
            for mv in m["moves"]:
                # Forced moves (only_move) are not choices; every other move is one in the record.
                if "piece" in mv and mv.get("by") != "only_move" and (m["round"], mv["seat"], mv["piece"]) not in chosen:
                    fail("%s: round %d's move of seat %d piece %d is not in the record" %
                         (name, m["round"], mv["seat"], mv["piece"]), transcript)
        elif t == "throw":
            turn = m["turn"]
            if turn > len(throws) or throws[turn - 1] != m["face"]:
                fail("%s: throw %d (%d) is not the record's" % (name, turn, m["face"]), transcript)
        else:
            continue
        checked += 1
    return checked
