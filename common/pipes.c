#include "pipes.h"

#include <fcntl.h>
#include <unistd.h>

#include "util.h"

int pipes_open2(int a[2], int b[2])
{
	if (pipe2(a, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	if (pipe2(b, O_CLOEXEC) < 0) {
		int r = negative_errno();
		safe_close(a[0]);
		safe_close(a[1]);
		return r;
	}
	return 0;
}
