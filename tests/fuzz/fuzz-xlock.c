/* X lock files ("%10d\n"): written by anyone's X server in a shared directory, so hostile. A pid
 * that parses is one we might signal later: it must be plausible (never 0, 1 or negative). */
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "proc.h"
#include "xlock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	pid_t pid;
	if (xlock_parse(s, &pid) == 0 && !pid_is_plausible((uint64_t)pid)) {
		abort();
	}
	free(s);
	return 0;
}
