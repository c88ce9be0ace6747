#include "seedkeys.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memout.h"
#include "util.h"

#define DEFAULT_OPEN "    <property name=\"default\" type=\"empty\">"
#define BLOCK_CLOSE "    </property>"
#define CHANNEL_CLOSE "</channel>"

/* xfwm4 and xfsettingsd register under these names; a provider that is listed does not register
 * again (which would rewrite the list). */
static const char providers[] = "  <property name=\"providers\" type=\"array\">\n"
				"    <value type=\"string\" value=\"xfwm4\"/>\n"
				"    <value type=\"string\" value=\"commands\"/>\n"
				"  </property>\n";

static bool line_is(const char *line, size_t len, const char *want)
{
	return len == strlen(want) && memcmp(line, want, len) == 0;
}

/* Writes a "default" block (its lines from the opening one to the closing one) and its copy as
 * the "custom" block, marked override: what a provider's reset to its defaults leaves. */
static void write_block(FILE *f, const char *start, const char *end)
{
	fwrite(start, 1, (size_t)(end - start), f);
	fputs("    <property name=\"custom\" type=\"empty\">\n"
	      "      <property name=\"override\" type=\"bool\" value=\"true\"/>\n",
	      f);
	const char *inner = (const char *)memchr(start, '\n', (size_t)(end - start)) + 1;
	fwrite(inner, 1, (size_t)(end - inner), f);
}

struct system_file {
	const char *text;
	size_t len;
};

/* The system file rewritten to f: each "default" block followed by its copy, the providers before
 * the channel's end. -EPROTO when it is not laid out so. */
static int rewrite(FILE *f, void *ctx)
{
	const struct system_file *sys = ctx;
	const char *block = NULL; /* the opening line of the "default" block being read */
	unsigned blocks = 0;
	bool closed = false;
	const char *p = sys->text, *end = sys->text + sys->len;
	while (p < end && !closed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		size_t n = (size_t)((nl ? nl : end) - p);
		if (block) {
			if (line_is(p, n, BLOCK_CLOSE)) {
				write_block(f, block, next);
				block = NULL;
				blocks++;
			}
		} else if (line_is(p, n, DEFAULT_OPEN)) {
			block = p;
		} else if (line_is(p, n, CHANNEL_CLOSE)) {
			fputs(providers, f);
			fputs(CHANNEL_CLOSE "\n", f);
			closed = true;
		} else {
			fwrite(p, 1, (size_t)(next - p), f);
		}
		p = next;
	}
	return block || blocks == 0 || !closed ? -EPROTO : 0;
}

int seedkeys_from_system(const char *text, size_t len, char **ret, size_t *ret_len)
{
	if (memmem(text, len, "name=\"custom\"", 13) ||
	    memmem(text, len, "name=\"providers\"", 16)) {
		return -EPROTO;
	}
	struct system_file sys = {text, len};
	size_t out_len;
	char *out = memout_len(rewrite, &sys, &out_len);
	if (!out) {
		return negative_errno();
	}
	*ret = out;
	*ret_len = out_len;
	return 0;
}
