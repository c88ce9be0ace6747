/* X display numbers: which are taken, which one a profile gets, and the allocation lock that keeps
 * two of our own starts from picking the same one. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "settings.h"

/* The X lock "<x_lock_dir>/.X<n>-lock" names a live, non-zombie pid (returned in ret_pid). */
bool display_lock_live(const char *x_lock_dir, unsigned n, pid_t *ret_pid);
/* The X socket of :n is bound in the unix table (abstract "@/tmp/.X11-unix/X<n>" or the path
 * form, exact match). Returns 1 or 0, or -errno when there is no table to read. */
int display_socket_bound(const char *unix_table, unsigned n);
#define DISPLAY_NUM_MAX 32767
/* Every bound X socket's number, from one read of the unix table: what a pass over a band
 * consults instead of reading the table once per number. loaded is false when there is no table
 * (-errno): then the locks alone decide. */
struct display_bound {
	bool loaded;
	uint8_t bits[(DISPLAY_NUM_MAX + 1) / 8];
};
int display_bound_read(const char *unix_table, struct display_bound *ret);
/* What holds a number, for a message that tells the truth about a full band. */
enum display_taken {
	TAKEN_NOT,
	TAKEN_SERVER,   /* its X lock names a live process */
	TAKEN_SOCKET,   /* its X socket is bound (no live lock) */
	TAKEN_LEFTOVER, /* another user's lock or socket file, which we may not remove */
	TAKEN_KEYMAP,   /* another user's /tmp/server-<n>.xkm, on which Xvnc dies */
	TAKEN_COUNT,
};
/* Taken by any server: a live lock, or a bound socket. With no table, the lock alone decides. */
bool display_in_use(const struct settings *s, unsigned n);
/* How many numbers of the band are in use, the unix table read once. */
unsigned display_band_used(const struct settings *s);

/* Picks a number for the profile: its recorded one (the "display" file under dirfd) when no live
 * server holds it, else the first free one of the band; avoid (if non-zero) is skipped. Must be
 * called with the allocation lock held. */
int display_pick(const struct settings *s, int dirfd, unsigned avoid, unsigned *ret,
		 struct error *err);
/* For a retry after other users' servers took the numbers in avoid as we started: a free number
 * of the band picked at random, so that two users' starts racing for the lowest free number do
 * not meet again on the next one. Under the allocation lock. */
int display_pick_spread(const struct settings *s, const unsigned *avoid, size_t n_avoid,
			unsigned *ret, struct error *err);
/* The profile's recorded number, or -ENOENT / -EINVAL. */
int display_recorded(int dirfd, unsigned *ret);

/* Takes the allocation lock (creating its parent directory 0700), waiting at most timeout_ms. */
int display_alloc_lock(const struct settings *s, uint64_t timeout_ms, struct error *err);
