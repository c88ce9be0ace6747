/* The control lease: who may drive a profile's desktop, the agent (the default) or a human. It is
 * the one file every part reads (the runner before each agent action, the gate before it lets a
 * viewer's input through, the session before an idle stop), so its format and its rules live
 * here once.
 *
 * The file is `lease` in the profile's private directory: four KEY=VALUE lines in a fixed order,
 *
 *     holder=human
 *     epoch=7
 *     since=1718000000
 *     reason=2FA prompt
 *
 * written 0600 by write-then-rename under an flock on `lease.lock`. A missing file means the
 * agent holds it (epoch 0). Anything else that is not exactly that shape means a human holds
 * it: an agent must never act on a desktop it cannot prove it holds. The next write repairs
 * the file. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEASE_FILE "lease"
#define LEASE_LOCK "lease.lock"
/* The gate writes the epoch it has applied (input gated, screen size restored) here. */
#define LEASE_APPLIED_FILE "lease.applied"
#define LEASE_REASON_MAX 200
/* A lease write waits at most this long for another writer (they hold the lock for
 * microseconds; a stopped one must not hang us). */
#define LEASE_LOCK_WAIT_MS 2000

enum lease_holder {
	LEASE_AGENT,
	LEASE_HUMAN,
};

struct lease {
	enum lease_holder holder;
	uint64_t epoch; /* rises by one on every real change of holder */
	int64_t since;  /* unix seconds of the last change; 0 when never written */
	char reason[LEASE_REASON_MAX + 1];
	bool unreadable; /* the file was there but not a lease: treated as the human's */
};

const char *lease_holder_name(enum lease_holder h);

/* Parses the file's text. -EINVAL for anything but the exact shape above; ret is then the
 * fail-closed lease (human, unreadable) with the epoch the text still showed, if any. */
int lease_parse(const char *text, size_t len, struct lease *ret);
/* The text of l (NUL-terminated) in buf; -ENOSPC when it does not fit. */
int lease_format(const struct lease *l, char *buf, size_t size, size_t *ret_len);

/* Reads the lease under dirfd, never through a symlink. Always fills ret: a missing file is the
 * agent's lease, anything unreadable the human's (ret->unreadable set). Returns 0, or the
 * -errno that made it unreadable. */
int lease_read_at(int dirfd, struct lease *ret);

/* Whether a reason may be stored: at most LEASE_REASON_MAX bytes, no control characters. */
bool lease_reason_valid(const char *reason);

/* Hands the lease to `to` under the lock, at time `now` (unix seconds). A change of holder bumps
 * the epoch and sets since and reason; asking for the holder it already has changes nothing
 * (ret_changed false) unless the file was unreadable: it is then rewritten as a change. reason may
 * be NULL; a human taking over from the agent keeps no reason of the agent's. ret is the lease as
 * it stands afterwards. -ETIMEDOUT when the lock stayed taken. */
int lease_set_at(int dirfd, enum lease_holder to, const char *reason, int64_t now,
		 struct lease *ret, bool *ret_changed);

/* The agent's request for a human (`botdesk ask`, MCP ask_human): a file of its own beside the
 * lease, `lease.request`, two KEY=VALUE lines,
 *
 *     since=1718000000
 *     reason=a CAPTCHA
 *
 * written 0600 by write-then-rename under the lease's lock. Not in the lease file: readers of
 * the four-line lease (an older gate, session or botdesk) would take a fifth line for an
 * unreadable lease, a human's. Every change of the lease (lease_set_at(): a take answers it, a
 * release ends the turn it asked for) removes it; a new request replaces it. Anything that is
 * not exactly this shape is no request. */
#define LEASE_REQUEST_FILE "lease.request"

struct lease_request {
	int64_t since; /* unix seconds */
	char reason[LEASE_REASON_MAX + 1];
};

/* 0 and the request, or -ENOENT when there is none (or it is not one). */
int lease_request_read_at(int dirfd, struct lease_request *ret);
/* Records a request at `now` with reason (may be NULL), replacing any. -EINVAL for a reason
 * lease_reason_valid() refuses. */
int lease_request_set_at(int dirfd, const char *reason, int64_t now, struct lease_request *ret);

/* The agent's side of a take. An action sends each key or button event under a shared flock on
 * LEASE_ACT_LOCK, after checking (lease_watch_enter()) that the lease file is still the one it
 * began under; `botdesk take` writes the lease, then takes that lock exclusively
 * (lease_quiesce_at()). Once it has it, no agent event is on its way (the agent holds the lock
 * until the X server has the event), and every later one finds the lease replaced and is never
 * sent: after take returns, nothing of the agent's reaches the desktop.
 *
 * The check is one fstat() of the lease file opened at the start: every writer replaces the
 * file by a rename (lease_set_at()), which leaves the one held with no link. */
#define LEASE_ACT_LOCK "lease.act"
/* How long a take waits for the agent's event under way (one X round trip, normally). */
#define LEASE_QUIESCE_WAIT_MS 2000

struct lease_watch {
	int dirfd;
	int lockfd;  /* LEASE_ACT_LOCK, or -1 before begin */
	int leasefd; /* the lease file the action began under, or -1 when there was none */
	bool inside; /* between enter and leave */
};

#define LEASE_WATCH_INIT                                 \
	{                                                \
		.dirfd = -1, .lockfd = -1, .leasefd = -1 \
	}

/* Reads the lease under dirfd and keeps it open for the checks. -EACCES when a human holds it (or
 * it cannot be read); ret is the lease read, as lease_read_at() fills it. */
int lease_watch_begin(int dirfd, struct lease_watch *w, struct lease *ret);
/* Right before an event: takes the shared lock, and returns 0 when the lease is still the one the
 * action began under (the caller sends, waits for the server, then calls leave), else -EACCES
 * with the lock let go. A watch never begun (dirfd -1) lets everything through. */
int lease_watch_enter(struct lease_watch *w);
void lease_watch_leave(struct lease_watch *w);
/* Lets go of everything; safe on LEASE_WATCH_INIT and twice. */
void lease_watch_end(struct lease_watch *w);

/* A take's wait for the agent: returns once no agent event is under way (see above), -ETIMEDOUT
 * after timeout_ms (an agent stopped while it held the lock). */
int lease_quiesce_at(int dirfd, uint64_t timeout_ms);

/* The epoch the gate last applied, -ENOENT when none. */
int lease_applied_read_at(int dirfd, uint64_t *ret);
int lease_applied_write_at(int dirfd, uint64_t epoch);
