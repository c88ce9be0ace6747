/* The page's proofs (docs/web.md, "The page knows its server"): its nonces, and what only this
 * server can say about them, under the key the page got from it. */
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>

#include "webstate.h"

void web_hex(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

bool web_is_token(const char *t)
{
	size_t n = 0;
	for (; t[n]; n++) {
		if (!((t[n] >= '0' && t[n] <= '9') || (t[n] >= 'a' && t[n] <= 'f'))) {
			return false;
		}
	}
	return n == WEB_TOKEN_HEX;
}

/* What only this server can say about the page's nonce: HMAC-SHA256 under the page's key of
 * "botdesk-web WHAT NONCE", in hex (PROOF_HEX + 1 bytes). WHAT keeps a proof for one use from
 * passing for another. */
int web_proof(const struct web_server *s, const char *what, const char *nonce, char *out)
{
	char msg[128];
	int n = snprintf(msg, sizeof(msg), "botdesk-web %s %s", what, nonce);
	if (n < 0 || (size_t)n >= sizeof(msg)) {
		return -ENOSPC;
	}
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	if (!HMAC(EVP_sha256(), s->key, sizeof(s->key), (const unsigned char *)msg, (size_t)n, md,
		  &mdlen) ||
	    mdlen * 2 != PROOF_HEX) {
		return -EIO;
	}
	web_hex(md, mdlen, out);
	return 0;
}
