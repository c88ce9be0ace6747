#include "strescape.h"

const struct escape_table escape_json = {
	.as =
		{
			['"'] = "\\\"",
			['\\'] = "\\\\",
			['\n'] = "\\n",
			['\t'] = "\\t",
			['\r'] = "\\r",
		},
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

void escape_json_string(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	escape_write(f, s, len, &escape_json);
	fputc('"', f);
}
