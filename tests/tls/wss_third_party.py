#!/usr/bin/env python3
"""A third-party client over wss://: Debian's python3-websockets, with Python's own ssl module,
against the real spookludo-server serving TLS with a certificate made here (openssl) and signed
by a CA made here. It checks what another program's author would rely on: the certificate
verifies for "localhost" against the CA, the protocol's hello is answered with welcome, a room
can be created; and a client that does not trust the CA is refused by its own TLS check.

Usage: wss_third_party.py SERVER_BINARY    (exit 0 when all holds, 1 with the reason otherwise)
"""
import asyncio
import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import time

import websockets


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_certificates(d):
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-keyout", f"{d}/ca.key", "-out", f"{d}/ca.pem", "-days", "2",
        "-subj", "/CN=third-party test CA")
    run("openssl", "req", *ec, "-keyout", f"{d}/key.pem", "-out", f"{d}/req.csr", "-subj", "/CN=localhost")
    with open(f"{d}/ext.cnf", "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", f"{d}/req.csr", "-CA", f"{d}/ca.pem", "-CAkey", f"{d}/ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", f"{d}/ext.cnf", "-out", f"{d}/cert.pem")


async def play(port, ca):
    context = ssl.create_default_context(cafile=ca)
    async with websockets.connect(f"wss://localhost:{port}/ws", ssl=context) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "client": "python3-websockets"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert welcome["type"] == "welcome", welcome
        await ws.send(json.dumps({"type": "create_room", "name": "Py",
                                  "options": {"game": "spook", "players": 2, "pieces": 1}}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == "joined":
                assert m["seat"] == 0 and m["host"] is True, m
                break
    # A client that trusts only the system's CAs refuses this certificate.
    try:
        async with websockets.connect(f"wss://localhost:{port}/ws", ssl=ssl.create_default_context()):
            raise AssertionError("a client without the CA connected")
    except ssl.SSLCertVerificationError as e:
        assert "certificate verify failed" in str(e), e


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="spookludo-wss-") as d:
        make_certificates(d)
        log = open(f"{d}/server.log", "w+")
        server = subprocess.Popen([sys.argv[1], "--port", "0", "--tls-cert", f"{d}/cert.pem", "--tls-key",
                                   f"{d}/key.pem", "--data-dir", f"{d}/data"], stdout=log, stderr=log)
        try:
            port = None
            for _ in range(100):
                log.seek(0)
                found = re.search(r"listening on 0\.0\.0\.0:(\d+)", log.read())
                if found:
                    port = int(found.group(1))
                    break
                time.sleep(0.05)
            if port is None:
                print("the server did not say its port", file=sys.stderr)
                return 1
            asyncio.run(play(port, f"{d}/ca.pem"))
        except Exception as e:  # noqa: BLE001 - any failure is the test's verdict
            print(f"wss third-party client: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        finally:
            server.terminate()
            server.wait(10)
    print("wss third-party client: hello, welcome and a room over wss://; an untrusting client refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
