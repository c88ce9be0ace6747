#include "unit.h"

#include <signal.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sentence_names_the_status_or_the_signal),
		cmocka_unit_test(noun_form_fits_in_a_parenthesis),
		cmocka_unit_test(a_real_child_is_described_by_its_wait_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
