/* botdesk.conf and the BOTDESK_* environment, through the real loader: the input's first line
 * goes to the environment as NAME=VALUE pairs separated by ';', the rest is the config file.
 * Loading must never crash or leak, and whatever loads must be in bounds. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-text.h"
#include "settings.h"

static char dir[64];

static void set_env_pairs(char *line)
{
	char *save = NULL;
	for (char *kv = strtok_r(line, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(kv, '=');
		if (eq && strncmp(kv, "BOTDESK_", 8) == 0) {
			*eq = '\0';
			setenv(kv, eq + 1, 1);
		}
	}
}

static void clear_env(void)
{
	extern char **environ;
	for (size_t i = 0; environ[i];) {
		if (strncmp(environ[i], "BOTDESK_", 8) == 0) {
			/* The whole name, however long: a cut one would never be removed and this
			 * loop would spin (a timeout the fuzzer found in the harness itself). */
			char *name = strndup(environ[i], strcspn(environ[i], "="));
			if (!name || unsetenv(name) < 0) {
				abort();
			}
			free(name);
			continue;
		}
		i++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-settings.%ld", (long)getpid());
		char sub[128];
		snprintf(sub, sizeof(sub), "%s/botdesk", dir);
		mkdir(dir, 0700);
		mkdir(sub, 0700);
		setenv("XDG_CONFIG_HOME", dir, 1);
		setenv("HOME", dir, 1);
	}
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	char *nl = strchr(s, '\n');
	const char *conf = nl ? nl + 1 : "";
	if (nl) {
		*nl = '\0';
	}
	clear_env();
	set_env_pairs(s);
	char path[128];
	snprintf(path, sizeof(path), "%s/botdesk/botdesk.conf", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		size_t len = strlen(conf);
		if (write(fd, conf, len) != (ssize_t)len) {
			abort();
		}
		close(fd);
	}
	struct settings st;
	struct error err = {0};
	if (settings_load(&st, &err) == 0) {
		if (st.band_lo > st.band_hi || st.width < 64 || st.height > 8192 || !st.launcher) {
			abort();
		}
		settings_free(&st);
	} else if (!err.msg[0]) {
		/* Every refusal says why, except running out of memory. */
		abort();
	}
	free(s);
	return 0;
}
