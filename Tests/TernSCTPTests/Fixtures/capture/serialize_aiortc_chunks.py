#!/usr/bin/env python3
"""Serialize SCTP chunk types that the session capture does not exercise, using aiortc's
own chunk classes and serialize_packet (aiortc 1.16.0). Field values are arbitrary but
the bytes, padding and CRC32c are aiortc's.

Usage: python3 serialize_aiortc_chunks.py > ../aiortc-chunks.hex
Output: one line per packet: "<name> <hex>".
"""
from struct import pack

from aiortc.rtcsctptransport import (
    AbortChunk, ErrorChunk, HeartbeatAckChunk, HeartbeatChunk, ShutdownAckChunk,
    ShutdownChunk, ShutdownCompleteChunk, SackChunk, ForwardTsnChunk, ReconfigChunk,
    StreamResetOutgoingParam, StreamResetResponseParam, serialize_packet,
)

out = []

hb = HeartbeatChunk()
hb.params.append((1, b"\x01\x02\x03\x04\x05\x06\x07\x08\x09"))  # 9 bytes: exercises padding
out.append(("heartbeat", hb))
hba = HeartbeatAckChunk()
hba.params = hb.params
out.append(("heartbeat-ack", hba))
sd = ShutdownChunk()
sd.cumulative_tsn = 0x12345678
out.append(("shutdown", sd))
out.append(("shutdown-ack", ShutdownAckChunk()))
out.append(("shutdown-complete", ShutdownCompleteChunk()))
err = ErrorChunk()
err.params.append((3, b"\x00\x00\x00\x00\x00\x00\x00\x08"))  # Stale Cookie cause
out.append(("error-stale-cookie", err))
ab = AbortChunk()
ab.params.append((12, b"user gone"))
out.append(("abort-user", ab))
sack = SackChunk()
sack.cumulative_tsn = 1000
sack.advertised_rwnd = 131072
sack.gaps = [(2, 3), (5, 9)]
sack.duplicates = [998, 999]
out.append(("sack-gaps-dups", sack))
fwd = ForwardTsnChunk()
fwd.cumulative_tsn = 4000
fwd.streams = [(1, 7), (3, 2)]
out.append(("forward-tsn-streams", fwd))
rc = ReconfigChunk()
rc.params.append((13, bytes(StreamResetOutgoingParam(request_sequence=10, response_sequence=20, last_tsn=30, streams=[2, 4, 6]))))
out.append(("reconfig-outgoing-reset", rc))
rr = ReconfigChunk()
rr.params.append((16, bytes(StreamResetResponseParam(response_sequence=10, result=1))))
out.append(("reconfig-response", rr))

for name, chunk in out:
    print(name, serialize_packet(5000, 5000, 0xCAFEBABE, chunk).hex())
