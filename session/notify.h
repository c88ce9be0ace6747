/* The session's end of the start's handshake (common/launcher.h, LAUNCHER_NOTIFY_*): the pipe the
 * runner handed it, told "claimed <n>" and then "ready" as the bring-up gets there. */
#pragma once

/* Takes the announced fd: close-on-exec from now on (no child of ours may keep the runner waiting
 * or write into its pipe), and it must be the write end of a pipe. -EBADF when it is not open,
 * -EINVAL when it is something else. fd -1 (no handshake) is fine. */
int notify_take(int fd);

/* Writes one line (the newline is added). Best effort: a runner that went away (EPIPE) or a
 * broken pipe closes the fd, and the bring-up goes on without it. */
void notify_send(int *fd, const char *line);

/* The last line: sends it and closes the fd, so the runner sees EOF right after. */
void notify_finish(int *fd, const char *line);
