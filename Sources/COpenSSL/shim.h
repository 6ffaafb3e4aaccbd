// OpenSSL 3.0, as TernDTLS sees it. The `tern_` functions wrap macros over
// SSL_ctrl / BIO_ctrl / variadic key generation that Swift cannot import.
#ifndef TERN_COPENSSL_SHIM_H
#define TERN_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

static inline long tern_DTLSv1_get_timeout(SSL *ssl, struct timeval *tv) {
    return DTLSv1_get_timeout(ssl, tv);
}
static inline long tern_DTLSv1_handle_timeout(SSL *ssl) {
    return DTLSv1_handle_timeout(ssl);
}
static inline long tern_DTLS_set_link_mtu(SSL *ssl, long mtu) {
    return DTLS_set_link_mtu(ssl, mtu);
}
static inline long tern_SSL_set_mtu(SSL *ssl, long mtu) {
    return SSL_set_mtu(ssl, mtu);
}
static inline long tern_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long tern_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_max_proto_version(ctx, version);
}
static inline long tern_SSL_CTX_set1_groups_list(SSL_CTX *ctx, const char *list) {
    return SSL_CTX_set1_groups_list(ctx, list);
}
static inline long tern_BIO_set_mem_eof_return(BIO *bio, long value) {
    return BIO_set_mem_eof_return(bio, value);
}
static inline size_t tern_BIO_pending(BIO *bio) {
    return BIO_pending(bio);
}
static inline EVP_PKEY *tern_EVP_EC_gen_p256(void) {
    return EVP_EC_gen("P-256");
}
static inline EVP_PKEY *tern_EVP_RSA_gen(unsigned int bits) {
    return EVP_RSA_gen(bits);
}
static inline uint64_t tern_SSL_OP_NO_QUERY_MTU(void) { return SSL_OP_NO_QUERY_MTU; }
static inline uint64_t tern_SSL_OP_NO_TICKET(void) { return SSL_OP_NO_TICKET; }
static inline uint64_t tern_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline long tern_SSL_CTX_disable_session_cache(SSL_CTX *ctx) {
    return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
}
static inline int tern_DTLS1_2_VERSION(void) { return DTLS1_2_VERSION; }
static inline int tern_SSL_VERIFY_PEER(void) { return SSL_VERIFY_PEER; }
static inline int tern_SSL_VERIFY_FAIL_IF_NO_PEER_CERT(void) { return SSL_VERIFY_FAIL_IF_NO_PEER_CERT; }
static inline int tern_SSL_MODE_AUTO_RETRY(void) { return SSL_MODE_AUTO_RETRY; }

static inline long tern_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}
static inline void tern_BIO_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }
static inline void tern_BIO_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }
static inline int tern_SSL_get_ex_new_index(void) {
    return SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}
/// OpenSSL 3.0.x passes the address of its own `d1->next_timeout` with this BIO control
/// (see TernDTLS/DTLSTimer.swift for why that matters).
static inline int tern_BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT(void) { return BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT; }

/// Host name check flag for `SSL_set_hostflags` (x509v3.h is not in the module's headers).
/// Used by TernICE's `turns:` bridge.
#include <openssl/x509v3.h>
static inline unsigned int tern_X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS(void) {
    return X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS;
}

#endif
