"""Shared by the interop scripts: runs the `tern sdp` command to make Tern offers and answers."""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..")
INTEROP = os.path.join(FIXTURES, "interop")

# A fixed test fingerprint (a byte pattern, not tied to any certificate) so Swift tests can rebuild the same offers.
FINGERPRINT = "sha-256 " + ":".join(f"{(i * 7) & 0xFF:02X}" for i in range(32))

# scenario name -> (seed, flags); TernSDPTests/InteropFixtureTests.swift mirrors this table.
SCENARIOS = {
    "audio": (101, ["--audio"]),
    "video": (102, ["--video"]),
    "data": (103, ["--data"]),
    "audio-video-data": (104, ["--audio", "--video", "--data"]),
}


def tern(binary, *args, stdin=None):
    # Bytes, not text mode: text mode would turn the CRLF line endings into LF.
    result = subprocess.run([binary, "sdp", *args] if os.path.basename(binary) == "tern" else [binary, *args],
                            input=stdin.encode("utf-8") if stdin is not None else None, capture_output=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"tern {' '.join(args)} failed: {result.stdout!r}{result.stderr!r}")
    return result.stdout.decode("utf-8")


def tern_offer(binary, scenario):
    seed, flags = SCENARIOS[scenario]
    return tern(binary, "offer", *flags, "--seed", str(seed), "--fingerprint", FINGERPRINT)


def tern_answer(binary, offer):
    return tern(binary, "answer", "-", "--fingerprint", FINGERPRINT, stdin=offer)


def save(path, text):
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))
