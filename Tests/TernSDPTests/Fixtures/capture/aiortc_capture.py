#!/usr/bin/env python3
"""Captures real SDP offers/answers from aiortc into ../aiortc-*.sdp.

Run: python3 -m venv venv && venv/bin/pip install aiortc && venv/bin/python aiortc_capture.py
Each file is exactly `pc.localDescription.sdp` after setLocalDescription (candidates gathered).
"""
import asyncio
import os
import sys

from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def save(name, sdp):
    path = os.path.join(OUT, f"aiortc-{name}.sdp")
    with open(path, "wb") as f:
        f.write(sdp.encode("utf-8"))
    print("wrote", path, file=sys.stderr)


def pc():
    return RTCPeerConnection(RTCConfiguration(iceServers=[]))


async def exchange(name, setup_offerer, setup_answerer=None):
    a, b = pc(), pc()
    setup_offerer(a)
    await a.setLocalDescription(await a.createOffer())
    save(f"{name}-offer", a.localDescription.sdp)
    await b.setRemoteDescription(RTCSessionDescription(a.localDescription.sdp, "offer"))
    if setup_answerer:
        setup_answerer(b)
    await b.setLocalDescription(await b.createAnswer())
    save(f"{name}-answer", b.localDescription.sdp)
    await a.setRemoteDescription(RTCSessionDescription(b.localDescription.sdp, "answer"))
    return a, b


async def main():
    pcs = []
    pcs += await exchange("audio", lambda p: p.addTransceiver("audio"))
    pcs += await exchange("video", lambda p: p.addTransceiver("video"))
    pcs += await exchange("audio-video", lambda p: (p.addTransceiver("audio"), p.addTransceiver("video")))
    pcs += await exchange("data", lambda p: p.createDataChannel("chat"))
    pcs += await exchange("audio-video-data", lambda p: (p.addTransceiver("audio"), p.addTransceiver("video"),
                                                         p.createDataChannel("chat")))
    pcs += await exchange("sendonly-audio", lambda p: p.addTransceiver("audio", direction="sendonly"))
    pcs += await exchange("recvonly-video", lambda p: p.addTransceiver("video", direction="recvonly"))

    # Renegotiation: an audio call, then video added by the offerer.
    a, b = await exchange("reneg-initial", lambda p: p.addTransceiver("audio"))
    pcs += [a, b]
    a.addTransceiver("video")
    await a.setLocalDescription(await a.createOffer())
    save("reneg-add-video-offer", a.localDescription.sdp)
    await b.setRemoteDescription(RTCSessionDescription(a.localDescription.sdp, "offer"))
    await b.setLocalDescription(await b.createAnswer())
    save("reneg-add-video-answer", b.localDescription.sdp)
    await a.setRemoteDescription(RTCSessionDescription(b.localDescription.sdp, "answer"))

    for p in pcs:
        await p.close()


asyncio.run(main())
