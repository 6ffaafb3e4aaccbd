// libsrtp2 as TernDTLS sees it.
#ifndef TERN_CSRTP_SHIM_H
#define TERN_CSRTP_SHIM_H
#include <srtp2/srtp.h>
static inline int tern_SRTP_MAX_TRAILER_LEN(void) { return SRTP_MAX_TRAILER_LEN; }
#endif
