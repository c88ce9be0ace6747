/* The activity stamp: the file `activity` in a profile's state directory, whose mtime is the
 * desktop's last use. The idle clock reads it (status's idle_seconds, the session's idle stop).
 * Every program that marks use writes it through activity_stamp(): the runner (start, exec, take,
 * release), botdesk-act and botdesk-mcp (each action), the gate (a human's input, at most once a
 * second). It means "used now" and nothing else.
 *
 * `list --all` cannot read a user's private state, so it reads the X lock's mtime instead; that
 * mark is the runner's alone (desk/desktop.c: start, exec, take and release), since only it knows
 * the display without a look at the desktop. Actions and a human's input do not move it. */
#pragma once

#include <stdint.h>

#define ACTIVITY_FILE "activity"

/* Marks the desktop as used now, in the state directory dirfd. Touching the file that is there
 * is one call; it is made (write-then-rename, 0600) when it is not. A symbolic link planted there
 * gets its own time changed; nothing is followed. Best effort: the idle clock is advisory. */
void activity_stamp(int dirfd);

/* The last use, in milliseconds since the epoch: 0, or -errno when there is no stamp. */
int activity_read_ms(int dirfd, int64_t *ret_ms);
