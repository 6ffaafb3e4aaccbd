"""Builds Docs/BENCHMARKS.md and Docs/benchmarks.json from the benchmarks' JSON lines.

    assemble.py RESULTS.jsonl NOTES.txt MODE DOCS_DIR [LOAD_AT_START]

RESULTS.jsonl: every JSON line the benchmark executables (and Benchmarks/aiortc) printed, one
figure per line; lines with the same name (one per process run) are merged: all samples pooled,
the median taken. A line with "role": "peer" holds the peer's samples of that figure; a Tern
line may carry its peer's samples itself ("peerSamples").
NOTES.txt: lines "name<TAB>reason" for rows left out of this run (QUICK, failure, time-out).
MODE: "full" or "quick". LOAD_AT_START: /proc/loadavg's first three fields when the run began.
Figures are printed, never asserted.
"""
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

# Every row this run may produce, in table order, with what it measures.
ROWS = [
    ("sdp_roundtrip_us", "Parse + write of Tests/TernSDPTests/Fixtures/chromium-audio-video-data-offer.sdp "
     "(Chromium offer: audio, video, application) with SDPParser().parse + .text; peer: aiortc "
     "SessionDescription.parse + str() on the same file in the same run. Ratio = aiortc µs / Tern µs "
     "(issue #12 goal: ≥ 20×)."),
    ("sdp_parse_ns_per_line_2k", "Parse of one audio section with 2,000 repeated attribute lines (SDPParser, size "
     "limit raised to fit), ns per attribute line: the bounded-work check of issue #3."),
    ("sdp_parse_ns_per_line_20k", "The same with 20,000 lines (the case one browser's parser takes over 30 s for): "
     "linear parsing keeps ns per line about equal to the 2,000-line row."),
    ("rtp_parse_write_Mpps", "RTPPacket(parsing:) of a 1100-byte-payload packet with two header extensions, "
     "sequence number changed, write(to:) into a reused buffer; million packets per second."),
    ("rtcp_compound_parse_per_s", "RTCPPacket.parseCompound of one 196-byte compound as a Chromium peer sending and "
     "receiving video emits it (SR with two report blocks, SDES CNAME, generic NACK for 3 packets, PLI, "
     "transport-wide CC feedback for 40 packets with 2 lost), built with TernRTP's writers; compounds per second."),
    ("srtp_vs_libsrtp_ratio", "SRTP protect + unprotect of a 1200-byte RTP packet, AEAD_AES_128_GCM, through "
     "SRTPSession (packet copied per call); peer: a bare C loop over libsrtp2 (Benchmarks/CBenchSRTP) with the same "
     "key, salt and packet, runs alternated in one process. Ratio = Tern / bare (issue #12 goal: ≥ 0.9)."),
    ("srtp_vs_libsrtp_ratio_aes_cm_sha1_80", "The same with AES128_CM_HMAC_SHA1_80."),
    ("dtls_handshake_ms", "In-process DTLS 1.2 handshake, ECDSA P-256 both sides, including both endpoints' "
     "SSL_CTX/SSL set-up (Tern shares one SSL_CTX per profile list, so that part is a lookup), datagrams handed "
     "across directly, fingerprints checked and SRTP keys exported; median of 100 after 10 warm-up handshakes. "
     "Peer: aiortc's DTLS the same way (Benchmarks/aiortc/dtls_handshake.py: its RTCCertificate and SSL context, "
     "pyOpenSSL on memory BIOs, a new context per handshake as RTCDtlsTransport makes one). Ratio = aiortc ms / Tern ms."),
    ("dtls_appdata_MBps", "DTLS 1.2 application data (the records SCTP rides on): one endpoint encrypts records of "
     "maximumApplicationDataSize bytes (AES-GCM), the other decrypts them, in-process; MB/s of payload."),
    ("ice_connect_ms", "`tern ice loopback --runs 50`: gather start → both connected for two host-only libnice "
     "agents on 127.0.0.1 (regular nomination, STUN pacing Ta = 5 ms, RFC 8445's minimum), median of 50."),
    ("setup_ms", "Set-up latency: createOffer → data channel open on both sides, two processes on loopback "
     "(Benchmarks/DCThroughput), offer/answer and trickled candidates over the child's pipes, ICE on 127.0.0.1 "
     "with the settings an application ships with on both sides (IceConfiguration's defaults: RFC 8445's 5 ms "
     "pacing and regular nomination; no Tern↔Tern extensions; SNAP, on by default, so no SCTP handshake: "
     "Docs/SCTP.md), DTLS 1.2, SCTP, DCEP; one long-lived child "
     "process, fresh peer connections in both processes every run, the first run (a fresh process pair) left "
     "out; median of 50 (issue #8 goal: ≤ 10 ms). Peer: aiortc ↔ aiortc measured the same way in the same run "
     "(Benchmarks/aiortc/dc_throughput.py; no trickle: complete SDP after gathering; aioice host addresses "
     "replaced by 127.0.0.1). Ratio = aiortc ms / Tern ms."),
    ("setup_ms_pool", "The same with iceCandidatePoolSize = 1 on both sides (W3C candidate pool: each connection "
     "gathers when it is created, the offer and the answer carry the candidates)."),
    ("setup_ms_audio", "The setup_ms runs with an audio track too (offerer sendonly, 20 ms Opus tone frames on a "
     "capture clock started at createOffer): createOffer → channel open on both sides and the answerer's first "
     "decoded audio frame — issue #8's full definition. A frame captured while the transport connects is sent "
     "when it connects (RtpSender, ≤ 40 ms old). Peer: aiortc ↔ aiortc the same way, with aiortc's own "
     "AudioStreamTrack as the source (its RTP sender starts pulling frames once connected)."),
    ("setup_ms_loopback_tuned", "Tern-only loopback settings, not a headline: setup_ms with "
     "PeerConfiguration.loopback (Ta = 1 ms and aggressive nomination, one possible pair; Docs/ICE.md "
     "\"Nomination\"), which no real network may use. What `tern call --loopback` and the tests use."),
    ("setup_ms_stock_libnice", "Labelled, not a headline: setup_ms with Tern's libnice patch unused on both "
     "sides (DCBENCH_VALID_PAIR=0 DCBENCH_FIRST_CHECK=0: ICEConfiguration.sendsOnValidPairs and "
     "firstCheckAtOnce off), so DTLS waits for the selected pair and the first check for a Ta tick, as with "
     "Debian's libnice: what the patch saves (Docs/ICE.md, \"Tern's libnice patch\")."),
    ("setup_ms_first", "The first connection of a fresh process pair (the throughput runs: a new child process "
     "each): one-time work included (libsrtp's initialisation, Swift metadata, page faults). Peer: aiortc's "
     "first connection the same way."),
    ("dc_throughput_loopback_MBps", "One reliable ordered data channel between two processes on loopback, DTLS "
     "included: 64 MiB in 64 KiB binary messages, sender keeps bufferedAmount ≤ 4 MiB and waits for "
     "bufferedamountlow (threshold 1 MiB); MB/s (10^6) from the first send to the last byte received. Peer: "
     "aiortc ↔ aiortc the same way, runs alternated with Tern's. Both sides with their defaults and no "
     "extensions (Tern: DCBENCH_PROFILE=defaults): 1,200-byte SCTP packets, a SACK every second packet."),
    ("dc_throughput_loopback_MBps_tern_extensions", "Tern ↔ Tern only, not a headline: the same transfer with "
     "the Tern↔Tern SCTP extensions both sides offer by default and only a Tern peer accepts "
     "(a=x-tern-sctp-max-packet: packets up to 16 KiB on loopback, a SACK every eighth packet, no pacing) and "
     "PeerConfiguration.loopback (issue #7 goal: ≥ 125 MB/s Tern ↔ Tern)."),
    ("setup_ms_first_tern_extensions", "The first connection of those runs."),
    ("setup_ms_chromium_pair", "Tern's set-up latency (the setup_ms runs) next to Chromium's: two RTCPeerConnections "
     "in one headless Chromium page (Benchmarks/chromium/pair.js), candidates relayed in the page, on 127.0.0.1 in "
     "a network namespace with only lo (as root), createOffer → channel open on both sides, fresh connections "
     "each run in a warm page. Ratio = Chromium ms / Tern ms. Chromium needs no process boundary; Tern's runs "
     "cross one."),
    ("setup_ms_chromium_two_process", "Tern's set-up latency (the setup_ms runs) next to Chromium ↔ Chromium measured "
     "the same way: two headless Chromium instances in two processes (Benchmarks/chromium/two_process_bench.py: "
     "each page driven by Benchmarks/chromium/dc_bridge.py, which speaks DCThroughput's signals, so the bridges "
     "stand where Tern's two processes stand), on 127.0.0.1 in a network namespace with only lo, Chromium's "
     "defaults, createOffer → channel open on both sides, fresh connections each run, the first run left out. "
     "Signals cross two local HTTP hops (POST, EventSource) where Tern's cross a pipe. Ratio = Chromium ms / "
     "Tern ms (issue #20 goal: Tern ≤ 10 ms and ≤ Chromium's)."),
    ("dc_throughput_loopback_MBps_chromium_two_process", "Tern's loopback throughput next to Chromium ↔ Chromium in "
     "two processes (as above): 64 MiB in 64 KiB binary messages, bufferedAmount ≤ 4 MiB, bufferedamountlow at "
     "1 MiB, first send → last byte in."),
    ("dc_throughput_loopback_MBps_chromium_pair", "Tern's loopback throughput next to Chromium's in-page pair: "
     "64 MiB in 64 KiB binary messages on one reliable ordered channel, bufferedAmount ≤ 8 MiB, "
     "bufferedamountlow at 1 MiB; MB/s first send → last byte in."),
    ("dc_throughput_rtt50_Mbps", "The same transfer with 50 ms of round-trip time: parent and child in two "
     "network-lab namespaces (Interop/netlab, 25 ms each way through its router's NFQUEUE delayer, veth with a "
     "1,500-byte MTU), Mbit/s, IceConfiguration's defaults and no Tern↔Tern extensions on both sides. Peer: "
     "aiortc ↔ aiortc the same way. Root only."),
    ("dc_throughput_rtt50_tern_extensions_Mbps", "Tern ↔ Tern only, not a headline: the same with the Tern↔Tern "
     "SCTP extensions negotiated (1,500-byte-MTU packets found by path MTU discovery, a SACK every eighth packet, "
     "no pacing; issue #7 goal: ≥ 200 Mbit/s)."),
    ("setup_ms_rtt50_tern_extensions", "Tern ↔ Tern only, not a headline: set-up latency with the Tern↔Tern "
     "extensions negotiated, which include DTLS in the ICE checks (the ClientHello in the first check, the "
     "server's flight in its reply; Tern's own wire format, Docs/ICE.md \"DTLS in the checks\"): set-up-only runs "
     "(--bytes 0), one long-lived child, 3 set-ups after the pair's first, per round."),
    ("setup_ms_rtt50_without_snap", "Labelled, not a headline: setup_ms_rtt50 with SNAP off on both Tern sides "
     "(DCBENCH_SNAP=0), so the SCTP handshake runs as with a peer that has no SNAP: what SNAP saves."),
    ("setup_ms_rtt50_stock_libnice", "Labelled, not a headline: setup_ms_rtt50 with Tern's libnice patch unused "
     "on both sides (as setup_ms_stock_libnice): DTLS starts when nomination has selected a pair."),
    ("setup_rtt50_round_trips", "setup_ms_rtt50 in round trips of the lab path: Tern ↔ Tern set-up / 50 ms (the "
     "delayer's 25 ms each way). Peer: Chromium ↔ Chromium in two processes the same way "
     "(setup_ms_rtt50_chromium_two_process / 50 ms). Issue #20 goal: ≤ 3.2."),
    ("setup_ms_rtt50", "Set-up latency at 50 ms RTT across the same lab path (createOffer → channel open on both "
     "sides): set-up-only runs (--bytes 0) with one long-lived child, 3 set-ups after the pair's first left out, "
     "per round of 3, for every stack (the transfers' own set-ups, a fresh pair's first, are not a figure). Between "
     "Tern peers SNAP is negotiated (the default), so no SCTP handshake; aiortc has no SNAP and runs it "
     "(setup_ms_rtt50_without_snap: Tern ↔ Tern without SNAP). DTLS in the ICE checks, also on by default "
     "between Tern peers, is Tern's own wire format and so left to setup_ms_rtt50_tern_extensions."),
    ("dc_throughput_rtt50_Mbps_chromium_pair", "Tern's 50 ms-RTT throughput next to Chromium's in-page pair at 50 ms "
     "RTT: Benchmarks/chromium/pair_bench.py --delay-ms 25 runs the page in a namespace with only lo and sends "
     "every UDP packet leaving lo through the lab's delayer (25 ms each way; lo's MTU, where Tern's row crosses "
     "the lab's router on 1,500-byte veths). Ratio = Tern / Chromium."),
    ("setup_ms_rtt50_chromium_pair", "Set-up latency of those Chromium runs next to Tern's at 50 ms RTT."),
    ("setup_ms_rtt50_chromium_two_process", "Tern's setup_ms_rtt50 next to Chromium ↔ Chromium in two processes "
     "across the same lab path: the two bridges (Benchmarks/chromium/dc_bridge.py) and their browsers in the lab's "
     "left and right namespaces, 25 ms each way through its router, Chromium's defaults (no SNAP), 3 set-ups per "
     "run after one left out. Ratio = Chromium ms / Tern ms."),
    ("dc_throughput_rtt50_Mbps_standard", "Tern ↔ Tern at 50 ms RTT with what both sides ship (the "
     "dc_throughput_rtt50_Mbps runs: 1,200-byte packets, RFC 9260 SACKs, no Tern↔Tern extension) next to "
     "Chromium ↔ Chromium in two processes on the same lab path, 64 MiB each (issue #20 goal: ≥ Chromium's and "
     "≥ 200 Mbit/s). Ratio = Tern / Chromium."),
    ("setup_ms_rtt50_tern_chromium", "Mixed pair at 50 ms RTT: Tern (DCThroughput parent, defaults) offers, Chromium "
     "answers (DCBENCH_CHILD_COMMAND runs dc_bridge.py in the right namespace in place of Tern's child), "
     "createOffer → channel open on both sides; Chromium ignores a=sctp-init, so the SCTP handshake runs. Peer: "
     "Chromium ↔ Chromium in two processes (setup_ms_rtt50_chromium_two_process). Issue #20 goal: ≤ the peer."),
    ("dc_throughput_rtt50_Mbps_tern_chromium", "The same runs: Tern sends 64 MiB to Chromium (1,200-byte packets, "
     "Chromium's SACKs). Peer: Chromium ↔ Chromium in two processes. Ratio = Tern / Chromium."),
    ("setup_ms_rtt50_tern_aiortc", "Mixed pair at 50 ms RTT: Tern offers, aiortc answers (its dc_throughput.py "
     "child in the right namespace), createOffer → channel open on both sides. Peer: aiortc ↔ aiortc "
     "(setup_ms_rtt50's peer). aiortc's answer waits for its gathering (no trickle), as in its own pair."),
    ("dc_throughput_rtt50_Mbps_tern_aiortc", "The same runs: Tern sends 64 MiB to aiortc. Peer: aiortc ↔ aiortc."),
    ("sctp_inprocess_MBps", "64 MiB in 64 KiB messages between two SCTPAssociations over a zero-delay "
     "SimulatedLink, both ends on one thread, no DTLS, no sockets; MB/s of wall-clock time, one sample per process."),
    ("scale_setup_ms_N100", "Benchmarks/PeerScale: 100 data-channel-only PeerConnection pairs on 127.0.0.1 in one "
     "process, connected 10 at a time; per pair createOffer → channel open on both sides (median over the pairs)."),
    ("rss_per_pc_MiB", "RSS per connection, from the largest PeerScale run of this table (N = 500 in a full run, "
     "100 in QUICK): (RSS with the pairs connected − RSS before) / connections (issue #8 goal: ≤ 1 MiB)."),
    ("rss_per_pc_MiB_N100", "(RSS with the 100 pairs connected − RSS before) / 200 connections (issue #8 goal: ≤ 1 MiB)."),
    ("idle_cpu_percent_N100", "CPU time of the whole process over 10 s idle with the 100 pairs connected (ICE consent, "
     "RTT probes, SCTP heartbeats, timers), percent of one core, after a 5 s settle."),
    ("scale_setup_ms_N500", "The same with 500 pairs (1,000 connections)."),
    ("rss_per_pc_MiB_N500", "RSS per connection with 500 pairs."),
    ("idle_cpu_percent_N500", "Idle CPU with 500 pairs."),
    ("signal_invites_per_s", "SignalingServer on 127.0.0.1 with N WebSocket clients (1,000; 200 in QUICK), half "
     "callers, each caller 50 invite → accept round trips against its own callee, all at once."),
    ("signal_invite_p99_ms", "p99 latency of invite → accept in the same runs."),
    ("signal_invites_per_s_pg3", "The same load (1,000 clients; 200 in QUICK) on three SignalingServer nodes sharing "
     "one PostgreSQL 15 (a throwaway cluster from Scripts/postgres-up, its default settings: fsync and "
     "synchronous commit on), all in the benchmark's process; every caller and its callee on two different "
     "nodes, so each invite and accept crosses nodes through the shared log (issue #22 goal: >= 2,000)."),
    ("signal_invite_p99_ms_pg3", "p99 latency of invite → accept on the three nodes, same runs."),
    ("vp8_640x480_encode_fps", "VP8Encoder, 640x480 test pattern, cpu-used 8, real time, 1 thread, 1500 kb/s; "
     "frames per wall-clock second."),
    ("vp8_640x480_decode_fps", "VP8Decoder on those frames."),
    ("opus_encode_realtime_x", "OpusAudioEncoder, 48 kHz mono, 20 ms frames, 32 kb/s, FEC, complexity 9; "
     "seconds of audio per wall-clock second."),
    ("opus_decode_realtime_x", "OpusAudioDecoder on those packets."),
    ("call_cpu_per_second", "Benchmarks/CallCPU: two Tern peers in two processes on loopback, each sending "
     "1280x720 test-pattern video at 30 fps through Tern's VP8 encoder (2.5 Mbit/s, realtime, 1 thread) and a tone "
     "through Opus, and decoding the other's; each process's getrusage CPU time (all threads) over the "
     "measured seconds (30; 10 in QUICK) after an 8 s warm-up (a call starts at 300 kbit/s and at 640x360 until "
     "its estimate has held room for 720p for 5 s; 2 s before 2026-11-28 09:00), per call-second — median over both sides."),
    ("call_cpu_per_second_caller", "The caller's side alone."),
    ("call_cpu_per_second_callee", "The callee's side alone."),
    ("group_setup_ms_4", "Benchmarks/GroupCall: four CallAgents in one process through an in-memory protocol-v1 "
     "switchboard, the shipped PeerConfiguration() (host candidates on 127.0.0.1); from alice's group invite to the "
     "three others until every member's three legs (a full mesh, six peer connections) report connected; the "
     "invitees accept as soon as the invite rings. Tern only: no peer stack measured beside it (issue #21)."),
    ("group_call_cpu_per_member", "The same 4-member call: each member sends a tone (Opus) and a 320x240 test "
     "pattern at 30 fps (VP8) to each of the three others over its own leg (three encodes of each stream) and "
     "decodes what it receives; the process's getrusage CPU time over 20 s (8 in QUICK) after a 5 s warm-up, per "
     "call-second, divided by 4: CPU seconds per member. Tern only."),
    ("cc_1mbit_rtt50_utilization", "Benchmarks/congestion/cc_call.py: a Tern ↔ Tern audio+video call (640x480 test "
     "pattern both ways with camera-like grain, `--video-grain 4`; `tern peer`'s defaults: VP8 up to 1.7 Mbit/s at "
     "640x480 as libwebrtc, Opus 32 kbit/s) for 40 s across the network "
     "lab's router, 1 Mbit/s drop-tail (TBF) each way, 50 ms RTT; audio + video bytes received over the last 20 s / "
     "the link's capacity; each direction of each of 3 calls a sample (issue #25 goal: ≥ 0.80 and ≥ Chromium's). "
     "Peer: two headless Chromium instances in the lab's two namespaces calling each other through `tern signal` "
     "(Interop/chromium/peer.js with statsMs), their fake camera fed the very same pictures (`tern pattern --grain 4`, "
     "--use-file-for-fake-video-capture), Chromium's defaults (VP8 up to 1.7 Mbit/s at 640x480); the same link, the "
     "same reading of the same W3C stats. Without grain VP8 makes only ~800 kbit/s of the pattern whatever it is "
     "allowed, and neither controller is tested above that."),
    ("cc_1mbit_rtt50_queue_delay_p95_ms", "The same calls: p95 of the selected pair's RTT minus the 50 ms base over "
     "the last 20 s (one sample a second; goal ≤ 50 ms and ≤ Chromium's). Ratio = Chromium / Tern."),
    ("cc_freeze_s_per_min_1mbit", "The same calls: W3C totalFreezesDuration of the received video per minute of "
     "call (goal ≤ 0.5 s)."),
    ("cc_300k_startup_freeze_s", "The same call at 300 kbit/s each way for 30 s: seconds of W3C freeze in the "
     "received video in the first 10 s of stats (goal ≤ 1 s, and below Chromium's). Peer: the Chromium pair "
     "as above at 300 kbit/s."),
    ("cc_300k_queue_delay_p95_ms", "The 300 kbit/s calls: p95 queue delay over the last 20 s (goal ≤ 60 ms). "
     "Peer: the Chromium pair."),
    ("cc_step_down_recovery_s", "cc_call.py --scenario steps: the Tern ↔ Tern call (defaults) for 60 s, 2.5 Mbit/s "
     "each way, 0.5 Mbit/s from 20 s (the TBF changed in place), 2.5 Mbit/s again from 40 s, 50 ms RTT: seconds from "
     "the drop until the queue delay (ICE RTT − 50 ms, every second) is under 50 ms and stays there until the step "
     "up (goal ≤ 3 s; a side that never stays under counts as the whole 20 s). Peer: the Chromium pair (as in the 1 Mbit/s row) on the same schedule, timed from the caller "
     "page's clock (cc_call.py --peers chromium --scenario steps). Ratio = Chromium / Tern."),
    ("cc_step_up_ramp_s", "The same calls: seconds from the step up until the media received in one second reaches "
     "80 % of the lower of the new capacity's 80 % (2 Mbit/s) and what the sender sent before the drop "
     "(cc_unconstrained_media_kbps) (goal ≤ 8 s; a side that never reaches it counts as the rest of the call). Peer: the Chromium pair's calls, the same reading of its own "
     "open-link rate."),
    ("cc_unconstrained_media_kbps", "The same calls: media received per second over the 10 s before the drop "
     "(2.5 Mbit/s link): what the call sends when nothing limits it."),
    ("cc_loss5_rate_kbps", "cc_call.py --scenario loss: the Tern ↔ Tern call for 40 s, 5 % random loss each way, no "
     "rate limit, 50 ms RTT: audio + video bytes sent over the last 20 s (goal ≥ 1,000 kbit/s; the defaults' "
     "ceiling at 640x480 is 1,700 kbit/s of video and 32 of audio: read against cc_unconstrained_media_kbps). "
     "Peer: the Chromium pair the same way (--peers chromium --scenario loss); Chromium's bytesSent under loss runs "
     "well over its own outbound-rtp targetBitrate (~1.5 Mbit/s where it sent ~2.5 in one checked run), so its figure "
     "is what it sent, not what its controller settled on."),
    ("cc_video_share_with_bulk_data", "cc_call.py --scenario bulk: the Tern ↔ Tern call (defaults) on 2 Mbit/s each "
     "way, 50 ms RTT, while the caller echoes 400 messages of 8 KiB on its reliable channel: video bytes received / "
     "the link's capacity while the transfer runs (its first and last 3 s left out; goal ≥ 0.5)."),
    ("cc_data_share_with_video", "The same calls: data-channel bytes received / capacity over the same window (the "
     "transfer progressing)."),
    ("cc_bulk_queue_delay_p95_ms", "The same calls: p95 queue delay over the same window."),
    ("cc_tern_to_chromium_1mbit_utilization", "cc_call.py --peers tern-chromium: `tern peer` (defaults, 640x480 "
     "pattern with grain 4) calls a headless Chromium across the lab, 1 Mbit/s each way, 50 ms RTT, 40 s; Tern's audio + video "
     "bytes Chromium received over the last 20 s / capacity, Tern following Chromium's transport-wide feedback "
     "(goal ≥ 0.75)."),
    ("cc_tern_to_chromium_1mbit_queue_delay_p95_ms", "The same calls: p95 of Chromium's selected-pair RTT − 50 ms "
     "over the last 20 s."),
]

# Figures the issue (#12) asks for that nothing here measures yet.
NOT_MEASURED = [
    ("cc_video_share_with_bulk_data (Chromium)",
     "the Chromium pair runs the steady, step and loss calls; the bulk scenario needs a reliable-channel transfer "
     "beside the call that the peer page does not run"),
]

LOWER_IS_BETTER = {"us", "ms", "s", "s/min", "RTT"}

# The lab's base round trip in the 50 ms rows (Scripts/bench: `netlab delay 25`, each way).
LAB_BASE_RTT_MS = 50.0

# Cross rows (a Tern process against another stack) take their peer from that stack's own pair:
# row -> (figure name, peerKey or None) whose peer samples it shows.
PEER_FROM = {
    "setup_ms_rtt50_tern_chromium": ("setup_ms_rtt50", "chromium_two_process"),
    "dc_throughput_rtt50_Mbps_tern_chromium": ("dc_throughput_rtt50_Mbps", "standard"),
    "setup_ms_rtt50_tern_aiortc": ("setup_ms_rtt50", None),
    "dc_throughput_rtt50_Mbps_tern_aiortc": ("dc_throughput_rtt50_Mbps", None),
}


def fmt(value):
    if value is None:
        return "—"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def fmt_ratio(ratio):
    return "—" if ratio is None else f"{ratio:.2f}×"


def merge(lines):
    figures = {}
    # A peer line with a "peerKey" (a second peer of a figure, e.g. Chromium beside aiortc) makes a
    # row of its own, NAME_KEY, with Tern's samples of NAME.
    second = [line for line in lines if line.get("role") == "peer" and line.get("peerKey")]
    lines = [line for line in lines if not (line.get("role") == "peer" and line.get("peerKey"))]
    for row, (source, key) in PEER_FROM.items():
        pool = second if key else lines
        lines += [dict(line, name=row, peerKey=None) for line in pool
                  if line.get("role") == "peer" and line["name"] == source and line.get("peerKey") == key]
    for line in second:
        name = f"{line['name']}_{line['peerKey']}"
        entry = figures.setdefault(name, {"unit": line["unit"], "tern": [], "peer": line["peer"], "peerSamples": []})
        entry["peerSamples"] += line.get("samples") or [line["value"]]
        for own in lines:
            if own["name"] == line["name"] and own.get("role") != "peer" and not entry.get("ternCopied"):
                entry["tern"] += own.get("samples") or [own["value"]]
        entry["ternCopied"] = True
    for line in lines:
        entry = figures.setdefault(line["name"], {"unit": line["unit"], "tern": [], "peer": None, "peerSamples": []})
        samples = line.get("samples") or [line["value"]]
        if line.get("role") == "peer":
            entry["peer"] = line["peer"]
            entry["peerSamples"] += samples
        else:
            entry["unit"] = line["unit"]
            entry["tern"] += samples
            if line.get("peer"):
                entry["peer"] = line["peer"]
                entry["peerSamples"] += line.get("peerSamples", [])
    rows = []
    for name, entry in figures.items():
        if not entry["tern"]:
            continue
        tern = statistics.median(entry["tern"])
        peer_value = statistics.median(entry["peerSamples"]) if entry["peerSamples"] else None
        ratio = None
        if peer_value and tern:
            ratio = peer_value / tern if entry["unit"] in LOWER_IS_BETTER else tern / peer_value
        rows.append({
            "name": name, "unit": entry["unit"], "tern": tern,
            "peer": entry["peer"] if peer_value is not None else None,
            "peerValue": peer_value, "ratio": ratio, "runs": len(entry["tern"]),
            "spread": [min(entry["tern"]), max(entry["tern"])],
            "peerRuns": len(entry["peerSamples"]),
            "peerSpread": [min(entry["peerSamples"]), max(entry["peerSamples"])] if entry["peerSamples"] else None,
        })
    order = {name: index for index, (name, _) in enumerate(ROWS)}
    rows.sort(key=lambda row: order.get(row["name"], len(order)))
    return rows


HEADER = "| figure | unit | Tern | peer | peer value | ratio | runs | spread | peer runs | peer spread |"


def machine(load_at_start):
    load = os.getloadavg()
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=30).stdout
        swift = swift.splitlines()[0] if swift else "unknown"
    except (OSError, subprocess.SubprocessError):
        swift = "unknown"
    start = f"{' / '.join(load_at_start.split())} when the run began, " if load_at_start else ""
    return (f"{os.cpu_count()} CPUs, {platform.platform()}, load average (1/5/15 min) {start}"
            f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} when the table was written; {swift}")


def main():
    results_path, notes_path, mode, docs = sys.argv[1:5]
    load_at_start = sys.argv[5] if len(sys.argv) > 5 else ""
    with open(results_path, encoding="utf-8") as f:
        lines = [json.loads(text) for text in f if text.startswith("{")]
    left_out = []
    with open(notes_path, encoding="utf-8") as f:
        for text in f:
            if "\t" in text:
                name, reason = text.rstrip("\n").split("\t", 1)
                left_out.append((name, reason))
    rows = merge(lines)
    # rss_per_pc_MiB (the name issue #12 asks for) is the largest PeerScale run's figure.
    by_name = {row["name"]: row for row in rows}
    for source in ("rss_per_pc_MiB_N500", "rss_per_pc_MiB_N100"):
        if "rss_per_pc_MiB" not in by_name and source in by_name:
            rows.append(dict(by_name[source], name="rss_per_pc_MiB"))
            break
    # setup_rtt50_round_trips: the 50 ms set-up in round trips of the lab path, next to Chromium's.
    if "setup_ms_rtt50" in by_name:
        own = by_name["setup_ms_rtt50"]
        chromium = by_name.get("setup_ms_rtt50_chromium_two_process") or {}
        peer_value = chromium.get("peerValue")
        in_rtt = (lambda v: None if v is None else v / LAB_BASE_RTT_MS)
        rows.append({
            "name": "setup_rtt50_round_trips", "unit": "RTT", "tern": in_rtt(own["tern"]),
            "peer": chromium.get("peer") if peer_value is not None else None,
            "peerValue": in_rtt(peer_value), "ratio": (peer_value / own["tern"]) if peer_value and own["tern"] else None,
            "runs": own["runs"], "spread": [in_rtt(v) for v in own["spread"]],
            "peerRuns": chromium.get("peerRuns", 0),
            "peerSpread": [in_rtt(v) for v in chromium["peerSpread"]] if chromium.get("peerSpread") else None,
        })
    order = {name: index for index, (name, _) in enumerate(ROWS)}
    rows.sort(key=lambda row: order.get(row["name"], len(order)))
    produced = {row["name"] for row in rows}
    descriptions = dict(ROWS)

    with open(os.path.join(docs, "benchmarks.json"), "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=2)
        f.write("\n")

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Benchmarks", "",
           f"Written by `make bench{' QUICK=1' if mode == 'quick' else ''}` (Scripts/bench) on {now}: "
           f"{'QUICK subset, fewer runs' if mode == 'quick' else 'full run'}. Release builds; every figure is the "
           "median over its runs, with the smallest and largest run as the spread (Tern's, and the peer's in the last two columns). Figures are measured, printed "
           "and kept here; no test asserts any of them. The machine is shared, so compare figures from one run "
           "(ratios are measured within one run), not across runs.", "",
           f"Machine: {machine(load_at_start)}.", "",
           "Ratio > 1 means Tern is faster than the peer (peer time / Tern time, or Tern rate / peer rate).", "",
           HEADER,
           "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        peer_spread = (f"{fmt(row['peerSpread'][0])} – {fmt(row['peerSpread'][1])}"
                       if row.get("peerSpread") else "—")
        out.append(f"| `{row['name']}` | {row['unit']} | {fmt(row['tern'])} | {row['peer'] or '—'} | "
                   f"{fmt(row['peerValue'])} | {fmt_ratio(row['ratio'])} | {row['runs']} | "
                   f"{fmt(row['spread'][0])} – {fmt(row['spread'][1])} | "
                   f"{row.get('peerRuns') or '—'} | {peer_spread} |")
    out += ["", "## What each figure measures", ""]
    for name, text in ROWS:
        if name in produced:
            out.append(f"- `{name}`: {text}")
    missing = [(name, reason) for name, reason in left_out if name not in produced]
    missing += [(name, "not produced (no output line)") for name, _ in ROWS
                if name not in produced and name not in {n for n, _ in left_out}]
    partial = [(name, reason) for name, reason in left_out if name in produced]
    if partial:
        out += ["", "## Runs that failed", "",
                "These rows were produced from the runs that did finish; the others failed:", ""]
        out += [f"- `{name}`: {reason}." for name, reason in partial]
    if missing:
        out += ["", "## Left out of this run", ""]
        out += [f"- `{name}`: {reason}. {descriptions.get(name, '')}".rstrip() for name, reason in missing]
    out += ["", "## Not measured yet", "",
            "Figures issue #12 asks for that no benchmark produces yet; no number is given for them.", ""]
    out += [f"- `{name}`: not measured yet — {reason}." for name, reason in NOT_MEASURED]
    out += ["", "Reproduce: `make bench` (about 2 minutes once built; the first release build takes longer) or "
            "`make bench QUICK=1` (under a minute once built). Raw JSON: `Docs/benchmarks.json`.", ""]
    with open(os.path.join(docs, "BENCHMARKS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print("\n".join(out[out.index(HEADER):
                        out.index("## What each figure measures")]))


if __name__ == "__main__":
    main()
