#!/usr/bin/env python3
"""A third-party client (python3-websockets) against two cluster nodes, doing what PROTOCOL.md
tells such a client to do with a `redirect`: connect to the named node, hello, the same message.

usage: redirects.py A_URL B_URL   (the nodes' --public-url, http://127.0.0.1:PORT; A empty of rooms,
                                   B too, both alive in each other's view)
Prints one line per check; exits 1 at the first that fails.
"""
import asyncio
import json
import sys

import websockets

A, B = sys.argv[1], sys.argv[2]


def ws_url(node):
    return node.replace("https://", "wss://").replace("http://", "ws://").rstrip("/") + "/ws"


def check(what, ok, got=None):
    if not ok:
        print("FAILED: %s (got %s)" % (what, json.dumps(got)), flush=True)
        sys.exit(1)
    print("ok: " + what, flush=True)


async def connect(node):
    ws = await websockets.connect(ws_url(node))
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "client": "redirects.py"}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert welcome["type"] == "welcome", welcome
    return ws


async def ask(ws, message, until=("joined", "error", "redirect")):
    """Sends the message; the first answer of one of these types (room snapshots and notices skipped)."""
    await ws.send(json.dumps(message))
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] in until:
            return m


async def main():
    held = []  # connections kept open: their rooms stay open
    create = {"type": "create_room", "options": {"game": "spook", "players": 2, "pieces": 1}, "name": "host"}

    # Two rooms on A while B has none: A keeps them (at most one room more than the emptiest).
    rooms_a = []
    for i in range(2):
        ws = await connect(A)
        held.append(ws)
        m = await ask(ws, create)
        check("room %d created on A itself" % (i + 1), m["type"] == "joined", m)
        rooms_a.append(m["room"])
    # (Placement counts the nodes' rooms in Redis at the moment of asking: no heartbeat to wait for.)

    # A third through A goes to B, the emptiest: a redirect naming B, then the same message there.
    ws = await connect(A)
    m = await ask(ws, create)
    check("create_room through A (2 rooms, B 0) is redirected to B", m["type"] == "redirect" and m["url"] == B, m)
    check("the redirect answers create_room and names no room", m["ref"] == "create_room" and "room" not in m, m)
    check("the redirect names B's node id", m["node"] == sys.argv[3] if len(sys.argv) > 3 else True, m)
    await ws.close()
    ws = await connect(m["url"])
    held.append(ws)
    m = await ask(ws, create)
    check("the same create_room on B makes the room there", m["type"] == "joined", m)
    room_b, token_b = m["room"], m["token"]

    # join_room, watch and resume through the other node: redirected to the room's node.
    ws = await connect(A)
    m = await ask(ws, {"type": "join_room", "room": room_b, "name": "guest"})
    check("join_room of B's room through A is redirected to B, naming the room",
          m["type"] == "redirect" and m["url"] == B and m["room"] == room_b and m["ref"] == "join_room", m)
    await ws.close()
    ws = await connect(m["url"])
    held.append(ws)
    m = await ask(ws, {"type": "join_room", "room": room_b.lower(), "name": "guest"})
    check("... and the same join_room on B seats the guest", m["type"] == "joined" and m["seat"] == 1, m)

    ws = await connect(B)
    m = await ask(ws, {"type": "watch", "room": rooms_a[0]})
    check("watch of A's room through B is redirected to A", m["type"] == "redirect" and m["url"] == A and m["ref"] == "watch", m)
    await ws.close()

    # The host's connection drops; its seat's token, sent to A, comes back to B.
    await held[2].close()
    await asyncio.sleep(0.3)
    ws = await connect(A)
    m = await ask(ws, {"type": "resume", "room": room_b, "token": token_b})
    check("resume through A is redirected to B", m["type"] == "redirect" and m["url"] == B and m["ref"] == "resume", m)
    await ws.close()
    ws = await connect(B)
    held.append(ws)
    m = await ask(ws, {"type": "resume", "room": room_b, "token": token_b})
    check("... and on B the seat is taken back", m["type"] == "joined" and m["seat"] == 0, m)

    # Codes nobody has, and codes that cannot be codes, are not found anywhere.
    ws = await connect(A)
    m = await ask(ws, {"type": "join_room", "room": "ZZZZZ", "name": "x"})
    check("a code no node has: room_not_found", m["type"] == "error" and m["code"] == "room_not_found", m)
    m = await ask(ws, {"type": "watch", "room": "no!"})
    check("a code that cannot be one: room_not_found", m["type"] == "error" and m["code"] == "room_not_found", m)
    # Messages right behind one that waits for the cluster are taken after its answer, in order.
    await ws.send(json.dumps({"type": "watch", "room": room_b}))
    await ws.send(json.dumps({"type": "ping", "t": 7}))
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    second = json.loads(await asyncio.wait_for(ws.recv(), 10))
    check("a ping sent behind a watch being looked up is answered after the redirect",
          first["type"] == "redirect" and second["type"] == "pong" and second["t"] == 7, [first, second])
    await ws.close()
    for ws in held:
        await ws.close()


asyncio.run(main())
