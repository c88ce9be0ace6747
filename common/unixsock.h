/* Dialling a unix stream socket: the one socket()-and-connect() that botdesk-web (the doors, the
 * control socket) and the gate (Xvnc's socket) share. */
#pragma once

#include <sys/un.h>

/* A new close-on-exec SOCK_STREAM socket, with the socket type flags (SOCK_NONBLOCK, or 0) added,
 * connected to sa: its fd, or -errno. With SOCK_NONBLOCK a full backlog is -EAGAIN at once;
 * without it, connect() waits for room. */
int unix_connect(const struct sockaddr_un *sa, int flags);
