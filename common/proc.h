/* What /proc says about a process. Every read failure (absent, hidepid, garbage) is an error the
 * caller treats as "not ours": a process we cannot see is a process we never signal. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_stat {
	char state; /* 'R', 'S', 'Z', ... */
	pid_t ppid;
	pid_t pgid;
	pid_t sid;
	uint64_t starttime; /* field 22: clock ticks after boot */
};

/* Parses the text of /proc/<pid>/stat. The command name may hold spaces and parentheses, so the
 * fields are found after the last ')'. */
int proc_stat_parse(const char *text, struct proc_stat *ret);
int proc_stat_read(pid_t pid, struct proc_stat *ret);

/* A process that exists and is not a zombie (or dead) per its stat. */
bool proc_stat_is_live(const struct proc_stat *st);

/* The NUL-separated argv of pid, malloc'ed; ret_len counts the bytes. -ENOENT for kernel threads
 * and exited processes. */
int proc_cmdline_read(pid_t pid, char **ret_buf, size_t *ret_len);

/* The "Pss:" of /proc/<pid>/smaps_rollup, in kB: the process's share of the memory it maps.
 * At most UINT64_MAX / 4, so a sum over many processes stays far from overflow. */
int proc_pss_kb(pid_t pid, uint64_t *ret);

/* From /proc/<pid>/statm, in kB: the resident pages (private and shared), and resident minus
 * shared, the memory the process alone holds (its private RSS). The kernel keeps these counters:
 * no walk of the page tables, unlike a PSS. Each at most UINT64_MAX / 4; either pointer may be
 * NULL. */
int proc_rss_kb(pid_t pid, uint64_t *ret_resident, uint64_t *ret_private);

/* Whether a NUL-separated command line's argv[0] names TigerVNC's X server ("Xvnc" or
 * "Xtigervnc" in its basename): the servers botdesk starts, by either of Debian's names. */
bool proc_cmdline_is_xvnc(const char *cmdline);

/* The owner uid of /proc/<pid>, which is the process's real uid unless it is not dumpable. */
int proc_owner(pid_t pid, uid_t *ret);

/* Whether pid is a sane value to look up: 2 <= pid <= the kernel's maximum. pid 0, 1 and negative
 * values are never ours. */
bool pid_is_plausible(uint64_t pid);
