#include "escape.h"

#include <stdbool.h>
#include <string.h>

void escape_xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void escape_desktop_string(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* The Desktop Entry Specification's reserved characters: an argument holding one of them must
 * be quoted. */
static bool needs_quotes(const char *s)
{
	return s[0] == '\0' || strpbrk(s, " \t\n\"'\\><~|&;$*?#()`") != NULL;
}

void escape_desktop_exec(FILE *f, char *const argv[])
{
	for (size_t i = 0; argv[i]; i++) {
		if (i > 0) {
			fputc(' ', f);
		}
		bool quote = needs_quotes(argv[i]);
		if (quote) {
			fputc('"', f);
		}
		for (const char *p = argv[i]; *p; p++) {
			/* Inside quotes, " ` $ and \ take a backslash; the string-value level then
			 * doubles every backslash once more. */
			if (quote && strchr("\"`$\\", *p)) {
				fputs("\\\\", f);
			}
			if (*p == '%') {
				fputs("%%", f);
			} else if (*p == '\\') {
				fputs("\\\\", f);
			} else if (*p == '\n') {
				fputs("\\n", f);
			} else if (*p == '\t') {
				fputs("\\t", f);
			} else {
				fputc(*p, f);
			}
		}
		if (quote) {
			fputc('"', f);
		}
	}
}
