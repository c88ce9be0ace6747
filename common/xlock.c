#include "xlock.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "util.h"

int xlock_parse(const char *text, pid_t *ret)
{
	while (*text == ' ') {
		text++;
	}
	size_t len = strcspn(text, "\n");
	if (text[len] == '\n' && text[len + 1] != '\0') {
		return -EINVAL;
	}
	uint64_t pid;
	int r = parse_u64_n(text, len, INT32_MAX, &pid);
	if (r < 0) {
		return r;
	}
	if (!pid_is_plausible(pid)) {
		return -EINVAL;
	}
	*ret = (pid_t)pid;
	return 0;
}

int xlock_read(const char *dir, unsigned n, pid_t *ret)
{
	char path[4096], buf[64];
	int r = path_format(path, sizeof(path), "%s/.X%u-lock", dir, n);
	if (r < 0) {
		return r;
	}
	r = read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL);
	if (r < 0) {
		return r == -EFBIG ? -EINVAL : r;
	}
	return xlock_parse(buf, ret);
}
