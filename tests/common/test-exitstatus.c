#include "unit.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "exitstatus.h"

/* A wait status as the kernel builds one: the exit code in the second byte, or the signal. */
#define EXITED(n) ((n) << 8)
#define SIGNALLED(s) (s)

static void sentence_names_the_status_or_the_signal(void **state)
{
	char buf[64];
	exit_status_describe(EXITED(1), EXIT_STATUS_SENTENCE, buf, sizeof(buf));
	assert_string_equal(buf, "exited with status 1");
	exit_status_describe(SIGNALLED(SIGKILL), EXIT_STATUS_SENTENCE, buf, sizeof(buf));
	assert_true(strncmp(buf, "was killed by signal 9 (", 24) == 0);
}

static void noun_form_fits_in_a_parenthesis(void **state)
{
	char buf[64];
	exit_status_describe(EXITED(0), EXIT_STATUS_NOUN, buf, sizeof(buf));
	assert_string_equal(buf, "exit status 0");
	exit_status_describe(SIGNALLED(SIGTERM), EXIT_STATUS_NOUN, buf, sizeof(buf));
	assert_true(strncmp(buf, "signal 15 (", 11) == 0);
}

static void a_real_child_is_described_by_its_wait_status(void **state)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		_exit(3);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	char buf[8];
	/* Too small a buffer cuts the text and still ends it. */
	exit_status_describe(status, EXIT_STATUS_SENTENCE, buf, sizeof(buf));
	assert_string_equal(buf, "exited ");
}

/* 2 and 4 come from what the cause said, never from the errno: EACCES is a human's lease and an
 * --output nobody may write alike (issue 23). */
static void the_kind_not_the_errno_picks_the_status(void **state)
{
	struct error err = {{0}};
	assert_int_equal(exit_status_of(0, &err), 0);
	assert_int_equal(exit_status_of(-EACCES, &err), EXIT_FAILURE);
	assert_int_equal(exit_status_of(-EINVAL, &err), EXIT_FAILURE);
	assert_int_equal(exit_status_of(-EACCES, NULL), EXIT_FAILURE);
	assert_int_equal(error_set_kind(&err, ERROR_HUMAN_HOLDS, -EACCES, "a human holds it"),
			 -EACCES);
	assert_int_equal(exit_status_of(-EACCES, &err), EXIT_HUMAN);
	err = (struct error){{0}};
	(void)error_set_kind(&err, ERROR_BAD_INPUT, -EINVAL, "off the screen");
	assert_int_equal(exit_status_of(-EINVAL, &err), EXIT_USAGE);
	assert_int_equal(exit_status_of(-EINTR, NULL), EXIT_INTERRUPTED);
}

/* The kind goes with its message: a cause already said keeps its kind, and a replaced message
 * no longer carries the old one. */
static void the_first_cause_keeps_its_kind(void **state)
{
	struct error err = {{0}};
	(void)error_set(&err, -EACCES, "cannot write out.png");
	(void)error_set_kind(&err, ERROR_HUMAN_HOLDS, -EACCES, "a human holds it");
	assert_string_equal(err.msg, "cannot write out.png");
	assert_int_equal(exit_status_of(-EACCES, &err), EXIT_FAILURE);
	err = (struct error){{0}};
	(void)error_set_kind(&err, ERROR_HUMAN_HOLDS, -EACCES, "a human holds it");
	(void)error_replace(&err, -EIO, "the X server went away");
	assert_int_equal(exit_status_of(-EIO, &err), EXIT_FAILURE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sentence_names_the_status_or_the_signal),
		cmocka_unit_test(noun_form_fits_in_a_parenthesis),
		cmocka_unit_test(a_real_child_is_described_by_its_wait_status),
		cmocka_unit_test(the_kind_not_the_errno_picks_the_status),
		cmocka_unit_test(the_first_cause_keeps_its_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
