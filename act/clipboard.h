/* The desktop's clipboard for an agent (issue 26): reading what any application copied, and
 * making a text the clipboard's content. X has no clipboard store: a selection is served by the
 * client that owns it, for as long as it lives. So `clipboard set` starts a small owner process
 * (botdesk-act --clipboard-owner) with a connection of its own: it serves the text (UTF8_STRING,
 * TARGETS, INCR for large ones) until another client takes the selection or the desktop's X
 * server goes away, then exits. It is detached (its own session, no terminal, stdin/stdout/stderr
 * on /dev/null once ready), so the command that set it returns at once. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"
#include "error.h"

/* The largest text set or read: 1 MiB. */
#define CLIP_MAX ACT_CLIP_MAX

/* The owner's argv[1], after the program's path. */
#define CLIP_OWNER_ARG "--clipboard-owner"

/* "CLIPBOARD", or "PRIMARY" (the selection, what a middle click pastes). */
const char *clip_selection_name(bool primary);

/* What the selection holds, as UTF-8 (malloc'ed, not NUL-terminated; NULL and 0 when no client
 * owns it, *ret_owned false). -EFBIG past CLIP_MAX, -ETIMEDOUT when the owner does not answer,
 * -EILSEQ when it answers with something that is not UTF-8; each with the message. */
int clip_get(Display *dpy, bool primary, char **ret, size_t *ret_len, bool *ret_owned,
	     struct error *err);

/* Makes text the selection's content: starts the owner (program is botdesk-act) on display with
 * the profile's cookie file, in the cgroup of cgroup_fd (a cgroup.procs; -1: ours), and returns
 * once it owns the selection (bounded). The owner is no child of ours once this returns. */
int clip_set(const char *program, const char *display, const char *xauthority, int cgroup_fd,
	     bool primary, const char *text, size_t len, struct error *err);

/* botdesk-act --clipboard-owner DISPLAY XAUTHORITY SELECTION: the owner itself. Reads the text
 * from stdin, owns the selection, says "ok" (or why not) on stdout, and serves it. Returns the
 * exit status. */
int clip_owner_main(int argc, char **argv);
