/* What `botdesk status` reports, gathered from a handful of file reads. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "desktop.h"
#include "lease.h"
#include "memory.h"
#include "policy.h"
#include "profile.h"
#include "settings.h"

struct status {
	const char *profile;
	bool supported;
	const char *missing[POLICY_PROGRAM_COUNT + 1];
	size_t n_missing;
	bool running;
	int pid;                    /* 0: none */
	char display[32];           /* empty: null */
	char socket[4096];          /* empty: null */
	const char *geometry;       /* the configured size */
	char live_geometry[32];     /* the screen's size now, while running and known; else empty */
	char install_command[1024]; /* empty: null */
	char blocker[2048];         /* empty: null */
	struct memory_info memory;
	int64_t idle_seconds;      /* -1: null */
	struct lease lease;        /* who controls the desktop */
	int64_t idle_stop_seconds; /* the setting; -1 (null) when off */
	int64_t stop_in_seconds;   /* until the idle stop; -1 (null) when none is due */
	char view_socket[4096];    /* the watchers' door while running; empty: null */
	/* The desktop's own cgroup (max_memory_mb): its usage and limit; -1: it has none. */
	int64_t desktop_memory_mb, desktop_memory_max_mb;
};

void status_gather(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		   struct status *ret);
void status_print_json(const struct status *st, FILE *f);
void status_print_text(const struct status *st, FILE *f);
