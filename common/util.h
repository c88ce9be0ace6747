/* Small shared helpers: cleanup attributes (fds, fd pairs, DIR*, FILE*, heap memory), ownership
 * transfer out of them, string equality. A cleanup variable starts as -1 or NULL and is taken
 * with TAKE_FD()/TAKE_PTR() when it outlives the scope. */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _noreturn_ __attribute__((noreturn))
#define _unused_ __attribute__((unused))

static inline bool streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static inline bool startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Closes fd if it is valid, keeping errno intact so error paths can still report it. */
static inline int safe_close(int fd)
{
	if (fd >= 0) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return -1;
}

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(const int *fd)
{
	safe_close(*fd);
}

/* Both ends of a pipe or socket pair; an end taken with TAKE_FD() is -1 and skipped. */
static inline void close_pairp(int (*pair)[2])
{
	safe_close((*pair)[0]);
	safe_close((*pair)[1]);
}

/* closedir() and fclose() keep errno too, and skip NULL (never opened, or taken). */
static inline void closedirp(DIR **d)
{
	if (*d) {
		int saved = errno;
		closedir(*d);
		errno = saved;
	}
}

static inline void fclosep(FILE **f)
{
	if (*f) {
		int saved = errno;
		fclose(*f);
		errno = saved;
	}
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_close_pair_ _cleanup_(close_pairp)
#define _cleanup_closedir_ _cleanup_(closedirp)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Hands an fd out of a _cleanup_close_ variable so the cleanup does not close it. */
#define TAKE_FD(fd)              \
	__extension__({          \
		int _fd_ = (fd); \
		(fd) = -1;       \
		_fd_;            \
	})

#define TAKE_PTR(p)                      \
	__extension__({                  \
		__typeof__(p) _p_ = (p); \
		(p) = NULL;              \
		_p_;                     \
	})

/* -errno of the last failed call, never 0 (a libc call that failed without setting errno). */
static inline int negative_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}
