// Bare libsrtp2 loop for DTLSBench: the same work as SRTPSession protect + unprotect,
// without Swift, locks or per-call allocation, so the ratio shows the wrapper's cost.
#ifndef TERN_CBENCHSRTP_H
#define TERN_CBENCHSRTP_H
#include <stddef.h>
#include <stdint.h>

/// Profiles, numbered as in RFC 5764 §4.1.2 / RFC 7714 §14.2 (SRTPProtectionProfile raw values).
enum { TERN_BENCH_AES128_CM_SHA1_80 = 1, TERN_BENCH_AEAD_AES_128_GCM = 7 };

/// An outbound and an inbound libsrtp2 session sharing one master key + salt.
typedef struct tern_bench_srtp tern_bench_srtp;

/// Creates the pair, or returns NULL (bad profile or a libsrtp error).
tern_bench_srtp *tern_bench_srtp_create(int profile, const uint8_t *key_and_salt, size_t length);

/// Runs `iterations` times: copy `packet` (RTP, `length` bytes) into a buffer with the sequence
/// number set to the iteration, srtp_protect, srtp_unprotect. Returns how many round trips
/// succeeded (== iterations when all is well).
long tern_bench_srtp_round_trips(tern_bench_srtp *pair, const uint8_t *packet, size_t length, long iterations);

/// Frees both sessions.
void tern_bench_srtp_destroy(tern_bench_srtp *pair);

#endif
