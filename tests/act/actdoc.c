/* Prints the docs' action rows from the table (act/acttable.c): `actdoc md` docs/CLI.md's table
 * rows, `actdoc scd` botdesk(1)'s synopsis lines. action-docs.sh compares them with the docs. */
#include <stdio.h>
#include <string.h>

#include "acttable.h"

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "md") != 0 && strcmp(argv[1], "scd") != 0)) {
		fputs("usage: actdoc md|scd\n", stderr);
		return 2;
	}
	act_print_doc_rows(stdout, strcmp(argv[1], "scd") == 0);
	return fflush(stdout) == 0 ? 0 : 1;
}
