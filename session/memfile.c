#include "memfile.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "proc.h"
#include "util.h"

#define MAX_PROCS 256

/* The PSS of pid in kB; 0 when it cannot be read. */
static uint64_t pss_of(pid_t pid)
{
	uint64_t kb;
	return proc_pss_kb(pid, &kb) < 0 ? 0 : kb;
}

uint64_t memfile_pss_kb(void)
{
	struct sv_proc procs[MAX_PROCS];
	size_t n = supervisor_descendants(procs, MAX_PROCS);
	uint64_t sum = pss_of(getpid());
	for (size_t i = 0; i < n; i++) {
		sum += pss_of(procs[i].pid);
	}
	return sum;
}

int memfile_publish(const char *env_path, uint64_t pss_kb)
{
	_cleanup_free_ char *d = strdup(env_path);
	if (!d) {
		return -ENOMEM;
	}
	_cleanup_close_ int dirfd =
		open(dirname(d), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		return negative_errno();
	}
	char text[64];
	int len = snprintf(text, sizeof(text), "pss_kb=%llu\n", (unsigned long long)pss_kb);
	return write_file_atomic_at(dirfd, MEMFILE_NAME, text, (size_t)len, 0600);
}

void memfile_remove(const char *env_path)
{
	_cleanup_free_ char *d = strdup(env_path);
	if (!d) {
		return;
	}
	_cleanup_close_ int dirfd =
		open(dirname(d), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd >= 0) {
		(void)unlink_at_if_exists(dirfd, MEMFILE_NAME);
	}
}
