#!/usr/bin/python3
"""Interop with GStreamer webrtcbin, both directions, at the SDP level.

1. webrtcbin answers Tern's offers; answers saved as ../gstreamer-answer-to-tern-<scenario>.sdp.
2. webrtcbin offers (as in gstreamer_capture.py) are answered by Tern; webrtcbin must accept the answers.
Run with Debian's /usr/bin/python3 (python3-gi): /usr/bin/python3 gstreamer_interop.py /path/to/tern
"""
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402

from interop_common import FIXTURES, SCENARIOS, save, tern_answer, tern_offer  # noqa: E402

Gst.init(None)
OPUS = "application/x-rtp,media=audio,encoding-name=OPUS,clock-rate=48000,payload=96,ssrc=(uint)1111"
VP8 = "application/x-rtp,media=video,encoding-name=VP8,clock-rate=90000,payload=97,ssrc=(uint)2222"
SEND = GstWebRTC.WebRTCRTPTransceiverDirection.SENDRECV


def make():
    pipe = Gst.Pipeline.new()
    element = Gst.ElementFactory.make("webrtcbin")
    element.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
    pipe.add(element)
    pipe.set_state(Gst.State.PLAYING)
    return pipe, element


def emit(element, signal, *args):
    """Emits a promise signal; returns (ok, text of the error or of the created description)."""
    promise = Gst.Promise.new()
    element.emit(signal, *args, promise)
    promise.wait()
    reply = promise.get_reply()
    if reply is not None and reply.has_field("error"):
        return False, str(reply.get_value("error"))
    for field in ("offer", "answer"):
        if reply is not None and reply.has_field(field):
            return True, reply.get_value(field).sdp.as_text()
    return True, ""


def describe(kind, text):
    _, message = GstSdp.SDPMessage.new_from_text(text)
    return GstWebRTC.WebRTCSessionDescription.new(kind, message)


def main(binary):
    failures = 0
    for scenario in SCENARIOS:
        pipe, element = make()
        ok, error = emit(element, "set-remote-description", describe(GstWebRTC.WebRTCSDPType.OFFER, tern_offer(binary, scenario)))
        ok2, answer = emit(element, "create-answer", None) if ok else (False, error)
        if ok and ok2 and answer:
            save(os.path.join(FIXTURES, f"gstreamer-answer-to-tern-{scenario}.sdp"), answer)
            print(f"webrtcbin answered Tern offer {scenario}")
        else:
            failures += 1
            print(f"webrtcbin could not answer Tern offer {scenario}: {answer}")
        pipe.set_state(Gst.State.NULL)

    cases = {"audio": ([OPUS], False), "video": ([VP8], False), "audio-video": ([OPUS, VP8], False),
             "audio-video-data": ([OPUS, VP8], True)}
    for name, (caps_list, data) in cases.items():
        pipe, element = make()
        for caps in caps_list:
            element.emit("add-transceiver", SEND, Gst.Caps.from_string(caps))
        if data:
            element.emit("create-data-channel", "chat", None)
        _, offer = emit(element, "create-offer", None)
        emit(element, "set-local-description", describe(GstWebRTC.WebRTCSDPType.OFFER, offer))
        ok, error = emit(element, "set-remote-description", describe(GstWebRTC.WebRTCSDPType.ANSWER, tern_answer(binary, offer)))
        print(f"Tern answer to webrtcbin offer {name}: {'accepted' if ok else 'REJECTED: ' + error}")
        failures += not ok
        pipe.set_state(Gst.State.NULL)
    return failures


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(1 if main(sys.argv[1]) else 0)
