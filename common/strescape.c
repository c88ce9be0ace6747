#include "strescape.h"

#include <errno.h>
#include <string.h>

/* What JSON's string contents escape by name; the rest of the controls as \u00XX. */
#define JSON_NAMED_ESCAPES \
	['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t", ['\r'] = "\\r"

const struct escape_table escape_json = {
	.as = {JSON_NAMED_ESCAPES},
	.control_as_unicode = true,
};

const struct escape_table escape_json_html = {
	.as = {JSON_NAMED_ESCAPES, ['<'] = "\\u003c", ['>'] = "\\u003e"},
	.control_as_unicode = true,
};

const struct escape_table escape_xml = {
	.as =
		{
			['&'] = "&amp;",
			['<'] = "&lt;",
			['>'] = "&gt;",
			['"'] = "&quot;",
			['\''] = "&apos;",
		},
};

const struct escape_table escape_desktop = {
	.as =
		{
			['\\'] = "\\\\",
			['\n'] = "\\n",
			['\t'] = "\\t",
			['\r'] = "\\r",
		},
};

void escape_write(FILE *f, const char *s, size_t len, const struct escape_table *t)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 128 && t->as[c]) {
			fputs(t->as[c], f);
		} else if (t->control_as_unicode && (c < 0x20 || c == 0x7f)) {
			fprintf(f, "\\u%04x", c);
		} else {
			fputc(c, f);
		}
	}
}

int escape_to_buf(char *out, size_t size, const char *s, size_t len, const struct escape_table *t)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		const char *piece = tmp;
		if (c < 128 && t->as[c]) {
			piece = t->as[c];
		} else if (t->control_as_unicode && (c < 0x20 || c == 0x7f)) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", c);
		} else {
			tmp[0] = (char)c;
			tmp[1] = '\0';
		}
		size_t n = strlen(piece);
		if (o + n >= size) {
			if (size) {
				out[0] = '\0';
			}
			return -ENOSPC;
		}
		memcpy(out + o, piece, n);
		o += n;
	}
	if (o >= size) {
		return -ENOSPC;
	}
	out[o] = '\0';
	return 0;
}

void escape_json_string(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	escape_write(f, s, len, &escape_json);
	fputc('"', f);
}
