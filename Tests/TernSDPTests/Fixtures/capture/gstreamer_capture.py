#!/usr/bin/python3
"""Captures real GStreamer webrtcbin SDP into ../gstreamer-*.sdp.

Run with Debian's /usr/bin/python3 (python3-gi lives there). Needs: gstreamer1.0-plugins-bad gstreamer1.0-nice python3-gi gir1.2-gst-plugins-bad-1.0.
Two webrtcbin elements negotiate with each other; transceivers carry codec caps, no media flows.
"""
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
Gst.init(None)

OPUS = "application/x-rtp,media=audio,encoding-name=OPUS,clock-rate=48000,payload=96,ssrc=(uint)1111"
VP8 = "application/x-rtp,media=video,encoding-name=VP8,clock-rate=90000,payload=97,ssrc=(uint)2222"
SEND = GstWebRTC.WebRTCRTPTransceiverDirection.SENDRECV
RECV = GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY


def save(name, sdp):
    path = os.path.join(OUT, f"gstreamer-{name}.sdp")
    with open(path, "wb") as f:
        f.write(sdp.encode("utf-8"))
    print("wrote", path, file=sys.stderr)


def call(element, signal, *args):
    promise = Gst.Promise.new()
    element.emit(signal, *args, promise)
    promise.wait()
    return promise.get_reply()


def make(transceivers, data=False):
    pipe = Gst.Pipeline.new()
    bin_ = Gst.ElementFactory.make("webrtcbin")
    bin_.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
    pipe.add(bin_)
    pipe.set_state(Gst.State.PLAYING)
    for direction, caps in transceivers:
        bin_.emit("add-transceiver", direction, Gst.Caps.from_string(caps))
    if data:
        bin_.emit("create-data-channel", "chat", None)
    return pipe, bin_


def set_desc(element, signal, kind, text):
    _, msg = GstSdp.SDPMessage.new_from_text(text)
    desc = GstWebRTC.WebRTCSessionDescription.new(kind, msg)
    call(element, signal, desc)


def create(element, signal, field):
    """Emits create-offer/create-answer and returns the SDP text while the promise (which owns the reply) lives."""
    promise = Gst.Promise.new()
    element.emit(signal, None, promise)
    promise.wait()
    reply = promise.get_reply()
    if reply is None or not reply.has_field(field):
        sys.exit(f"webrtcbin {signal} failed: {reply.to_string() if reply else 'no reply'}")
    return reply.get_value(field).sdp.as_text()


def exchange(name, offer_transceivers, answer_transceivers, data=False):
    p1, a = make(offer_transceivers, data)
    p2, b = make(answer_transceivers)
    offer_text = create(a, "create-offer", "offer")
    set_desc(a, "set-local-description", GstWebRTC.WebRTCSDPType.OFFER, offer_text)
    save(f"{name}-offer", offer_text)
    set_desc(b, "set-remote-description", GstWebRTC.WebRTCSDPType.OFFER, offer_text)
    answer_text = create(b, "create-answer", "answer")
    set_desc(b, "set-local-description", GstWebRTC.WebRTCSDPType.ANSWER, answer_text)
    save(f"{name}-answer", answer_text)
    p1.set_state(Gst.State.NULL)
    p2.set_state(Gst.State.NULL)


exchange("audio", [(SEND, OPUS)], [(SEND, OPUS)])
exchange("video", [(SEND, VP8)], [(RECV, VP8)])
exchange("audio-video", [(SEND, OPUS), (SEND, VP8)], [(SEND, OPUS), (SEND, VP8)])
exchange("audio-video-data", [(SEND, OPUS), (SEND, VP8)], [(SEND, OPUS), (SEND, VP8)], data=True)
