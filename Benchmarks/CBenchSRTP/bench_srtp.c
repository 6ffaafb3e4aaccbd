// Bare libsrtp2 protect + unprotect loop (see include/CBenchSRTP.h).
#include "CBenchSRTP.h"
#include <stdlib.h>
#include <string.h>
#include <srtp2/srtp.h>

struct tern_bench_srtp {
    srtp_t outbound;
    srtp_t inbound;
    uint32_t sequence_base;
};

static srtp_t make_session(int profile, const uint8_t *key_and_salt, size_t length, srtp_ssrc_type_t type) {
    srtp_policy_t policy;
    memset(&policy, 0, sizeof policy);
    switch (profile) {
    case TERN_BENCH_AES128_CM_SHA1_80:
        srtp_crypto_policy_set_rtp_default(&policy.rtp);
        srtp_crypto_policy_set_rtcp_default(&policy.rtcp);
        break;
    case TERN_BENCH_AEAD_AES_128_GCM:
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp);
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp);
        break;
    default:
        return NULL;
    }
    policy.ssrc.type = type;
    policy.window_size = 1024;  // SRTPSession's default replay window
    policy.allow_repeat_tx = type == ssrc_any_outbound;
    if (length != (size_t)policy.rtp.cipher_key_len || length > SRTP_MAX_KEY_LEN) return NULL;
    uint8_t key[SRTP_MAX_KEY_LEN];
    memcpy(key, key_and_salt, (size_t)policy.rtp.cipher_key_len);
    policy.key = key;
    srtp_t session = NULL;
    if (srtp_create(&session, &policy) != srtp_err_status_ok) return NULL;
    return session;
}

tern_bench_srtp *tern_bench_srtp_create(int profile, const uint8_t *key_and_salt, size_t length) {
    // A second srtp_init() (SRTPSession has already run one) fails only because its debug
    // module is already registered; srtp_create below reports a library that is not ready.
    (void)srtp_init();
    tern_bench_srtp *pair = calloc(1, sizeof *pair);
    if (pair == NULL) return NULL;
    pair->outbound = make_session(profile, key_and_salt, length, ssrc_any_outbound);
    pair->inbound = make_session(profile, key_and_salt, length, ssrc_any_inbound);
    if (pair->outbound == NULL || pair->inbound == NULL) {
        tern_bench_srtp_destroy(pair);
        return NULL;
    }
    return pair;
}

long tern_bench_srtp_round_trips(tern_bench_srtp *pair, const uint8_t *packet, size_t length, long iterations) {
    if (length < 12 || length + SRTP_MAX_TRAILER_LEN > 1600) return 0;
    uint8_t buffer[1600];
    long ok = 0;
    for (long i = 0; i < iterations; i++) {
        memcpy(buffer, packet, length);
        uint32_t sequence = pair->sequence_base + (uint32_t)i;
        buffer[2] = (uint8_t)(sequence >> 8);
        buffer[3] = (uint8_t)sequence;
        int size = (int)length;
        if (srtp_protect(pair->outbound, buffer, &size) != srtp_err_status_ok) continue;
        if (srtp_unprotect(pair->inbound, buffer, &size) != srtp_err_status_ok) continue;
        ok += size == (int)length;
    }
    pair->sequence_base += (uint32_t)iterations;
    return ok;
}

void tern_bench_srtp_destroy(tern_bench_srtp *pair) {
    if (pair == NULL) return;
    if (pair->outbound != NULL) srtp_dealloc(pair->outbound);
    if (pair->inbound != NULL) srtp_dealloc(pair->inbound);
    free(pair);
}
