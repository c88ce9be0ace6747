/* The runner <-> botdesk-session contract: what `botdesk start` hands the launcher and what the
 * launcher answers with, in one place, as common/proto.h is for the helper. The runner builds
 * the environment (desk/launch.c), the session reads it (session/contract.c); both take every
 * name, exit code, bound and budget from here, so a change on one side is a change on both and a
 * budget that drifts breaks the build.
 *
 * The launcher's environment (every value one line of text; paths absolute): */
#pragma once

#include <assert.h>

#define LAUNCHER_ENV_PROFILE "BOTDESK_PROFILE"         /* the profile's name */
#define LAUNCHER_ENV_DISPLAY_NUM "BOTDESK_DISPLAY_NUM" /* the number to claim, 0-65535 */
#define LAUNCHER_ENV_SOCKET "BOTDESK_SOCKET"           /* <profile dir>/LAUNCHER_SOCKET */
#define LAUNCHER_ENV_XAUTH "BOTDESK_XAUTH"             /* the cookie file to write */
#define LAUNCHER_ENV_ENV_FILE "BOTDESK_ENV_FILE"       /* the env file to publish last */
#define LAUNCHER_ENV_CONFIG_HOME "BOTDESK_CONFIG_HOME" /* the profile's XDG_CONFIG_HOME */
#define LAUNCHER_ENV_GEOMETRY "BOTDESK_GEOMETRY"       /* WIDTHxHEIGHT within LAUNCHER_GEOMETRY_* */
#define LAUNCHER_ENV_X_DIR "BOTDESK_X_LOCK_DIR"        /* see LAUNCHER_X_DIR_DEFAULT */
#define LAUNCHER_ENV_BROWSER "BOTDESK_BROWSER"         /* optional */
#define LAUNCHER_ENV_PASS_ENV "BOTDESK_PASS_ENV"       /* optional: more names to pass on */
#define LAUNCHER_ENV_IDLE_STOP_MS "BOTDESK_IDLE_STOP_MS" /* 0: never */
#define LAUNCHER_ENV_VIEW_SOCKET "BOTDESK_VIEW_SOCKET"   /* optional: the view door elsewhere */
#define LAUNCHER_ENV_VIEW_GID "BOTDESK_VIEW_GID"         /* optional: the group that may watch */
/* Optional: what is left of the start's deadline, in ms. */
#define LAUNCHER_ENV_WAIT_MS "BOTDESK_WAIT_MS"
/* "<uid>:<profile>:<state root>", never read by the session: it stays in the launcher's
 * /proc/<pid>/environ so the runner finds the desktop again when its state directory is lost. */
#define LAUNCHER_ENV_MARKER "BOTDESK_DESKTOP"
/* The start's handshake (see LAUNCHER_NOTIFY_* below): the fd number of the pipe's write end. */
#define LAUNCHER_ENV_NOTIFY_FD "BOTDESK_NOTIFY_FD"
/* Passed on from the caller when set, not built by the runner. */
#define LAUNCHER_ENV_DEBUG "BOTDESK_DEBUG"
#define LAUNCHER_ENV_DESKTOP_PROFILE "BOTDESK_DESKTOP_PROFILE" /* lean (default) or full */

/* The X directory (LAUNCHER_ENV_X_DIR), one meaning on both sides: the directory X keeps its
 * files in, /tmp to every X server and client. The runner reads and the session writes the lock
 * files .X<n>-lock there, both look for Xvnc's compiled keymaps server-<n>.xkm there, and the path
 * sockets X<n> are in its LAUNCHER_X_SOCKET_SUBDIR. Only the abstract names @/tmp/.X11-unix/X<n>
 * never move. Another value is for a whole X stack that follows it (the integration tests' fake
 * servers): a real X client still looks for the path socket under /tmp. */
#define LAUNCHER_X_DIR_DEFAULT "/tmp"
#define LAUNCHER_X_SOCKET_SUBDIR ".X11-unix"

/* The geometry's bounds on either side: the runner refuses a setting outside them, the session an
 * environment outside them. */
#define LAUNCHER_GEOMETRY_MIN 64
#define LAUNCHER_GEOMETRY_MAX 8192
#define LAUNCHER_DEFAULT_GEOMETRY "1440x900"

/* The longest idle stop: a week. */
#define LAUNCHER_IDLE_STOP_MAX_MS (7ULL * 24 * 3600 * 1000)
/* The runner's longest --wait; the session accepts a little more, for the runner's slack. */
#define LAUNCHER_WAIT_MAX_MS (3600ULL * 1000)
#define LAUNCHER_WAIT_ACCEPT_MAX_MS (LAUNCHER_WAIT_MAX_MS + 100ULL * 1000)

/* The profile directory's files the launcher publishes: the RFB socket (its gate's), and beside
 * it Xvnc's own RFB socket (only the gate connects to it) and the watchers' door (unless
 * LAUNCHER_ENV_VIEW_SOCKET names another place). */
#define LAUNCHER_SOCKET "rfb.sock"
#define LAUNCHER_XVNC_SOCKET "xvnc.sock"
#define LAUNCHER_VIEW_SOCKET "view.sock"

/* The handshake: the runner hands the launcher the write end of a pipe on LAUNCHER_NOTIFY_FD
 * (announced in LAUNCHER_ENV_NOTIFY_FD), as Xvnc's -displayfd does, instead of watching
 * directories. The launcher marks it close-on-exec at once, so none of its children holds it,
 * writes LAUNCHER_NOTIFY_CLAIMED "<display>\n" once its X lock names its live server (the runner
 * then lets other starts allocate), LAUNCHER_NOTIFY_READY "\n" once the env file and
 * LAUNCHER_SOCKET are in place, and closes it. The runner believes neither line on its own word:
 * it checks the lock and the published files, as before. EOF without "ready" is no answer: the
 * launcher's exit or the deadline decides. Each line is shorter than LAUNCHER_NOTIFY_LINE_MAX. */
#define LAUNCHER_NOTIFY_FD 3
#define LAUNCHER_NOTIFY_CLAIMED "claimed "
#define LAUNCHER_NOTIFY_READY "ready"
#define LAUNCHER_NOTIFY_LINE_MAX 32

/* The launcher's exit status when its display number turned out to be another X server's: the
 * start retries on a fresh number (EX_TEMPFAIL). */
#define LAUNCHER_EXIT_COLLISION 75

/* Stopping a desktop (or giving up on its launch): the runner sends TERM to the launcher's
 * process group and KILL LAUNCHER_STOP_GRACE_MS later. The session's whole teardown (TERM to its
 * children, its grace, KILL, reaping them) takes at most LAUNCHER_TEARDOWN_MS, then it removes
 * its claim on the display; a KILL that landed before that would leave the path socket (Xvnc does
 * not remove a socket it was handed) and the X lock behind. The difference is the room for those
 * unlinks on a loaded host. */
#define LAUNCHER_STOP_GRACE_MS 5000
#define LAUNCHER_TEARDOWN_MS 3000
static_assert(LAUNCHER_TEARDOWN_MS + 1000 <= LAUNCHER_STOP_GRACE_MS,
	      "the session's teardown must end well inside the runner's grace");
/* How long `botdesk run` waits for an owner's `botdesk stop` to finish (its start lock) once the
 * launcher ended: the stop's grace, its KILL and its tidying, with room to spare. */
#define LAUNCHER_STOP_FINISH_WAIT_MS (LAUNCHER_STOP_GRACE_MS + 5000)
static_assert(LAUNCHER_STOP_FINISH_WAIT_MS > LAUNCHER_STOP_GRACE_MS,
	      "run must outwait the stop's grace");
