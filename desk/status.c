#include "status.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/* X's own limit on a screen's side; a viewer may ask for more than botdesk would configure. */
#define GEOMETRY_LIVE_MAX 32767

#include "fileio.h"
#include "install.h"
#include "jsonout.h"
#include "parse.h"
#include "pathjoin.h"
#include "programs.h"
#include "viewdoor.h"

/* The lease, the watchers' door and when the idle stop is due, for a running desktop. */
static void status_gather_control(const struct settings *s, struct profile *p, struct status *st)
{
	struct stat sb;
	/* Too long to show whole, it is not shown: a cut path names another file. */
	if (s->view_dir || fstatat(p->dirfd, STATE_VIEW_SOCKET, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		(void)view_door_path(s->view_dir, p->dir, p->name, st->view_socket,
				     sizeof(st->view_socket));
	}
	if (s->idle_stop_ms && st->lease.holder == LEASE_AGENT && st->idle_seconds >= 0) {
		int64_t left = (int64_t)(s->idle_stop_ms / 1000) - st->idle_seconds;
		st->stop_in_seconds = left > 0 ? left : 0;
	}
}

/* The screen's size now, as the desktop publishes it (a viewer may have resized it): one small
 * file, so status opens no X connection. Anything malformed is no size. */
static void read_live_geometry(struct profile *p, struct status *st)
{
	char buf[32];
	size_t len;
	unsigned w, h;
	if (read_file_at(p->dirfd, STATE_GEOMETRY, buf, sizeof(buf), &len) < 0) {
		return;
	}
	if (len > 0 && buf[len - 1] == '\n') {
		buf[--len] = '\0';
	}
	if (parse_geometry(buf, 1, GEOMETRY_LIVE_MAX, &w, &h) == 0) {
		snprintf(st->live_geometry, sizeof(st->live_geometry), "%ux%u", w, h);
	}
}

void status_gather(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		   struct status *ret)
{
	struct status *st = ret;
	*st = (struct status){.profile = p->name,
			      .supported = true,
			      .geometry = s->geometry,
			      .idle_seconds = -1,
			      .lease = {.holder = LEASE_AGENT},
			      .idle_stop_seconds =
				      s->idle_stop_ms ? (int64_t)(s->idle_stop_ms / 1000) : -1,
			      .stop_in_seconds = -1,
			      .desktop_memory_mb = -1,
			      .desktop_memory_max_mb = -1};
	if (p->dirfd >= 0) {
		(void)lease_read_at(p->dirfd, &st->lease);
	}
	st->n_missing = programs_missing(s->search_path, st->missing);
	st->running = probe->running;
	st->pid = probe->launcher_live ? probe->launcher.pid : 0;
	if (probe->running) {
		snprintf(st->display, sizeof(st->display), "%s",
			 envfile_get(&probe->env, "DISPLAY"));
		struct stat sb;
		if (fstatat(p->dirfd, STATE_SOCKET, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
			(void)path_join(st->socket, sizeof(st->socket), p->dir, STATE_SOCKET);
		}
		st->idle_seconds = desktop_idle_seconds(p);
		status_gather_control(s, p, st);
		read_live_geometry(p, st);
		desktop_own_memory(s, probe, &st->desktop_memory_mb, &st->desktop_memory_max_mb);
	}
	memory_read(s, &st->memory);
	if (st->n_missing > 0) {
		struct install_decision d;
		install_decide(s, st->missing, &d);
		snprintf(st->install_command, sizeof(st->install_command), "%s", d.command);
		if (!st->running) {
			snprintf(st->blocker, sizeof(st->blocker), "%s", d.message);
		}
	} else if (!st->running && memory_judge(&st->memory, s->min_free_mb) == MEMORY_SHORT) {
		memory_blocker(&st->memory, s->min_free_mb, st->blocker, sizeof(st->blocker));
	}
}

static const char *or_null(const char *s)
{
	return s[0] ? s : NULL;
}

void status_print_json(const struct status *st, FILE *f)
{
	struct jsonout j;
	jsonout_begin(&j, f);
	jsonout_string(&j, "profile", st->profile);
	jsonout_bool(&j, "supported", st->supported);
	jsonout_bool(&j, "installed", st->n_missing == 0);
	jsonout_string_array(&j, "missing", st->missing);
	jsonout_bool(&j, "running", st->running);
	jsonout_int(&j, "pid", st->pid, st->pid == 0);
	jsonout_string(&j, "display", or_null(st->display));
	jsonout_string(&j, "socket", or_null(st->socket));
	jsonout_string(&j, "geometry", st->live_geometry[0] ? st->live_geometry : st->geometry);
	jsonout_string(&j, "configured_geometry", st->geometry);
	jsonout_string(&j, "install_command", or_null(st->install_command));
	jsonout_string(&j, "blocker", or_null(st->blocker));
	jsonout_int(&j, "memory_available_mb", st->memory.available_mb,
		    st->memory.available_mb < 0);
	jsonout_int(&j, "memory_limit_mb", st->memory.limit_mb, st->memory.limit_mb < 0);
	jsonout_int(&j, "idle_seconds", st->idle_seconds, st->idle_seconds < 0);
	jsonout_string(&j, "controller", lease_holder_name(st->lease.holder));
	jsonout_string(&j, "view_socket", or_null(st->view_socket));
	jsonout_int(&j, "idle_stop_seconds", st->idle_stop_seconds, st->idle_stop_seconds < 0);
	jsonout_int(&j, "stop_in_seconds", st->stop_in_seconds, st->stop_in_seconds < 0);
	jsonout_int(&j, "desktop_memory_mb", st->desktop_memory_mb, st->desktop_memory_mb < 0);
	jsonout_int(&j, "desktop_memory_max_mb", st->desktop_memory_max_mb,
		    st->desktop_memory_max_mb < 0);
	jsonout_end(&j);
}

void status_print_text(const struct status *st, FILE *f)
{
	fprintf(f, "profile:  %s\n", st->profile);
	if (st->running) {
		fprintf(f, "running:  yes (launcher pid %d)\n", st->pid);
		fprintf(f, "display:  %s\n", st->display);
		fprintf(f, "socket:   %s\n", st->socket[0] ? st->socket : "(missing)");
		if (st->socket[0]) {
			/* The two ways to look at it: live (and take over), or a picture. */
			fprintf(f, "view:     vncviewer %s\n", st->socket);
			if (st->view_socket[0]) {
				fprintf(f, "watch:    vncviewer %s  (never input)\n",
					st->view_socket);
			}
			fprintf(f, "          botdesk%s%s thumbnail --output desktop.png\n",
				streq(st->profile, "default") ? "" : " --profile ",
				streq(st->profile, "default") ? "" : st->profile);
		}
	} else {
		fprintf(f, "running:  no\n");
	}
	if (st->live_geometry[0] && !streq(st->live_geometry, st->geometry)) {
		fprintf(f, "geometry: %s (configured: %s)\n", st->live_geometry, st->geometry);
	} else {
		fprintf(f, "geometry: %s\n", st->geometry);
	}
	if (st->memory.available_mb >= 0) {
		fprintf(f, "memory:   %lld MB available", (long long)st->memory.available_mb);
		if (st->memory.limit_mb >= 0) {
			fprintf(f, " of %lld MB", (long long)st->memory.limit_mb);
		}
		fputc('\n', f);
	}
	fprintf(f, "control:  %s%s\n", lease_holder_name(st->lease.holder),
		st->lease.holder == LEASE_HUMAN ? " (botdesk release hands it back)"
						: " (botdesk take to take over)");
	if (st->idle_seconds >= 0) {
		fprintf(f, "idle:     %lld s", (long long)st->idle_seconds);
		if (st->stop_in_seconds >= 0) {
			fprintf(f, "; stops in %lld s unless used", (long long)st->stop_in_seconds);
		} else if (st->idle_stop_seconds >= 0) {
			fputs("; no idle stop while a human holds it", f);
		}
		fputc('\n', f);
	}
	if (st->desktop_memory_mb >= 0) {
		fprintf(f, "desktop:  %lld MB used of its own %lld MB (its cgroup)\n",
			(long long)st->desktop_memory_mb, (long long)st->desktop_memory_max_mb);
	}
	if (st->n_missing > 0) {
		fprintf(f, "missing:");
		for (size_t i = 0; i < st->n_missing; i++) {
			fprintf(f, " %s", st->missing[i]);
		}
		fputc('\n', f);
	}
	if (st->install_command[0]) {
		fprintf(f, "install:  %s\n", st->install_command);
	}
	if (st->blocker[0]) {
		fprintf(f, "blocker:  %s\n", st->blocker);
	}
}
