"""aiortc's SDP parse + write round trip, the peer figure of `sdp_roundtrip_us`.

    sdp_roundtrip.py OFFER.sdp [--quick]

Times aiortc.sdp.SessionDescription.parse(text) followed by str(desc), in µs per round trip,
over repeated runs after one warm-up run, and prints one JSON line (the format of the Swift
benchmarks' BenchSupport.Figure) with the aiortc version in "peer".
"""
import json
import statistics
import sys
import time
from importlib.metadata import version

from aiortc.sdp import SessionDescription


def main() -> None:
    path = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    iterations, runs = (100, 7) if quick else (300, 15)
    written = 0
    samples = []
    for run in range(runs + 1):
        start = time.perf_counter()
        for _ in range(iterations):
            written += len(str(SessionDescription.parse(text)))
        elapsed = time.perf_counter() - start
        if run > 0:  # run 0 warms up
            samples.append(elapsed / iterations * 1e6)
    if written == 0:
        sys.exit("sdp_roundtrip.py: nothing written")
    print(json.dumps({
        "name": "sdp_roundtrip_us", "role": "peer", "peer": f"aiortc {version('aiortc')}",
        "unit": "us", "value": statistics.median(samples), "runs": len(samples),
        "min": min(samples), "max": max(samples), "samples": samples,
    }))


if __name__ == "__main__":
    main()
