/* `botdesk list`: the caller's profiles, and (`--all`, for an administrator) every botdesk
 * desktop on the host. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "profile.h"
#include "settings.h"

struct list_entry {
	char user[33];                      /* --all: the owner's name (or uid) */
	uid_t uid;                          /* --all */
	char profile[PROFILE_NAME_MAX + 1]; /* */
	bool running;
	pid_t pid;            /* the launcher (or, for an orphaned server in --all, the server) */
	int display;          /* -1: none */
	const char *holder;   /* "agent" or "human" while running; NULL unknown */
	int64_t idle_seconds; /* -1: unknown */
	int64_t pss_mb;    /* the PSS of its processes; -1 unknown (another user's, unprivileged) */
	int64_t cgroup_mb; /* the usage of its own cgroup; -1 when it has none */
	int64_t uptime_seconds; /* -1: unknown */
};

struct list {
	struct list_entry *v;
	size_t n;
	bool all;
};

/* Every profile of the caller with a state directory under s->state_root. */
int list_gather(const struct settings *s, struct list *ret, struct error *err);
/* Every desktop on the host, from X locks and /proc. The caller must be root or in the policy's
 * admin group (-EPERM with the message otherwise). */
int list_gather_all(const struct settings *s, struct list *ret, struct error *err);
void list_free(struct list *l);

void list_print_text(const struct list *l, FILE *f);
/* {"desktops":[{...},...]} on one line. */
void list_print_json(const struct list *l, FILE *f);
