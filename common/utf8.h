/* Strict UTF-8: what `botdesk type` accepts as text (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Decodes the code point at s[*pos] (len bytes in all) and advances *pos past it. -EILSEQ for
 * anything that is not one well-formed UTF-8 sequence; *pos is then left at the bad byte. */
int utf8_next(const char *s, size_t len, size_t *pos, uint32_t *ret);

/* Validates all of s: 0 and the number of code points, or -EILSEQ and the offset of the first
 * bad byte. */
int utf8_validate(const char *s, size_t len, size_t *ret_count, size_t *ret_bad);
