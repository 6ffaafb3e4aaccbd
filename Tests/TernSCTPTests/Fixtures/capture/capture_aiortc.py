#!/usr/bin/env python3
"""Capture real SCTP packets produced by aiortc's RTCSctpTransport (aiortc 1.16.0).

Two RTCSctpTransport instances (DTLS client and server roles) talk through a fake
DTLS transport that hands each SCTP packet, as bytes, to the other side. Every packet
is recorded exactly as aiortc serialized it (CRC32c included), with its direction.

Scenario: association setup (both sides send INIT, RFC 8841), a DCEP-opened ordered
channel with strings, binary, an empty string and a 3000-byte message (fragmented),
a maxRetransmits=0 unordered channel on a lossy phase (some DATA dropped, which makes
aiortc send FORWARD-TSN), closing a channel (RE-CONFIG stream reset), and stop (ABORT).

Usage: python3 capture_aiortc.py > ../aiortc-session.hex
Output: one line per packet: "<from>-><to> <hex>".
"""
import asyncio
import sys

from aiortc.rtcdatachannel import RTCDataChannel, RTCDataChannelParameters
from aiortc.rtcsctptransport import RTCSctpTransport


class FakeDtls:
    def __init__(self, role, log):
        self._role = role
        self.state = "connected"
        self.peer = None
        self.receiver = None
        self.log = log
        self.drop = lambda data: False

    def _register_data_receiver(self, receiver):
        self.receiver = receiver

    def _unregister_data_receiver(self, receiver):
        self.receiver = None

    async def _send_data(self, data):
        self.log.append((self._role, bytes(data)))
        if self.drop(data):
            return
        if self.peer.receiver is not None:
            asyncio.ensure_future(self.peer.receiver._handle_data(data))


async def main():
    log = []
    client_dtls = FakeDtls("client", log)
    server_dtls = FakeDtls("server", log)
    client_dtls.peer, server_dtls.peer = server_dtls, client_dtls
    client = RTCSctpTransport(client_dtls)
    server = RTCSctpTransport(server_dtls)
    await asyncio.gather(server.start(client.getCapabilities(), client.port),
                         client.start(server.getCapabilities(), server.port))
    for _ in range(100):
        if client.state == "connected" and server.state == "connected":
            break
        await asyncio.sleep(0.01)

    received = []
    server.on("datachannel", lambda ch: ch.on("message", lambda m: received.append(m)))
    chat = RTCDataChannel(client, RTCDataChannelParameters(label="chat", protocol="json"))
    await asyncio.sleep(0.1)
    chat.send("hello")
    chat.send(b"\x00\x01\x02\x03binary")
    chat.send("")
    chat.send(b"")
    chat.send(bytes(range(256)) * 12)  # 3072 bytes: fragmented into several DATA chunks
    await asyncio.sleep(0.5)

    lossy = RTCDataChannel(client, RTCDataChannelParameters(label="lossy", ordered=False, maxRetransmits=0))
    await asyncio.sleep(0.1)
    counter = {"n": 0}

    def drop(data):
        # Drop every third DATA-only packet from the client (first chunk type 0).
        if len(data) > 12 and data[12] == 0:
            counter["n"] += 1
            return counter["n"] % 3 == 0
        return False

    client_dtls.drop = drop
    for i in range(12):
        lossy.send(b"unreliable-%d" % i)
    await asyncio.sleep(1.5)
    client_dtls.drop = lambda data: False

    chat.close()
    await asyncio.sleep(0.5)
    await client.stop()
    await asyncio.sleep(0.1)
    await server.stop()

    for role, data in log:
        other = "server" if role == "client" else "client"
        print(f"{role}->{other} {data.hex()}")
    print(f"captured {len(log)} packets, server received {len(received)} messages", file=sys.stderr)


asyncio.run(main())
