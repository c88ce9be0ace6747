/* `botdesk run`: a desktop in the foreground, for a container's command or a systemd service. */
#pragma once

#include <signal.h>
#include <stdint.h>

#include "desktop.h"
#include "error.h"
#include "profile.h"
#include "settings.h"
#include "stopmark.h"

struct foreground {
	int sigfd, pidfd;
	struct desktop_probe probe; /* the desktop as it was once usable */
};

/* What foreground_close() finds when foreground_start() failed before opening anything. */
#define FOREGROUND_INIT                  \
	{                                \
		.sigfd = -1, .pidfd = -1 \
	}

enum foreground_end {
	FOREGROUND_SIGNAL,  /* TERM, INT or HUP to `run`: it stopped the desktop */
	FOREGROUND_STOPPED, /* `botdesk stop` by the desktop's owner */
};

struct foreground_result {
	enum foreground_end end;
	int signo;          /* FOREGROUND_SIGNAL */
	struct stopmark by; /* FOREGROUND_STOPPED */
};

/* Starts the profile's desktop (or adopts the running one) and pins its launcher; fg->probe then
 * shows the usable desktop. TERM, INT and HUP are blocked from here on and wait in fg->sigfd.
 * -EINTR when one of them arrived during the start: the launch was taken down, which is a clean
 * stop. */
int foreground_start(const struct settings *s, struct profile *p, uint64_t wait_ms,
		     struct foreground *fg, struct error *err);

/* Stays until the desktop ends. 0 with ret saying how when it was asked to end (a signal, which
 * stops the desktop, or its owner's `botdesk stop`); -ECHILD with err naming the reason when it
 * ended on its own. Reaps every child that ends meanwhile, so it can serve as a container's PID 1.
 */
int foreground_wait(const struct settings *s, struct profile *p, struct foreground *fg,
		    struct foreground_result *ret, struct error *err);

void foreground_close(struct foreground *fg);
