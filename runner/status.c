#include "status.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "install.h"
#include "json.h"
#include "programs.h"

void status_gather(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		   struct status *ret)
{
	struct status *st = ret;
	*st = (struct status){.profile = p->name,
			      .supported = true,
			      .geometry = s->geometry,
			      .idle_seconds = -1,
			      .desktop_memory_mb = -1,
			      .desktop_memory_max_mb = -1};
	st->n_missing = programs_missing(s->search_path, st->missing);
	st->running = probe->running;
	st->pid = probe->launcher_live ? probe->launcher.pid : 0;
	if (probe->running) {
		snprintf(st->display, sizeof(st->display), "%s",
			 envfile_get(&probe->env, "DISPLAY"));
		struct stat sb;
		if (fstatat(p->dirfd, STATE_SOCKET, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
			snprintf(st->socket, sizeof(st->socket), "%s/%s", p->dir, STATE_SOCKET);
		}
		st->idle_seconds = desktop_idle_seconds(p);
		desktop_own_memory(s, probe, &st->desktop_memory_mb, &st->desktop_memory_max_mb);
	}
	memory_read(s, &st->memory);
	if (st->n_missing > 0) {
		struct install_decision d;
		if (install_decide(s, st->missing, &d, NULL) == 0) {
			snprintf(st->install_command, sizeof(st->install_command), "%s", d.command);
			if (!st->running) {
				snprintf(st->blocker, sizeof(st->blocker), "%s", d.message);
			}
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
	struct json j;
	json_begin(&j, f);
	json_string(&j, "profile", st->profile);
	json_bool(&j, "supported", st->supported);
	json_bool(&j, "installed", st->n_missing == 0);
	json_string_array(&j, "missing", st->missing);
	json_bool(&j, "running", st->running);
	json_int(&j, "pid", st->pid, st->pid == 0);
	json_string(&j, "display", or_null(st->display));
	json_string(&j, "socket", or_null(st->socket));
	json_string(&j, "geometry", st->geometry);
	json_string(&j, "install_command", or_null(st->install_command));
	json_string(&j, "blocker", or_null(st->blocker));
	json_int(&j, "memory_available_mb", st->memory.available_mb, st->memory.available_mb < 0);
	json_int(&j, "memory_limit_mb", st->memory.limit_mb, st->memory.limit_mb < 0);
	json_int(&j, "idle_seconds", st->idle_seconds, st->idle_seconds < 0);
	json_int(&j, "desktop_memory_mb", st->desktop_memory_mb, st->desktop_memory_mb < 0);
	json_int(&j, "desktop_memory_max_mb", st->desktop_memory_max_mb,
		 st->desktop_memory_max_mb < 0);
	json_end(&j);
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
			fprintf(f, "          botdesk%s%s thumbnail --output desktop.png\n",
				streq(st->profile, "default") ? "" : " --profile ",
				streq(st->profile, "default") ? "" : st->profile);
		}
	} else {
		fprintf(f, "running:  no\n");
	}
	fprintf(f, "geometry: %s\n", st->geometry);
	if (st->memory.available_mb >= 0) {
		fprintf(f, "memory:   %lld MB available", (long long)st->memory.available_mb);
		if (st->memory.limit_mb >= 0) {
			fprintf(f, " of %lld MB", (long long)st->memory.limit_mb);
		}
		fputc('\n', f);
	}
	if (st->idle_seconds >= 0) {
		fprintf(f, "idle:     %lld s\n", (long long)st->idle_seconds);
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
