#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lease.h"

static const char good[] = "holder=human\nepoch=7\nsince=1718000000\nreason=2FA prompt\n";

static void parses_the_exact_shape(void **state)
{
	struct lease l;
	assert_int_equal(lease_parse(good, strlen(good), &l), 0);
	assert_int_equal(l.holder, LEASE_HUMAN);
	assert_int_equal(l.epoch, 7);
	assert_int_equal(l.since, 1718000000);
	assert_string_equal(l.reason, "2FA prompt");
	assert_false(l.unreadable);
	static const char agent[] = "holder=agent\nepoch=0\nsince=0\nreason=\n";
	assert_int_equal(lease_parse(agent, strlen(agent), &l), 0);
	assert_int_equal(l.holder, LEASE_AGENT);
	char buf[512];
	size_t len;
	struct lease h = {.holder = LEASE_HUMAN, .epoch = 7, .since = 1718000000};
	strcpy(h.reason, "2FA prompt");
	assert_int_equal(lease_format(&h, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, strlen(good));
	assert_memory_equal(buf, good, len);
}

/* Every text that is not exactly a lease is the human's: an agent never acts on a lease it
 * cannot prove. */
static void anything_else_is_the_humans(void **state)
{
	static const char *const bad[] = {
		"",
		"[]",
		"null",
		"5",
		"{}",
		"holder=agent\n",
		"holder=agent\nepoch=1\nsince=2\n",
		"holder=robot\nepoch=1\nsince=2\nreason=\n",
		"holder=agent\nepoch=-1\nsince=2\nreason=\n",
		"holder=agent\nepoch=1\nsince=2\nreason=\nextra=1\n",
		"holder=agent\nepoch=1\nsince=2\nreason=x",
		"holder=agent \nepoch=1\nsince=2\nreason=\n",
		"holder=agent\nsince=2\nepoch=1\nreason=\n",
		"holder=agent\nepoch=99999999999999999999\nsince=2\nreason=\n",
		"holder=agent\nepoch=1\nsince=2\nreason=a\tb\n",
		"holder=agent\r\nepoch=1\nsince=2\nreason=\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lease l = {.holder = LEASE_AGENT};
		assert_int_equal(lease_parse(bad[i], strlen(bad[i]), &l), -EINVAL);
		assert_int_equal(l.holder, LEASE_HUMAN);
		assert_true(l.unreadable);
	}
	static const char nul[] = "holder=agent\nepoch=1\nsince=2\nreason=\0\n";
	struct lease l;
	assert_int_equal(lease_parse(nul, sizeof(nul) - 1, &l), -EINVAL);
	assert_int_equal(l.holder, LEASE_HUMAN);
}

static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static void transitions_count_once(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	struct lease l;
	bool changed;
	assert_int_equal(lease_read_at(dfd, &l), 0);
	assert_int_equal(l.holder, LEASE_AGENT);
	assert_int_equal(l.epoch, 0);
	/* A release while the agent holds it is no transition, and writes nothing. */
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 100, &l, &changed), 0);
	assert_false(changed);
	assert_int_equal(l.epoch, 0);
	struct stat st;
	assert_int_equal(fstatat(dfd, LEASE_FILE, &st, 0), -1);
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, "login", 200, &l, &changed), 0);
	assert_true(changed);
	assert_int_equal(l.epoch, 1);
	/* A repeated take keeps the epoch, the time and the reason. */
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, "other", 300, &l, &changed), 0);
	assert_false(changed);
	assert_int_equal(l.epoch, 1);
	assert_int_equal(l.since, 200);
	assert_string_equal(l.reason, "login");
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 400, &l, &changed), 0);
	assert_true(changed);
	assert_int_equal(l.epoch, 2);
	assert_int_equal(lease_read_at(dfd, &l), 0);
	assert_int_equal(l.holder, LEASE_AGENT);
	assert_int_equal(l.epoch, 2);
	assert_int_equal(l.since, 400);
	/* Private, whatever the umask. */
	assert_int_equal(fstatat(dfd, LEASE_FILE, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(fstatat(dfd, LEASE_LOCK, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, "a\nb", 500, &l, &changed), -EINVAL);
	close(dfd);
	unit_rm_rf(dir);
}

/* A corrupt file reads as the human's, and the next write repairs it, continuing the count. */
static void corrupt_fails_closed_and_is_repaired(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	unit_write(dir, LEASE_FILE, "holder=agent\nepoch=5\nsince=x\nreason=\n");
	struct lease l;
	bool changed;
	assert_int_equal(lease_read_at(dfd, &l), -EINVAL);
	assert_int_equal(l.holder, LEASE_HUMAN);
	assert_true(l.unreadable);
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, NULL, 10, &l, &changed), 0);
	assert_true(changed);
	assert_int_equal(l.epoch, 6);
	assert_int_equal(lease_read_at(dfd, &l), 0);
	assert_false(l.unreadable);
	assert_int_equal(l.holder, LEASE_HUMAN);
	/* A symlink is never followed: the lease reads as unreadable, its target is untouched. */
	unit_write(dir, "target", good);
	assert_int_equal(unlinkat(dfd, LEASE_FILE, 0), 0);
	assert_int_equal(symlinkat("target", dfd, LEASE_FILE), 0);
	assert_int_equal(lease_read_at(dfd, &l), -ELOOP);
	assert_int_equal(l.holder, LEASE_HUMAN);
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 20, &l, &changed), 0);
	assert_true(changed);
	struct stat st;
	assert_int_equal(fstatat(dfd, LEASE_FILE, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	char buf[512];
	FILE *f = fopen(strcat(strcpy(buf, dir), "/target"), "re");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(n, strlen(good));
	close(dfd);
	unit_rm_rf(dir);
}

/* Concurrent writers each see the other's result: 40 alternating changes from two processes
 * leave an epoch that counts each real change once. */
static void concurrent_changes_are_serialised(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	pid_t kids[2];
	for (int k = 0; k < 2; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			int changes = 0;
			for (int i = 0; i < 20; i++) {
				struct lease l;
				bool changed;
				if (lease_set_at(dfd, i % 2 ? LEASE_AGENT : LEASE_HUMAN, NULL, i,
						 &l, &changed) < 0) {
					_exit(255);
				}
				changes += changed;
			}
			_exit(changes);
		}
	}
	int total = 0;
	for (int k = 0; k < 2; k++) {
		int status;
		assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 255);
		total += WEXITSTATUS(status);
	}
	struct lease l;
	assert_int_equal(lease_read_at(dfd, &l), 0);
	assert_int_equal(l.epoch, (uint64_t)total);
	close(dfd);
	unit_rm_rf(dir);
}

static void applied_round_trip(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	uint64_t e;
	assert_int_equal(lease_applied_read_at(dfd, &e), -ENOENT);
	assert_int_equal(lease_applied_write_at(dfd, 42), 0);
	assert_int_equal(lease_applied_read_at(dfd, &e), 0);
	assert_int_equal(e, 42);
	unit_write(dir, LEASE_APPLIED_FILE, "42");
	assert_int_equal(lease_applied_read_at(dfd, &e), -EINVAL);
	close(dfd);
	unit_rm_rf(dir);
}

/* The agent's request for a human: beside the lease (which stays four lines), replaced by a new
 * one, removed by any change of the lease, and no request when it is not exactly its shape. */
static void the_request_beside_the_lease(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	struct lease_request rq;
	struct lease l;
	bool changed;
	assert_int_equal(lease_request_read_at(dfd, &rq), -ENOENT);
	assert_int_equal(lease_request_set_at(dfd, "a CAPTCHA", 1000, &rq), 0);
	assert_int_equal(lease_request_set_at(dfd, "the second", 1001, &rq), 0);
	memset(&rq, 0, sizeof(rq));
	assert_int_equal(lease_request_read_at(dfd, &rq), 0);
	assert_string_equal(rq.reason, "the second");
	assert_int_equal(rq.since, 1001);
	/* The lease itself is still the agent's, as any reader of the four lines sees it. */
	assert_int_equal(lease_read_at(dfd, &l), 0);
	assert_int_equal(l.holder, LEASE_AGENT);
	assert_false(l.unreadable);
	/* A take answers it. */
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, NULL, 1002, &l, &changed), 0);
	assert_int_equal(lease_request_read_at(dfd, &rq), -ENOENT);
	/* Asked while a human holds it; the release ends it. */
	assert_int_equal(lease_request_set_at(dfd, NULL, 1003, &rq), 0);
	assert_int_equal(lease_request_read_at(dfd, &rq), 0);
	assert_string_equal(rq.reason, "");
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 1004, &l, &changed), 0);
	assert_int_equal(lease_request_read_at(dfd, &rq), -ENOENT);
	assert_int_equal(lease_request_set_at(dfd, "two\nlines", 1005, &rq), -EINVAL);
	/* Not its shape: no request. */
	static const char *const bad[] = {"since=1\n", "since=x\nreason=\n",
					  "since=1\nreason=a\nmore=1\n", "reason=a\nsince=1\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unit_write(dir, LEASE_REQUEST_FILE, bad[i]);
		assert_int_equal(lease_request_read_at(dfd, &rq), -ENOENT);
	}
	close(dfd);
	unit_rm_rf(dir);
}

/* The agent's watch: any change of the lease after it began stops it, a take's quiesce waits for
 * the event under way, and a lease that was never the agent's refuses from the start. */
static void the_watch_stops_at_a_take(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open_dir(dir);
	struct lease l;
	bool changed;
	struct lease_watch w = LEASE_WATCH_INIT;
	/* Never begun: everything passes (the tests' typist). */
	assert_int_equal(lease_watch_enter(&w), 0);
	lease_watch_end(&w);
	/* No file: the agent's, until one appears. */
	assert_int_equal(lease_watch_begin(dfd, &w, &l), 0);
	assert_int_equal(lease_watch_enter(&w), 0);
	/* Inside, a take waits (its bound here is short). */
	assert_int_equal(lease_quiesce_at(dfd, 50), -ETIMEDOUT);
	lease_watch_leave(&w);
	assert_int_equal(lease_quiesce_at(dfd, 50), 0);
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, NULL, 100, &l, &changed), 0);
	assert_int_equal(lease_watch_enter(&w), -EACCES);
	/* Refused, the lock is not held: a take does not wait. */
	assert_int_equal(lease_quiesce_at(dfd, 50), 0);
	lease_watch_end(&w);
	assert_int_equal(lease_watch_begin(dfd, &w, &l), -EACCES);
	assert_int_equal(l.holder, LEASE_HUMAN);
	/* Handed back, then taken and handed back again between two events: the epoch moved, so
	 * the action that began before stops, though the agent holds the lease again. */
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 200, &l, &changed), 0);
	assert_int_equal(lease_watch_begin(dfd, &w, &l), 0);
	assert_int_equal(l.epoch, 2);
	assert_int_equal(lease_watch_enter(&w), 0);
	lease_watch_leave(&w);
	assert_int_equal(lease_set_at(dfd, LEASE_HUMAN, NULL, 300, &l, &changed), 0);
	assert_int_equal(lease_set_at(dfd, LEASE_AGENT, NULL, 400, &l, &changed), 0);
	assert_int_equal(lease_watch_enter(&w), -EACCES);
	lease_watch_end(&w);
	lease_watch_end(&w);
	/* An unreadable lease refuses. */
	unit_write(dir, LEASE_FILE, "holder=agent\n");
	assert_int_equal(lease_watch_begin(dfd, &w, &l), -EACCES);
	assert_true(l.unreadable);
	close(dfd);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_exact_shape),
		cmocka_unit_test(anything_else_is_the_humans),
		cmocka_unit_test(transitions_count_once),
		cmocka_unit_test(corrupt_fails_closed_and_is_repaired),
		cmocka_unit_test(concurrent_changes_are_serialised),
		cmocka_unit_test(applied_round_trip),
		cmocka_unit_test(the_request_beside_the_lease),
		cmocka_unit_test(the_watch_stops_at_a_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
