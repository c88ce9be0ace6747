/* The profile's action log, actions.jsonl: one JSON line per action an agent took on the desktop
 * (time, source, command, screen coordinates, how much text; the text itself only with
 * log_typed_text, since it is often a password). Bounded: past ACTLOG_MAX bytes the file becomes
 * actions.jsonl.1 (replacing the one before) and a new one starts. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "act.h"
#include "actargs.h"
#include "profile.h"

#define ACTLOG_FILE "actions.jsonl"
#define ACTLOG_OLD "actions.jsonl.1"
#define ACTLOG_MAX (1024 * 1024)

/* The line for a request and its outcome (r: what act_run returned), malloc'ed, ending in a
 * newline. source is "cli" or "mcp". NULL when out of memory. */
char *actlog_line(const char *source, const struct act_req *rq, const struct act_out *out, int r,
		  bool log_text);

/* Appends line under dirfd (never through a symlink), rotating first when the file is full. */
int actlog_append(int dirfd, const char *line);

/* Marks the desktop as used now (common/activity.h); the X lock is the runner's to stamp. */
void actlog_stamp_activity(struct profile *p);
