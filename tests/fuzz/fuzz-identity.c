/* launcher.pid ("<pid> <starttime>"): stop signals the pid it names, so a parse that succeeds
 * must name a plausible pid. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "identity.h"
#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	struct identity id;
	if (identity_parse(s, &id) == 0 && !pid_is_plausible((uint64_t)id.pid)) {
		abort();
	}
	free(s);
	return 0;
}
