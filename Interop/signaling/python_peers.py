#!/usr/bin/env python3
"""Two Python peers talk through a running `tern signal` server (protocol v1,
Docs/SIGNALING.md): proves a non-Swift client can register with a JWT minted by
another JWT library (PyJWT), call, relay W3C-shaped description/candidate JSON and hang up.

    openssl rand -hex 32 > secret
    tern signal --port 8787 --secret-file secret &
    /usr/bin/python3 Interop/signaling/python_peers.py ws://127.0.0.1:8787/v1 "$(cat secret)"

Needs python3-websockets and python3-jwt (Debian) or `pip install websockets pyjwt`.
Exit status 0 = all steps seen as expected.
"""
import asyncio
import json
import sys
import time

import jwt
import websockets


def token(secret: str, user: str) -> str:
    """A registration token as an application's backend mints it (Docs/SIGNALING.md "Tokens")."""
    return jwt.encode({"sub": user, "exp": int(time.time()) + 300, "role": "user"}, secret, algorithm="HS256")


async def expect(ws, **fields):
    message = json.loads(await asyncio.wait_for(ws.recv(), 5))
    for key, value in fields.items():
        if message.get(key) != value:
            raise SystemExit(f"expected {fields}, got {message}")
    print("  got", json.dumps(message)[:120])
    return message


async def main(url: str, secret: str) -> None:
    async with websockets.connect(url) as alice, websockets.connect(url) as bob:
        for ws, user in ((alice, "py-alice"), (bob, "py-bob")):
            await ws.send(json.dumps({"type": "register", "user": user, "token": token(secret, user)}))
            await expect(ws, type="registered", user=user)

        await alice.send(json.dumps({"type": "invite", "callId": "py1", "to": "py-bob",
                                     "media": {"audio": True, "video": False, "data": True},
                                     "attachedData": [{"dataName": "lang", "dataValue": "python"}]}))
        await expect(bob, type="invite", callId="py1", **{"from": "py-alice"})
        await bob.send(json.dumps({"type": "accept", "callId": "py1"}))
        await expect(alice, type="accept", callId="py1")

        offer = {"type": "offer", "sdp": "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"}
        await alice.send(json.dumps({"type": "description", "callId": "py1", "description": offer}))
        await expect(bob, type="description", description=offer)
        candidate = {"candidate": "candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host",
                     "sdpMid": "0", "sdpMLineIndex": 0, "usernameFragment": "abcd"}
        await bob.send(json.dumps({"type": "candidate", "callId": "py1", "candidate": candidate}))
        await expect(alice, type="candidate", candidate=candidate)
        await bob.send(json.dumps({"type": "candidate", "callId": "py1", "candidate": None}))
        await expect(alice, type="candidate", candidate=None)

        await bob.send("{not json")
        await expect(bob, type="error", code="badJson")
        await alice.send(json.dumps({"type": "hangup", "callId": "py1"}))
        await expect(bob, type="hangup", callId="py1")
    print("python peers: OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8787/v1",
                     sys.argv[2] if len(sys.argv) > 2 else "s3cret"))
