#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>

#include "unixsock.h"

static int listener(const char *dir, struct sockaddr_un *sa, int backlog)
{
	*sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/s", dir);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)sa, sizeof(*sa)), 0);
	assert_int_equal(listen(fd, backlog), 0);
	return fd;
}

/* Connected, close-on-exec, blocking unless asked; the listener sees the connection. */
static void connects(void **state)
{
	char *dir = unit_mkdtemp();
	struct sockaddr_un sa;
	int l = listener(dir, &sa, 4);
	int fd = unix_connect(&sa, 0);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	int nb = unix_connect(&sa, SOCK_NONBLOCK);
	assert_true(nb >= 0);
	assert_true(fcntl(nb, F_GETFL) & O_NONBLOCK);
	int a = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	assert_true(a >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	char c = 0;
	assert_int_equal(read(a, &c, 1), 1);
	assert_int_equal(c, 'x');
	close(a);
	close(nb);
	close(fd);
	close(l);
	unit_rm_rf(dir);
}

/* Nothing listening is the error connect() gives, and no fd is left behind. */
static void refused(void **state)
{
	char *dir = unit_mkdtemp();
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/none", dir);
	int before = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(before >= 0);
	close(before);
	assert_int_equal(unix_connect(&sa, 0), -ENOENT);
	int after = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(after, before);
	close(after);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(connects),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
