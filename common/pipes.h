/* Two pipes made together, for a child's two streams (its output and its messages, its input
 * and its readiness): both are made, or neither is left open. */
#pragma once

/* Both pipes close-on-exec at both ends: 0, or -errno (EMFILE, ENFILE) with none of the four
 * fds open. */
int pipes_open2(int a[2], int b[2]);
