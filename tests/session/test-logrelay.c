/* The desktop's log relay: two parts writing lines in pieces come out as whole lines, each
 * part's own, and launcher.log becomes launcher.log.1 at the cap. Runs in a child whose stdout
 * and stderr are the log, as the session's are. */
#include "../unit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "logrelay.h"
#include "util.h"

#define CAP 65536
#define LINES 400

static int relay_lines(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, LOGRELAY_FILE);
	int log = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log < 0 || dup2(log, STDOUT_FILENO) < 0 || dup2(log, STDERR_FILENO) < 0) {
		return 1;
	}
	close(log);
	struct logrelay l;
	int w[2];
	if (logrelay_init(&l, dir, STDERR_FILENO, CAP) < 0 || logrelay_source(&l, &w[0]) < 0 ||
	    logrelay_source(&l, &w[1]) < 0) {
		return 1;
	}
	char line[2][600];
	for (int i = 0; i < LINES; i++) {
		int len[2];
		for (int k = 0; k < 2; k++) {
			len[k] = snprintf(line[k], sizeof(line[k]), "part %d line %d %0*d\n", k, i,
					  100 + i % 400, 0);
		}
		/* Each line in three pieces, the two parts' pieces interleaved. */
		for (int piece = 0; piece < 3; piece++) {
			for (int k = 0; k < 2; k++) {
				int from = len[k] * piece / 3, to = len[k] * (piece + 1) / 3;
				if (write(w[k], line[k] + from, (size_t)(to - from)) != to - from) {
					return 1;
				}
				logrelay_pump(&l);
			}
		}
	}
	/* An unfinished last line, ended for it at the end. */
	if (write(w[0], "last words", 10) != 10) {
		return 1;
	}
	close(w[0]);
	close(w[1]);
	logrelay_flush(&l);
	logrelay_done(&l);
	return 0;
}

/* Every line of the file is one the parts wrote, whole; how many. */
static int check_file(const char *dir, const char *name, off_t max)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= max);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	char buf[1024];
	int n = 0;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		assert_true(len > 0 && buf[len - 1] == '\n');
		if (strcmp(buf, "last words\n") == 0) {
			n++;
			continue;
		}
		int k, i, consumed = 0;
		assert_int_equal(sscanf(buf, "part %d line %d %n", &k, &i, &consumed), 2);
		assert_int_equal(len - (size_t)consumed - 1, (size_t)(100 + i % 400));
		n++;
	}
	fclose(f);
	return n;
}

static void lines_stay_whole_and_the_log_rotates(void **state)
{
	char *dir = unit_mkdtemp();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		_exit(relay_lines(dir));
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* Each file ends at the line that crossed the cap. */
	int now = check_file(dir, LOGRELAY_FILE, CAP + LOGRELAY_LINE_MAX);
	int old = check_file(dir, LOGRELAY_OLD_FILE, CAP + LOGRELAY_LINE_MAX);
	assert_true(now > 0 && old > 0);
	/* The older rotations are gone: the two files hold less than what was written. */
	assert_true(now + old < 2 * LINES + 1);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_stay_whole_and_the_log_rotates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
