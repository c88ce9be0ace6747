/* The botdesk desktops on this host, found from what every user may see: the X locks and /proc
 * (never another user's private state). And the processes of one desktop, for its memory. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "error.h"
#include "profile.h"
#include "settings.h"

struct host_desktop {
	uid_t uid;             /* the X server's owner */
	pid_t server;          /* the pid in its X lock */
	uint64_t server_start; /* its start time (clock ticks after boot) */
	pid_t launcher;        /* its session leader, while alive and the same user's; else 0 */
	uint64_t launcher_start;
	unsigned display;
	char profile[PROFILE_NAME_MAX + 1]; /* from its "-desktop botdesk:<profile>" argument */
	time_t activity; /* the X lock's mtime, the runner's stamp (common/activity.h); 0: unknown
			  */
};

/* Every desktop whose X lock in x_lock_dir names a live X server of ours (Xvnc or Xtigervnc
 * whose command line holds "-desktop botdesk:<profile>"), of user uid, or of everyone when uid is
 * (uid_t)-1. Sorted by display number. ret is malloc'ed (NULL when there is none). */
int hostscan_desktops(const char *x_lock_dir, uid_t uid, struct host_desktop **ret, size_t *ret_n);

/* Refuses a new desktop when the caller runs max_desktops already (the host's policy). Call
 * under the allocation lock, so that every earlier start of ours has its X lock by then. */
int hostscan_check_cap(const struct settings *s, struct error *err);

/* Marks the desktop on :display as used now, for the administrator's view (list --all shows the
 * X lock's mtime as its idle time): only a lock of ours naming a live server is touched. */
void hostscan_stamp(const struct settings *s, unsigned display);

struct proc_entry {
	pid_t pid, ppid, sid;
	uint64_t starttime;
};

/* Every live process we can see, by one pass over /proc. */
struct proctable {
	struct proc_entry *v;
	size_t n;
};
int proctable_read(struct proctable *t);
void proctable_free(struct proctable *t);

/* The memory, in kB, of n desktops' processes at once, in one pass over the table: ret_kb[i] for
 * sessions[i], the session of its launcher (or, for an orphaned server, the server's session),
 * and what left it but descends from it; each process is looked up once, not once per desktop.
 * The proportional set size, or with private_rss the private RSS of /proc/<pid>/statm (counters
 * the kernel keeps: cheap at a hundred desktops; a PSS walks every page table). -1 when none of
 * them could be read (another user's, without privilege). */
void proctable_memory_kb(const struct proctable *t, const pid_t *sessions, size_t n,
			 bool private_rss, int64_t *ret_kb);

/* Seconds since a process born at starttime (clock ticks after boot) started; -1 unknown. */
int64_t uptime_seconds(uint64_t starttime);
/* The same against an uptime read once (uptime_now, -1 unknown) for many processes. */
int64_t uptime_now(void);
int64_t uptime_seconds_at(int64_t now, uint64_t starttime);
