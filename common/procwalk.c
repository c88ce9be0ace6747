#include "procwalk.h"

#include <dirent.h>

#include "parse.h"
#include "util.h"

int proc_walk(proc_walk_fn fn, void *userdata)
{
	DIR *d = opendir("/proc");
	if (!d) {
		return negative_errno();
	}
	int r = 0;
	struct dirent *de;
	while (r == 0 && (de = readdir(d))) {
		uint64_t pid;
		struct proc_stat st;
		/* Only the numeric entries are processes; the rest (self, sys, ...) are not. */
		if (parse_u64(de->d_name, UINT64_MAX, &pid) < 0 || !pid_is_plausible(pid) ||
		    proc_stat_read((pid_t)pid, &st) < 0 || !proc_stat_is_live(&st)) {
			continue;
		}
		r = fn((pid_t)pid, &st, userdata);
	}
	closedir(d);
	return r;
}
