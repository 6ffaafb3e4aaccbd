"""aiortc's DTLS handshake, the peer figure of `dtls_handshake_ms` (Benchmarks/DTLSBench).

    dtls_handshake.py [--quick]

Measured as DTLSBench measures Tern's: two endpoints in one process, ECDSA P-256 certificates
(aiortc's RTCCertificate.generateCertificate), each handshake building both endpoints' SSL
context and connection the way aiortc's RTCDtlsTransport.start does (RTCCertificate.
_create_ssl_context with aiortc's SRTP profiles, pyOpenSSL Connection on memory BIOs), the
datagrams handed across directly (aiortc's own transport reads them with bio_read(1500)), then
what aiortc does once connected: the peer certificate's SHA-256 fingerprint checked and the
SRTP keying material exported. Median of 100 after 10 warm-up handshakes; one JSON line in the
BenchSupport.Figure format with "role": "peer". Nothing is asserted.
"""
import json
import statistics
import sys
import time
from importlib.metadata import version

from cryptography.hazmat.primitives import hashes
from OpenSSL import SSL

from aiortc.rtcdtlstransport import SRTP_PROFILES, RTCCertificate


def endpoint(certificate, server):
    connection = SSL.Connection(certificate._create_ssl_context(srtp_profiles=SRTP_PROFILES))
    if server:
        connection.set_accept_state()
    else:
        connection.set_connect_state()
    return connection


def step(connection):
    """Drives the handshake as far as it goes; True once it is complete."""
    try:
        connection.do_handshake()
        return True
    except SSL.WantReadError:
        return False


def pending(connection):
    """The datagrams the endpoint wrote, as aiortc's RTCDtlsTransport._write_ssl reads them."""
    out = []
    while True:
        try:
            data = connection.bio_read(1500)
        except SSL.WantReadError:
            return out
        if not data:
            return out
        out.append(data)


def check(connection, expected):
    fingerprint = connection.get_peer_certificate(as_cryptography=True).fingerprint(hashes.SHA256())
    if fingerprint != expected:
        sys.exit("dtls_handshake.py: fingerprint mismatch")
    profile = SRTP_PROFILES[0]
    connection.export_keying_material(b"EXTRACTOR-dtls_srtp", 2 * (profile.key_length + profile.salt_length))


def handshake(client_certificate, server_certificate, client_fp, server_fp):
    start = time.perf_counter()
    client, server = endpoint(client_certificate, False), endpoint(server_certificate, True)
    client_done = step(client)
    server_done = False
    while not (client_done and server_done):
        moved = False
        for data in pending(client):
            server.bio_write(data)
            moved = True
        server_done = step(server) or server_done
        for data in pending(server):
            client.bio_write(data)
            moved = True
        client_done = step(client) or client_done
        if not moved and not (client_done and server_done):
            sys.exit("dtls_handshake.py: handshake stalled")
    check(client, server_fp)
    check(server, client_fp)
    return (time.perf_counter() - start) * 1000


def main():
    quick = "--quick" in sys.argv[1:]
    client_certificate = RTCCertificate.generateCertificate()
    server_certificate = RTCCertificate.generateCertificate()
    client_fp = client_certificate._cert.fingerprint(hashes.SHA256())
    server_fp = server_certificate._cert.fingerprint(hashes.SHA256())
    for _ in range(10):
        handshake(client_certificate, server_certificate, client_fp, server_fp)
    samples = [handshake(client_certificate, server_certificate, client_fp, server_fp)
               for _ in range(30 if quick else 100)]
    print(json.dumps({
        "name": "dtls_handshake_ms", "role": "peer", "peer": f"aiortc {version('aiortc')}", "unit": "ms",
        "value": statistics.median(samples), "runs": len(samples), "min": min(samples), "max": max(samples),
        "samples": samples,
    }))


if __name__ == "__main__":
    main()
