#!/usr/bin/env python3
"""Interop with aiortc, both directions, at the SDP level.

1. Tern offers (rebuilt by the Swift tests from the same seeds) are given to aiortc, whose answers are saved as
   ../aiortc-answer-to-tern-<scenario>.sdp (real aiortc output) and ../interop/tern-<scenario>-offer.sdp.
2. Each ../aiortc-*-offer.sdp is answered by Tern and aiortc must accept the answer (setRemoteDescription).

Run: venv/bin/python aiortc_interop.py /path/to/tern   (the `tern` executable, or the lab's `tern-sdp`)
"""
import asyncio
import glob
import os
import sys

from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription

from interop_common import FIXTURES, INTEROP, SCENARIOS, save, tern_answer, tern_offer


async def main(binary):
    failures = 0
    for scenario in SCENARIOS:
        offer = tern_offer(binary, scenario)
        save(os.path.join(INTEROP, f"tern-{scenario}-offer.sdp"), offer)
        pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        await pc.setRemoteDescription(RTCSessionDescription(offer, "offer"))
        for transceiver in pc.getTransceivers():
            transceiver.direction = "sendrecv"
        await pc.setLocalDescription(await pc.createAnswer())
        save(os.path.join(FIXTURES, f"aiortc-answer-to-tern-{scenario}.sdp"), pc.localDescription.sdp)
        print(f"aiortc answered Tern offer {scenario}")
        await pc.close()

    offers = sorted(glob.glob(os.path.join(FIXTURES, "aiortc-*-offer.sdp")))
    for path in offers:
        name = os.path.basename(path)
        with open(path, "rb") as f:
            offer_text = f.read().decode("utf-8")
        pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        # aiortc needs its own pending offer to accept an answer: replay the offer's media.
        for section in offer_text.split("\r\nm=")[1:]:
            kind = section.split(" ", 1)[0]
            if kind in ("audio", "video"):
                pc.addTransceiver(kind)
            elif kind == "application":
                pc.createDataChannel("chat")
        await pc.setLocalDescription(await pc.createOffer())
        answer = tern_answer(binary, pc.localDescription.sdp)
        try:
            await pc.setRemoteDescription(RTCSessionDescription(answer, "answer"))
            print(f"aiortc accepted Tern's answer to an offer like {name}")
        except Exception as error:  # noqa: BLE001 - report every failure
            failures += 1
            print(f"aiortc REJECTED Tern's answer to an offer like {name}: {error}")
        await pc.close()
    return failures


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(1 if asyncio.run(main(sys.argv[1])) else 0)
