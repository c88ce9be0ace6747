#include "escape.h"

#include <stdbool.h>
#include <string.h>

#include "strescape.h"

void escape_xml_text(FILE *f, const char *s)
{
	escape_write(f, s, strlen(s), &escape_xml);
}

void escape_desktop_string(FILE *f, const char *s)
{
	escape_write(f, s, strlen(s), &escape_desktop);
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
