/* Base64 (RFC 4648, with padding): the pictures' data: URLs and the MCP server's image items. */
#pragma once

#include <stddef.h>
#include <stdio.h>

/* The encoded length of len bytes, without a NUL. */
size_t base64_len(size_t len);
/* Encodes data into out, which holds base64_len(len) + 1 bytes (a NUL ends it). */
void base64_encode(const unsigned char *data, size_t len, char *out);
/* Prints "data:MIME;base64,..." and a newline to f. */
void base64_print_data_url(FILE *f, const char *mime, const unsigned char *data, size_t len);
