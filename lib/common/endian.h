/*
 * endian.h - little-endian loads and stores at any alignment: the blob
 * format is little-endian everywhere, whatever the host. Not installed.
 */
#ifndef BLOBC_ENDIAN_H
#define BLOBC_ENDIAN_H

#include <stdint.h>

static inline uint16_t blobc_ld16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(b[0] | (b[1] << 8));
}
static inline uint32_t blobc_ld32(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static inline uint64_t blobc_ld64(const void *p) {
    return (uint64_t)blobc_ld32(p) | ((uint64_t)blobc_ld32((const uint8_t *)p + 4) << 32);
}
static inline void blobc_st16(void *p, uint16_t v) {
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}
static inline void blobc_st32(void *p, uint32_t v) {
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}
static inline void blobc_st64(void *p, uint64_t v) {
    blobc_st32(p, (uint32_t)v);
    blobc_st32((uint8_t *)p + 4, (uint32_t)(v >> 32));
}

#endif
