#include "helptext.h"

#include <string.h>

int help_synopsis(FILE *f, const char *name, const char *synopsis)
{
	int col = fprintf(f, "  %s", name);
	for (const char *w = synopsis; *w;) {
		size_t n = strcspn(w, " ");
		if (col + 1 + (int)n > HELP_WIDTH) {
			col = fprintf(f, "\n%*s", HELP_INDENT, "") - 1;
		} else {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", (int)n, w);
		w += n + strspn(w + n, " ");
	}
	return col;
}
