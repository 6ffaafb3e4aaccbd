#!/usr/bin/env python3
"""Generates RTP/RTCP byte fixtures with aiortc's own packet classes.

Run:  python3 -m venv venv && venv/bin/pip install aiortc
      venv/bin/python capture_aiortc.py ..
Writes one <name>.hex file (lowercase hex, one line) per packet into the
directory given (default: the parent Fixtures/ directory). The Swift tests in
RTPFixtureTests.swift parse each file, check the decoded fields against the
values used here, and re-serialise byte for byte.
"""
import os
import sys
from struct import pack

import aiortc
from aiortc.rtcrtpparameters import RTCRtpHeaderExtensionParameters, RTCRtpParameters
from aiortc.rtp import (
    HeaderExtensionsMap,
    RtcpByePacket,
    RtcpPsfbPacket,
    RtcpReceiverInfo,
    RtcpRrPacket,
    RtcpRtpfbPacket,
    RtcpSdesPacket,
    RtcpSenderInfo,
    RtcpSourceInfo,
    RtcpSrPacket,
    RtpPacket,
    pack_remb_fci,
    wrap_rtx,
)

out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")


def write(name, data):
    with open(os.path.join(out_dir, name + ".hex"), "w") as f:
        f.write(data.hex() + "\n")


# --- RTP -------------------------------------------------------------------
p = RtpPacket(payload_type=111, marker=0, sequence_number=4660, timestamp=0x12345678, ssrc=0x11223344,
              payload=bytes(range(20)))
write("aiortc_rtp_basic", p.serialize())

p = RtpPacket(payload_type=96, marker=1, sequence_number=65535, timestamp=3000, ssrc=0xDEADBEEF, payload=b"frame-end")
p.csrc = [0x01020304, 0x05060708]
write("aiortc_rtp_marker_csrc", p.serialize())

p = RtpPacket(payload_type=96, sequence_number=7, timestamp=90000, ssrc=0x0A0B0C0D, payload=b"\x90\xe0hello")
p.padding_size = 13  # aiortc fills padding with os.urandom bytes
write("aiortc_rtp_padding", p.serialize())

params = RTCRtpParameters(headerExtensions=[
    RTCRtpHeaderExtensionParameters(id=1, uri="urn:ietf:params:rtp-hdrext:sdes:mid"),
    RTCRtpHeaderExtensionParameters(id=2, uri="http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"),
    RTCRtpHeaderExtensionParameters(id=3, uri="urn:ietf:params:rtp-hdrext:ssrc-audio-level"),
    RTCRtpHeaderExtensionParameters(id=4, uri="http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"),
    RTCRtpHeaderExtensionParameters(id=5, uri="urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id"),
])
ext_map = HeaderExtensionsMap()
ext_map.configure(params)
p = RtpPacket(payload_type=111, sequence_number=100, timestamp=960, ssrc=0x5EED5EED, payload=b"\xfc\xff\xfe")
p.extensions.mid = "0"
p.extensions.abs_send_time = 0x123456
p.extensions.audio_level = (True, 42)
p.extensions.transport_sequence_number = 0xBEEF
p.extensions.rtp_stream_id = "hi"
write("aiortc_rtp_ext_onebyte", p.serialize(ext_map))

# A 20-byte MID does not fit a one-byte element: aiortc switches to the two-byte format.
p = RtpPacket(payload_type=96, sequence_number=200, timestamp=1234, ssrc=0x5EED5EED, payload=b"video")
p.extensions.mid = "a-very-long-mid-value"
p.extensions.transport_sequence_number = 1
write("aiortc_rtp_ext_twobyte", p.serialize(ext_map))

orig = RtpPacket(payload_type=96, marker=1, sequence_number=1000, timestamp=5555, ssrc=0x11111111, payload=b"original")
write("aiortc_rtx", wrap_rtx(orig, payload_type=97, sequence_number=42, ssrc=0x22222222).serialize())

# --- RTCP ------------------------------------------------------------------
rb = RtcpReceiverInfo(ssrc=0x11223344, fraction_lost=25, packets_lost=-3, highest_sequence=0x0001FFFF,
                      jitter=123, lsr=0xAABBCCDD, dlsr=65536)
sr = RtcpSrPacket(ssrc=0xCAFEBABE, sender_info=RtcpSenderInfo(ntp_timestamp=0xE8E8E8E812345678, rtp_timestamp=160000,
                                                              packet_count=500, octet_count=80000), reports=[rb])
write("aiortc_rtcp_sr", bytes(sr))
rr = RtcpRrPacket(ssrc=0x0BADF00D, reports=[rb, RtcpReceiverInfo(ssrc=2, fraction_lost=0, packets_lost=100,
                                                                  highest_sequence=70000, jitter=0, lsr=0, dlsr=0)])
write("aiortc_rtcp_rr", bytes(rr))
# CNAME of 16 characters: items end 2 bytes past a word boundary, where aiortc's
# padding (two NULs then align) equals RFC 3550's.
sdes = RtcpSdesPacket(chunks=[RtcpSourceInfo(ssrc=0xCAFEBABE, items=[(1, b"{9c3f4a2b-1d2e3}")])])
write("aiortc_rtcp_sdes", bytes(sdes))
write("aiortc_rtcp_bye", bytes(RtcpByePacket(sources=[0xCAFEBABE, 0x12345678])))
write("aiortc_rtcp_nack", bytes(RtcpRtpfbPacket(fmt=1, ssrc=0x01, media_ssrc=0x02, lost=[100, 101, 105, 116, 117, 200])))
write("aiortc_rtcp_pli", bytes(RtcpPsfbPacket(fmt=1, ssrc=0x01, media_ssrc=0x02)))
write("aiortc_rtcp_fir", bytes(RtcpPsfbPacket(fmt=4, ssrc=0x01, media_ssrc=0, fci=pack("!LB3x", 0x02, 7))))
write("aiortc_rtcp_remb", bytes(RtcpPsfbPacket(fmt=15, ssrc=0x01, media_ssrc=0,
                                               fci=pack_remb_fci(1_500_000, [0x11223344, 0x55667788]))))
write("aiortc_rtcp_compound_sr_sdes", bytes(sr) + bytes(sdes))

with open(os.path.join(out_dir, "aiortc_version.txt"), "w") as f:
    f.write(aiortc.__version__ + "\n")
