// libsrtp2 as TernDTLS sees it.
#ifndef TERN_CSRTP_SHIM_H
#define TERN_CSRTP_SHIM_H
#include <srtp2/srtp.h>
#include <dlfcn.h>
#include <stddef.h>

static inline int tern_SRTP_MAX_TRAILER_LEN(void) { return SRTP_MAX_TRAILER_LEN; }

/// Keeps libsrtp2's crypto backend initialised for the life of the process.
///
/// Debian builds libsrtp2 on NSS: every cipher it allocates calls `NSS_InitContext` and every
/// cipher it frees calls `NSS_ShutdownContext`. When the last context closes NSS shuts down
/// entirely, so the next `srtp_create` loads libsoftokn3 again (~1.2 ms a session, and
/// `srtp_init`'s self-tests do it once per cipher: ~27 ms). One context held here turns all
/// later ones into reference counts (`srtp_create` ≈ 0.03 ms). Looked up at run time so a
/// libsrtp2 built on OpenSSL (no NSS symbol in the process) simply skips it.
/// Returns 1 when a context is held, 0 when the backend is not NSS.
static inline int tern_srtp_hold_crypto_backend(void) {
    typedef void *(*tern_nss_init_context)(const char *, const char *, const char *, const char *,
                                           void *, unsigned int);
    tern_nss_init_context init = (tern_nss_init_context)dlsym(RTLD_DEFAULT, "NSS_InitContext");
    if (init == NULL) return 0;
    // libsrtp's own flags: NSS_INIT_READONLY | NSS_INIT_NOCERTDB | NSS_INIT_NOMODDB |
    // NSS_INIT_FORCEOPEN | NSS_INIT_OPTIMIZESPACE (nss.h), so no database is opened.
    void *context = init("", "", "", "", NULL, 0x01 | 0x02 | 0x04 | 0x08 | 0x20);
    return context != NULL;  // never shut down: it lives as long as the process
}
#endif
