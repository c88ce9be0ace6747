/* botdesk-act PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: one action on a
 * desktop, run by `botdesk ACTION` once it has checked the arguments, that the desktop runs and
 * that the agent holds it. A program of its own so that only the actions load X libraries, and
 * a small one: the pointer commands (click, move, drag, scroll) go through XCB (xptr.h), two
 * libraries; everything else is handed, arguments and directory as they are, to
 * botdesk-act-full beside it, which loads Xlib, XKB and the encoders. Exit 0; 1 failure; 2 bad
 * input; 4 a human holds the desktop. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "actargs.h"
#include "actlog.h"
#include "actprint.h"
#include "control.h"
#include "desktop.h"
#include "log.h"
#include "parse.h"
#include "util.h"
#include "xptr.h"

#define FULL_PROGRAM "botdesk-act-full"

/* The lease, read again right before the desktop is touched. */
static int lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

static bool is_pointer(enum act_cmd cmd)
{
	return cmd == ACT_CLICK || cmd == ACT_MOVE || cmd == ACT_DRAG || cmd == ACT_SCROLL;
}

/* botdesk-act-full from the directory this program runs from: the build tree's beside the
 * build tree's, the installed one beside the installed one. Returns only on failure. */
static int exec_full(char **argv, struct error *err)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n < 0) {
		return error_set(err, negative_errno(), "cannot find %s: %s", FULL_PROGRAM,
				 strerror(errno));
	}
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + sizeof(FULL_PROGRAM) > sizeof(path)) {
		return error_set(err, -ENAMETOOLONG, "cannot find %s", FULL_PROGRAM);
	}
	memcpy(slash + 1, FULL_PROGRAM, sizeof(FULL_PROGRAM));
	argv[0] = path;
	execv(path, argv);
	int r = negative_errno();
	return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?", path,
			 strerror(-r));
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	unsigned dirfd;
	if (argc < 8 || strlen(argv[1]) > PROFILE_NAME_MAX ||
	    parse_uint_range(argv[3], 3, 65535, &dirfd) < 0 || fcntl((int)dirfd, F_GETFD) < 0) {
		log_error("usage: botdesk-act PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION "
			  "[ARG...] (run by 'botdesk ACTION')");
		return ACTPRINT_EXIT_USAGE;
	}
	struct error err = {{0}};
	struct act_req rq;
	if (act_parse_argv(argc - 7, argv + 7, &rq, &err) < 0) {
		log_error("%s", err.msg);
		fputs("Try 'botdesk --help'.\n", stderr);
		return ACTPRINT_EXIT_USAGE;
	}
	if (!is_pointer(rq.cmd)) {
		(void)exec_full(argv, &err);
		log_error("%s", err.msg);
		return EXIT_FAILURE;
	}
	/* From here on the directory is ours alone: no child of ours inherits it. */
	(void)fcntl((int)dirfd, F_SETFD, FD_CLOEXEC);
	struct profile p = {.dir = argv[2], .dirfd = (int)dirfd};
	snprintf(p.name, sizeof(p.name), "%s", argv[1]);
	bool log_text = streq(argv[6], "1");
	struct xptr x;
	int r = xptr_open(&x, argv[4], argv[5], &err);
	if (r == 0) {
		struct act_out out;
		r = xptr_run(&x, &rq, &out, lease_check, &p, &err);
		if (r != -EACCES) {
			actlog_stamp_activity(&p);
			_cleanup_free_ char *line = actlog_line("cli", &rq, &out, r, log_text);
			if (line && actlog_append(p.dirfd, line) < 0) {
				log_warn("cannot append to %s/%s", p.dir, ACTLOG_FILE);
			}
		}
		if (r == 0) {
			actprint_result(&rq, &out);
		}
		/* Not closed: the server frees everything of ours when the process ends, and the
		 * events were synced. A sanitizer build closes it, for the leak checker. */
#ifdef BOTDESK_SANITIZED
		xcb_disconnect(x.c);
#endif
	}
	fflush(stdout);
	return actprint_exit(r, &err);
}
