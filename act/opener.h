/* Opening things on the desktop for an agent (issue 26): `open TARGET` (a URL or a file, by the
 * `browser` setting for a web URL, else the desktop's default handler through xdg-open) and
 * `launch NAME` (an application by its desktop file's name: the Exec line of NAME.desktop in the
 * desktop's XDG data directories, field codes dropped). The program runs detached (a session of
 * its own, standard streams on /dev/null, reparented at once: nobody's child to reap) with the
 * desktop's environment, as `botdesk exec` gives it. Both return once a new top-level window
 * appears in the window manager's list (bounded), whichever program mapped it. */
#pragma once

#include <X11/Xlib.h>
#include <stddef.h>

#include "actargs.h"
#include "envfile.h"
#include "error.h"

/* How long a program may take to map its window: a browser's first start is slow. */
#define OPENER_WAIT_MS 30000

/* The Exec line of a desktop file's text as an argv (malloc'ed, NULL-terminated, each string
 * malloc'ed; opener_free_argv), field codes dropped, quoting and escapes undone. -ENOENT when
 * the [Desktop Entry] group has no Exec, -EINVAL when it cannot be split. Pure. */
int opener_exec_argv(const char *text, size_t len, char ***ret);
void opener_free_argv(char **argv);

/* rq's open or launch: starts the program in env (the desktop's published variables on top of
 * the caller's environment), in the cgroup of cgroup_fd (a cgroup.procs; -1: ours), and waits
 * for a new window: *ret_win. browser may be NULL. */
int opener_run(Display *dpy, const struct act_req *rq, const char *browser,
	       const struct envfile *env, int cgroup_fd, Window *ret_win, struct error *err);
