/* /proc/<pid>/stat text: the command name may hold anything, parentheses and blanks included.
 * A parse that succeeds must give a plausible state and no negative ids. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	struct proc_stat st;
	if (proc_stat_parse(s, &st) == 0 &&
	    (st.state == '\0' || st.ppid < 0 || st.pgid < 0 || st.sid < 0)) {
		abort();
	}
	free(s);
	return 0;
}
