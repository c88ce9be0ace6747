/* Small files relative to a directory fd, never through a symlink. */
#pragma once

#include <dirent.h>
#include <stddef.h>
#include <sys/types.h>

/* Reads all of name (at most size-1 bytes) into buf and NUL-terminates it. -ELOOP for a symlink,
 * -EFBIG when the file does not fit, -ENOENT when absent. A NULL ret_len is allowed. */
int read_file_at(int dirfd, const char *name, char *buf, size_t size, size_t *ret_len);

/* Publishes name atomically: writes a private temporary beside it, fsyncs nothing (these are
 * runtime state, not data), and renames it over name. A symlink at name is replaced, never
 * followed. */
int write_file_atomic_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode);
/* The same by path: the parent directory is opened (following symlinks, as any path the caller
 * names) and the last component published in it. -EISDIR when path names no file ("dir/"). */
int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode);
/* write_file_atomic for a path the user named (a picture, say), mode 0666 less the umask as any
 * file the user creates. */
int write_user_file(const char *path, const void *data, size_t len);

/* Opens an existing or new regular file for writing without following a symlink. */
/* 0 when fd is a regular file of our effective uid, else -EPERM: for lock and state files in
 * directories where something else may have been planted. */
int fd_is_own_regular(int fd);
int open_regular_at(int dirfd, const char *name, int flags, mode_t mode);

/* Whole-buffer write and read loops that retry on EINTR and short transfers. */
int write_all(int fd, const void *data, size_t len);
ssize_t read_all(int fd, void *buf, size_t len);
/* Everything fd gives until its end, at most max bytes (what is beyond is not read), in a buffer
 * of the caller's with a NUL after it; for files whose size says nothing (/proc). */
int read_all_alloc(int fd, size_t max, char **ret_buf, size_t *ret_len);

/* fdopendir() that owns fd either way: on failure fd is closed and -errno returned. */
int opendir_fd(int fd, DIR **ret);

/* unlinkat() that treats an absent file as success. */
int unlink_at_if_exists(int dirfd, const char *name);

/* mkdir -p: every missing component is created with mode (umask notwithstanding); existing ones
 * are left as they are. */
int mkdir_p(const char *path, mode_t mode);
