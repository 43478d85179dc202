#!/usr/bin/env python3
"""The server's folders keep their arrows (docs/architecture.md).

Each folder of server/ is a CMake library that exposes its folder as its include directory, so
most wrong includes fail to compile. Not all: base links Boost, so Beast and Asio's sockets
compile there; the cluster's interface library exposes the whole of server/cluster, not only
cluster.h; and a relative path ("../net/stream.h") reaches any folder. This reads every
#include "..." and #include <...> of server/**/*.h and *.cpp and fails (exit 1), naming the file,
the line and the rule, when:
  - rooms, store or base include a socket, Beast or TLS header (Asio's timers, executors, post,
    dispatch, strand and io_context are fine) or any header of net/;
  - a folder includes a header of a folder it may not use (the table below; store and base never
    include a room, base never includes store);
  - rooms, http or net include a header of cluster/ other than its interface, cluster.h.
Which folder owns a header comes from the files in each server/<folder>/, so a new header is
covered as soon as it exists: a quoted include is looked for beside the including file first,
then, like <...>, in every folder (a name two folders hold counts for both).

With --max-lines N it checks instead that no file in server/, client/ or web/js/ is over N lines.

usage: check_layers.py REPO_ROOT [--max-lines N]
"""
import argparse
import os
import re
import sys

# What each folder may use, and so what it may not include.
USES = {
    "app": "net, http, cluster, rooms, store and base",
    "net": "http, rooms, the cluster's interface, store and base",
    "http": "rooms, the cluster's interface, store and base",
    "cluster": "rooms, store and base",
    "rooms": "store, base and the cluster's interface",
    "store": "base",
    "base": "no other folder of the server",
}
NOT_FROM = {
    "app": set(),
    "net": {"app"},
    "http": {"net", "app"},
    "cluster": {"http", "net", "app"},
    "rooms": {"http", "net", "app"},
    "store": {"rooms", "cluster", "http", "net", "app"},
    "base": {"store", "rooms", "cluster", "http", "net", "app"},
}
CLUSTER_INTERFACE = "cluster.h"
ONLY_CLUSTER_INTERFACE = {"rooms", "http", "net"}
NO_SOCKETS = {"rooms", "store", "base"}
SOCKET_HEADER = re.compile(
    r"^(boost/beast\b|boost/asio/ip/|boost/asio/ssl\b|boost/asio/local/|boost/asio/generic/|boost/asio\.hpp$"
    r"|openssl/|sys/socket\.h$|netinet/|arpa/inet\.h$|netdb\.h$)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def owners(server, src, quoted, name):
    """The folders of server/ whose header `name`, included from `src`, is."""
    if quoted:  # beside the including file first: that one wins
        here = os.path.normpath(os.path.join(os.path.dirname(src), name))
        if os.path.isfile(here):
            rel = os.path.relpath(here, server).split(os.sep)
            return {rel[0]} if len(rel) > 1 and rel[0] in NOT_FROM else set()
    return {f for f in NOT_FROM if os.path.isfile(os.path.join(server, f, name))}


def broken_rules(folder, quoted, name, found):
    shown = f'"{name}"' if quoted else f"<{name}>"
    rules = []
    if folder in NO_SOCKETS and (SOCKET_HEADER.match(name) or "net" in found):
        of_net = " of net/" if "net" in found else ""
        rules.append(f"{folder}/ includes {shown}{of_net}, a socket, Beast or TLS header: rooms, store and base use "
                     "Asio's timers and executors only; sockets belong in server/net")
    for owner in sorted(found - {folder}):
        if owner in NOT_FROM[folder] and not (owner == "net" and folder in NO_SOCKETS):
            why = "; storage never includes a room" if owner == "rooms" else ""
            rules.append(f"{folder}/ includes {shown} of {owner}/: {folder} may use {USES[folder]}{why}")
    if folder in ONLY_CLUSTER_INTERFACE and "cluster" in found and os.path.basename(name) != CLUSTER_INTERFACE:
        rules.append(f"{folder}/ includes {shown} of cluster/: {folder} sees the cluster only through its "
                     f"interface, cluster/{CLUSTER_INTERFACE}")
    return rules


def check_layers(root):
    server = os.path.join(root, "server")
    failures, files, includes = [], 0, 0
    for folder in sorted(NOT_FROM):
        for top, dirs, names in os.walk(os.path.join(server, folder)):
            dirs.sort()
            for file in sorted(n for n in names if n.endswith((".h", ".cpp"))):
                path = os.path.join(top, file)
                files += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        includes += 1
                        quoted, name = m.group(1) == '"', m.group(2).strip()
                        for rule in broken_rules(folder, quoted, name, owners(server, path, quoted, name)):
                            failures.append(f"{os.path.relpath(path, root)}:{number}: {rule}")
    for failure in failures:
        print(failure)
    if failures:
        print(f"architecture: {len(failures)} include(s) against the server's arrows (docs/architecture.md)")
    else:
        print(f"architecture: {includes} includes in {files} files of server/: every arrow holds")
    return not failures


def check_sizes(root, max_lines):
    over = []
    for top_dir in ("server", "client", os.path.join("web", "js")):
        for top, dirs, names in os.walk(os.path.join(root, top_dir)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for file in sorted(n for n in names if not n.startswith(".")):
                path = os.path.join(top, file)
                with open(path, "rb") as f:
                    data = f.read()
                lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
                if lines > max_lines:
                    over.append((os.path.relpath(path, root), lines))
    for path, lines in over:
        print(f"{path}: {lines} lines, over {max_lines}: split it by concern")
    if over:
        print(f"architecture: {len(over)} file(s) in server/, client/ or web/js/ over {max_lines} lines")
    else:
        print(f"architecture: no file in server/, client/ or web/js/ is over {max_lines} lines")
    return not over


def main():
    parser = argparse.ArgumentParser(description="The server's folders keep their arrows (docs/architecture.md).")
    parser.add_argument("root", help="the repository's root")
    parser.add_argument("--max-lines", type=int, help="check instead that no file of server/, client/ or web/js/ "
                                                      "is over this many lines")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.root, "server")):
        print(f"check_layers.py: no server/ in {args.root}", file=sys.stderr)
        sys.exit(2)
    ok = check_sizes(args.root, args.max_lines) if args.max_lines is not None else check_layers(args.root)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
