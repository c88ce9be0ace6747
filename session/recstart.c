/* The flight recorder of `record = always` (common/recording.h): botdesk-record beside us,
 * started once the gate's doors are up, watching through the view door like any viewer. A child
 * of ours with TERM as its parent-death signal, so it ends with the desktop and still closes its
 * recording; not essential: a recorder that fails leaves the desktop running (its error is in
 * launcher.log). */
#include "recstart.h"

#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "pathjoin.h"
#include "run.h"
#include "spawnproc.h"
#include "util.h"

int recstart_spawn(struct run *run)
{
	const struct session_config *cfg = run->cfg;
	if (cfg->record_max_mb == 0) {
		return 0;
	}
	char self[4096], prog[4096], mb[32];
	int r = path_format(self, sizeof(self), "%s", run->self);
	if (r == 0) {
		r = path_join(prog, sizeof(prog), dirname(self), "botdesk-record");
	}
	if (r < 0) {
		return r;
	}
	snprintf(mb, sizeof(mb), "%llu", (unsigned long long)cfg->record_max_mb);
	struct strv argv = {0};
	r = strv_push(&argv, prog);
	r = r < 0 ? r : strv_push(&argv, "record");
	r = r < 0 ? r : strv_push(&argv, "--state");
	r = r < 0 ? r : strv_push(&argv, cfg->state_dir);
	r = r < 0 ? r : strv_push(&argv, "--view");
	r = r < 0 ? r : strv_push(&argv, cfg->view_socket_path);
	r = r < 0 ? r : strv_push(&argv, "--max-mb");
	r = r < 0 ? r : strv_push(&argv, mb);
	_cleanup_close_ int log = components_log_fd(run);
	struct spawn_fd fds[2];
	size_t n_fds = 0;
	if (log >= 0) {
		fds[n_fds++] = (struct spawn_fd){log, STDOUT_FILENO};
		fds[n_fds++] = (struct spawn_fd){log, STDERR_FILENO};
	}
	struct spawn_opts o = {.fds = fds, .n_fds = n_fds, .parent_death_signal = SIGTERM};
	pid_t pid;
	if (r == 0) {
		r = spawn_program(prog, argv.v, run->env.v, &o, &pid);
	}
	strv_free(&argv);
	if (r < 0) {
		log_warn("cannot start the recorder %s: %s", prog, strerror(-r));
		return r;
	}
	return supervisor_watch(&run->sv, "botdesk-record", pid, false);
}
