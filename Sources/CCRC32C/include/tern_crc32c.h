// CRC32c with the CPU's crc32 instruction, for TernSCTP's checksum (RFC 9260 §6.8).
#ifndef TERN_CRC32C_H
#define TERN_CRC32C_H
#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU has a CRC32c instruction this build can use (x86-64 SSE 4.2, checked at
/// run time; AArch64 when compiled with the CRC extension), else 0.
int tern_crc32c_hardware_available(void);

/// Feeds `count` bytes into a running CRC32c state (no initial or final inversion: the same
/// convention as TernSCTP's table-driven update). Call only when the above returned 1.
uint32_t tern_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count);

#endif
