/* The one strict parser for numbers that arrive as text: pid files, /proc fields, settings,
 * environment variables. No sign, no white space, no trailing bytes, no silent overflow. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Decimal digits only, value <= max. -EINVAL on anything that is not a number, -ERANGE above max
 * (including values that overflow 64 bits). */
int parse_u64(const char *s, uint64_t max, uint64_t *ret);
/* The same over exactly len bytes of s (which need not be NUL-terminated). */
int parse_u64_n(const char *s, size_t len, uint64_t max, uint64_t *ret);
/* Hexadecimal digits only (either case, no "0x"), value <= max; the same errors. */
int parse_hex_u64(const char *s, uint64_t max, uint64_t *ret);
/* An unsigned value in [min, max]. */
int parse_uint_range(const char *s, unsigned min, unsigned max, unsigned *ret);
/* Seconds as "N" or "N.F" with up to three decimals; the result is in milliseconds, <= max_ms. */
int parse_seconds_ms(const char *s, uint64_t max_ms, uint64_t *ret_ms);
/* "WxH", each side in [min, max]. */
int parse_geometry(const char *s, unsigned min, unsigned max, unsigned *ret_w, unsigned *ret_h);
/* "A-B" with A <= B, both <= max. */
int parse_range(const char *s, unsigned max, unsigned *ret_lo, unsigned *ret_hi);
