// See tern_crc32c.h. The x86-64 path is compiled for SSE 4.2 in this function only and taken
// only after __builtin_cpu_supports says the CPU has it, so the binary still runs anywhere.
#include "tern_crc32c.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int tern_crc32c_hardware_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}

__attribute__((target("sse4.2")))
uint32_t tern_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    uint64_t crc = state;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);  // unaligned load
        crc = _mm_crc32_u64(crc, word);
        p += 8;
        count -= 8;
    }
    uint32_t crc32 = (uint32_t)crc;
    while (count > 0) {
        crc32 = _mm_crc32_u8(crc32, *p++);
        count--;
    }
    return crc32;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

int tern_crc32c_hardware_available(void) { return 1; }

uint32_t tern_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        state = __crc32cd(state, word);
        p += 8;
        count -= 8;
    }
    while (count > 0) {
        state = __crc32cb(state, *p++);
        count--;
    }
    return state;
}

#else

int tern_crc32c_hardware_available(void) { return 0; }

uint32_t tern_crc32c_hardware_update(uint32_t state, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return state;
}

#endif
