#include "memfile.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

static uint64_t resident_of(pid_t pid)
{
	uint64_t kb;
	return proc_rss_kb(pid, &kb, NULL) < 0 ? 0 : kb;
}

/* The sum of fn over us and our tree. */
static uint64_t tree_sum(const struct sv_proc *procs, size_t n, uint64_t (*fn)(pid_t))
{
	uint64_t sum = fn(getpid());
	for (size_t i = 0; i < n; i++) {
		sum += fn(procs[i].pid);
	}
	return sum;
}

uint64_t memfile_pss_kb(void)
{
	struct sv_proc procs[MAX_PROCS];
	size_t n = supervisor_tree(procs, MAX_PROCS);
	return tree_sum(procs, n, pss_of);
}

static int open_dir_of(const char *env_path)
{
	_cleanup_free_ char *d = strdup(env_path);
	if (!d) {
		return -ENOMEM;
	}
	int fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

/* The figure stands: its mtime says the session still renews it. */
static int renew_mtime(const char *env_path)
{
	_cleanup_close_ int dirfd = open_dir_of(env_path);
	if (dirfd < 0) {
		return dirfd;
	}
	return utimensat(dirfd, MEMFILE_NAME, NULL, AT_SYMLINK_NOFOLLOW) < 0 ? negative_errno() : 0;
}

int memfile_renew(struct memfile *m, const char *env_path)
{
	struct sv_proc procs[MAX_PROCS];
	size_t n = supervisor_tree(procs, MAX_PROCS);
	uint64_t res = tree_sum(procs, n, resident_of);
	uint64_t moved = res > m->resident_kb ? res - m->resident_kb : m->resident_kb - res;
	if (m->published && moved < MEMFILE_MOVED_KB && ++m->rounds < MEMFILE_PSS_ROUNDS) {
		return renew_mtime(env_path);
	}
	uint64_t pss = tree_sum(procs, n, pss_of);
	m->resident_kb = res;
	m->rounds = 0;
	if (m->published && pss / 1024 == m->pss_kb / 1024) {
		return renew_mtime(env_path);
	}
	int r = memfile_publish(env_path, pss);
	if (r == 0) {
		m->published = true;
		m->pss_kb = pss;
	}
	return r;
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
