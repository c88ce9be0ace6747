/* The shared host's figures (issue 12), on real desktops. Run as root:
 *   bench-host BOTDESK SESSION USER_A USER_B [STORM=16] [LIST_DESKTOPS=20] [ROUNDS=20]
 * 1. the storm: STORM desktops started at once, half as USER_A, half as USER_B; each start must
 *    return 0 (it returns once its desktop is usable: the window manager owns the screen) and
 *    `exec xdpyinfo` must then work on every one; prints the time to the last usable desktop;
 * 2. USER_B's desktops stopped and USER_A's topped up to LIST_DESKTOPS: the whole-process time of
 *    `botdesk list` (as USER_A) and `botdesk list --all` (as root), median of ROUNDS;
 * 3. every desktop stopped, then the leaks: X locks and sockets of the band, processes naming the
 *    bench's state, cgroups.
 * It runs in a mount namespace of its own whose /etc/botdesk/policy.conf (on an overlay) raises
 * the per-user cap to 32, so one user may hold LIST_DESKTOPS desktops; the host's /etc is
 * untouched. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"

#define BAND "100-199"
#define BAND_LO 100
#define BAND_HI 199
#define MAX_DESKTOPS 64

static const char *botdesk, *session;
static char scratch[256];

/* Starts botdesk ARGS as user (NULL: root), output to /dev/null; returns its pid. */
static pid_t spawn_as(const char *user, const char *const args[])
{
	pid_t pid = fork();
	if (pid != 0) {
		return pid;
	}
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(null, 1);
	if (!getenv("BENCH_VERBOSE")) {
		dup2(null, 2);
	}
	char home[512] = "HOME=/root", state[512], cfg[512], userv[128];
	snprintf(state, sizeof(state), "BOTDESK_STATE_DIR=%s/state-%s", scratch,
		 user ? user : "root");
	snprintf(cfg, sizeof(cfg), "XDG_CONFIG_HOME=%s/config", scratch);
	snprintf(userv, sizeof(userv), "USER=%s", user ? user : "root");
	if (user) {
		struct passwd *pw = getpwnam(user);
		if (!pw || initgroups(user, pw->pw_gid) < 0 ||
		    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
		    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0) {
			_exit(126);
		}
		snprintf(home, sizeof(home), "HOME=%s", pw->pw_dir);
	}
	char launcher[512];
	snprintf(launcher, sizeof(launcher), "BOTDESK_LAUNCHER=%s", session);
	const char *envs[] = {home,
			      userv,
			      state,
			      cfg,
			      launcher,
			      "PATH=/usr/local/bin:/usr/bin:/bin",
			      "LANG=C.UTF-8",
			      "BOTDESK_MIN_FREE_MB=0",
			      "BOTDESK_DISPLAY_BAND=" BAND};
	/* execve takes writable strings: copies, in the child that is about to exec. */
	char *env[16] = {0}, *argv[16] = {strdup(botdesk)};
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		env[i] = strdup(envs[i]);
	}
	for (int i = 0; args[i] && i < 14; i++) {
		argv[i + 1] = strdup(args[i]);
	}
	execve(botdesk, argv, env);
	_exit(127);
}

static int run_as(const char *user, const char *const args[])
{
	return bench_wait(spawn_as(user, args));
}

static double time_as(const char *user, const char *const args[])
{
	double t0 = bench_now_ms();
	int rc = run_as(user, args);
	return rc == 0 ? bench_now_ms() - t0 : -1;
}

/* A mount namespace whose /etc is an overlay with our policy: the host's /etc is untouched. */
static int private_policy(void)
{
	char upper[300], work[300], opts[1024];
	snprintf(upper, sizeof(upper), "%s/etc-upper", scratch);
	snprintf(work, sizeof(work), "%s/etc-work", scratch);
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("bench", scratch, "tmpfs", 0, "mode=0755") < 0 || mkdir(upper, 0755) < 0 ||
	    mkdir(work, 0755) < 0) {
		return -errno;
	}
	snprintf(opts, sizeof(opts), "lowerdir=/etc,upperdir=%s,workdir=%s", upper, work);
	if (mount("overlay", "/etc", "overlay", 0, opts) < 0) {
		return -errno;
	}
	mkdir("/etc/botdesk", 0755);
	FILE *f = fopen("/etc/botdesk/policy.conf", "we");
	if (!f) {
		return -errno;
	}
	fputs("# bench-host: one user may hold every desktop of the figure\n"
	      "max_desktops_per_user = 32\n",
	      f);
	fclose(f);
	return 0;
}

static void own_dir(const char *name, const char *user)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	mkdir(path, 0700);
	struct passwd *pw = user ? getpwnam(user) : NULL;
	if (pw && chown(path, pw->pw_uid, pw->pw_gid) < 0) {
		perror(path);
	}
}

/* Leaks: X locks and sockets of the band, processes whose command line or environment names the
 * bench's state. */
static int leaks(void)
{
	int n = 0;
	char path[512];
	struct stat st;
	for (int d = BAND_LO; d <= BAND_HI; d++) {
		snprintf(path, sizeof(path), "/tmp/.X%d-lock", d);
		n += lstat(path, &st) == 0;
		snprintf(path, sizeof(path), "/tmp/.X11-unix/X%d", d);
		n += lstat(path, &st) == 0;
	}
	DIR *dir = opendir("/proc");
	struct dirent *de;
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9') {
			continue;
		}
		static char buf[1 << 16];
		const char *files[] = {"cmdline", "environ"};
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "/proc/%s/%s", de->d_name, files[i]);
			int fd = open(path, O_RDONLY);
			ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
			if (fd >= 0) {
				close(fd);
			}
			if (len > 0 && memmem(buf, (size_t)len, scratch, strlen(scratch))) {
				n++;
				fprintf(stderr, "leak: pid %s\n", de->d_name);
				break;
			}
		}
	}
	if (dir) {
		closedir(dir);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 5 || geteuid() != 0) {
		fprintf(stderr,
			"usage (as root): %s BOTDESK SESSION USER_A USER_B [STORM] [LIST_DESKTOPS] "
			"[ROUNDS]\n",
			argv[0]);
		return 2;
	}
	botdesk = argv[1];
	session = argv[2];
	const char *ua = argv[3], *ub = argv[4];
	int storm = argc > 5 ? atoi(argv[5]) : 16;
	int listn = argc > 6 ? atoi(argv[6]) : 20;
	int rounds = argc > 7 ? atoi(argv[7]) : 20;
	if (storm < 2 || storm > MAX_DESKTOPS || listn < 1 || listn > 32 || rounds < 1) {
		fprintf(stderr, "STORM 2-%d, LIST_DESKTOPS 1-32, ROUNDS >= 1\n", MAX_DESKTOPS);
		return 2;
	}
	snprintf(scratch, sizeof(scratch), "/tmp/bench-host.XXXXXX");
	if (!mkdtemp(scratch) || chmod(scratch, 0755) < 0) {
		perror("mkdtemp");
		return 1;
	}
	int r = private_policy();
	if (r < 0) {
		fprintf(stderr, "cannot set up the private policy: %s\n", strerror(-r));
		return 1;
	}
	own_dir("config", NULL);
	chmod(scratch, 0755);
	char cfgpath[512];
	snprintf(cfgpath, sizeof(cfgpath), "%s/config", scratch);
	chmod(cfgpath, 0755);
	own_dir("state-root", NULL);
	char sa[64], sb[64];
	snprintf(sa, sizeof(sa), "state-%s", ua);
	snprintf(sb, sizeof(sb), "state-%s", ub);
	own_dir(sa, ua);
	own_dir(sb, ub);

	/* 1. The storm. */
	pid_t pids[MAX_DESKTOPS];
	char names[MAX_DESKTOPS][32];
	double t0 = bench_now_ms(), last = 0;
	for (int i = 0; i < storm; i++) {
		snprintf(names[i], sizeof(names[i]), "s%02d", i);
		const char *args[] = {"--profile", names[i], "start", "--wait", "300", NULL};
		pids[i] = spawn_as(i % 2 ? ub : ua, args);
	}
	int ok = 0;
	for (int i = 0; i < storm; i++) {
		if (bench_wait(pids[i]) == 0) {
			ok++;
			double t = bench_now_ms() - t0;
			last = t > last ? t : last;
		}
	}
	int usable = 0;
	for (int i = 0; i < storm; i++) {
		const char *args[] = {"--profile", names[i], "exec", "--", "xdpyinfo", NULL};
		usable += run_as(i % 2 ? ub : ua, args) == 0;
	}
	printf("storm: %d desktops started at once as two users: %d started, %d usable (exec "
	       "xdpyinfo); the last usable after %.2f s\n",
	       storm, ok, usable, last / 1000);

	/* 2. The list figures with listn desktops running. */
	for (int i = 1; i < storm; i += 2) {
		const char *args[] = {"--profile", names[i], "stop", NULL};
		run_as(ub, args);
	}
	int have = (storm + 1) / 2;
	char extra[32][32];
	int nextra = 0;
	for (int i = have; i < listn && nextra < 32; i++, nextra++) {
		snprintf(extra[nextra], sizeof(extra[nextra]), "x%02d", i);
		const char *args[] = {"--profile", extra[nextra], "start", "--wait", "300", NULL};
		if (run_as(ua, args) != 0) {
			fprintf(stderr, "start of %s failed\n", extra[nextra]);
		}
	}
	/* Settled: every session has published its first memory figure (2 s after its start)
	 * and the start-up's page faults are over. A bench may wait; a test may not. */
	sleep(5);
	double lt[256], lj[256], la[256], lv[256];
	int n_lt = 0, n_lj = 0, n_la = 0, n_lv = 0;
	for (int i = 0; i < rounds && i < 256; i++) {
		const char *a1[] = {"list", NULL};
		const char *a2[] = {"list", "--json", NULL};
		const char *a3[] = {"list", "--all", NULL};
		double t;
		if ((t = time_as(ua, a1)) >= 0) {
			lt[n_lt++] = t;
		}
		if ((t = time_as(ua, a2)) >= 0) {
			lj[n_lj++] = t;
		}
		if ((t = time_as(NULL, a3)) >= 0) {
			la[n_la++] = t;
		}
		const char *a4[] = {"--version", NULL};
		if ((t = time_as(ua, a4)) >= 0) {
			lv[n_lv++] = t;
		}
	}
	bench_sort(lt, (size_t)n_lt);
	bench_sort(lj, (size_t)n_lj);
	bench_sort(la, (size_t)n_la);
	bench_sort(lv, (size_t)n_lv);
	if (n_lt && n_lj && n_la) {
		printf("list with %d desktops of the user running (whole process): median %.2f ms, "
		       "p90 %.2f ms, min %.2f ms\n",
		       listn, lt[n_lt / 2], lt[n_lt * 9 / 10], lt[0]);
		printf("list --json, the same: median %.2f ms, p90 %.2f ms\n", lj[n_lj / 2],
		       lj[n_lj * 9 / 10]);
		printf("list --all as root with %d desktops on the host: median %.2f ms, p90 %.2f "
		       "ms, min %.2f ms\n",
		       listn, la[n_la / 2], la[n_la * 9 / 10], la[0]);
		if (n_lv) {
			printf("for scale, botdesk --version the same way (fork, switch user, "
			       "exec, "
			       "exit): median %.2f ms\n",
			       lv[n_lv / 2]);
		}
	} else {
		printf("list failed (%d, %d, %d runs succeeded)\n", n_lt, n_lj, n_la);
	}

	/* 3. Stop everything; count what is left. */
	for (int i = 0; i < storm; i += 2) {
		const char *args[] = {"--profile", names[i], "stop", NULL};
		run_as(ua, args);
	}
	for (int i = 0; i < nextra; i++) {
		const char *args[] = {"--profile", extra[i], "stop", NULL};
		run_as(ua, args);
	}
	int left = leaks();
	printf("leaks after stopping every desktop: %d (X locks and sockets of the band, "
	       "processes naming the bench's state)\n",
	       left);
	return ok == storm && usable == storm && left == 0 ? 0 : 1;
}
