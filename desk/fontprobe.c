#include "fontprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"

/* fc-list answers from its cache in milliseconds; a first run that builds the cache is slower. */
#define PROBE_TIMEOUT_MS 10000

extern char **environ;

/* Whether fc_list prints any font for pattern: one byte of output is enough. */
static int any_font(const char *fc_list, const char *pattern, bool *ret)
{
	_cleanup_close_ int rd = -1, wr = -1, null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int p[2];
	if (null < 0 || pipe2(p, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	rd = p[0];
	wr = p[1];
	const struct spawn_fd fds[] = {{wr, STDOUT_FILENO}, {null, STDERR_FILENO}};
	const struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	static char family[] = "family";
	char *const argv[] = {(char *)(uintptr_t)fc_list, (char *)(uintptr_t)pattern, family, NULL};
	pid_t pid;
	int r = spawn_program(fc_list, argv, environ, &o, &pid);
	if (r < 0) {
		return r;
	}
	wr = safe_close(wr);
	bool found = false;
	uint64_t deadline = now_ms() + PROBE_TIMEOUT_MS;
	r = 0;
	for (;;) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		struct pollfd pfd = {.fd = rd, .events = POLLIN};
		int n = poll(&pfd, 1, (int)(deadline - now));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			r = n < 0 ? negative_errno() : -ETIMEDOUT;
			break;
		}
		char buf[256];
		ssize_t got = read(rd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got <= 0) {
			break;
		}
		found = true;
	}
	/* Whatever it still does, it is not needed any more: the wait below cannot hang. */
	if (r < 0) {
		kill(pid, SIGKILL);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return negative_errno();
		}
	}
	if (r < 0) {
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		return -EIO;
	}
	*ret = found;
	return 0;
}

int fonts_probe(const char *fc_list, unsigned *ret_missing)
{
	static const struct {
		const char *pattern;
		unsigned bit;
	} want[] = {
		/* Japanese needs kana and the common kanji: a font with it draws Chinese and
		 * Korean too in practice (Noto CJK does all three). */
		{":lang=ja", FONTS_MISSING_CJK},
		/* fontconfig's emoji orthography (und-zsye): what a colour emoji font covers. */
		{":lang=und-zsye", FONTS_MISSING_EMOJI},
	};
	unsigned missing = 0;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		bool found = false;
		int r = any_font(fc_list, want[i].pattern, &found);
		if (r < 0) {
			*ret_missing = FONTS_MISSING_CJK | FONTS_MISSING_EMOJI;
			return r;
		}
		if (!found) {
			missing |= want[i].bit;
		}
	}
	*ret_missing = missing;
	return 0;
}
