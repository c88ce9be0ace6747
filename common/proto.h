/* The runner <-> botdesk-helper wire format. Every message is one fixed-size record on a
 * SOCK_SEQPACKET socket, little-endian, with a magic and a version, so either side can refuse
 * anything that is not exactly what this header describes.
 *
 * The runner sends one request and shuts down its writing side; the helper answers with any
 * number of LINE replies (the package manager's output, or what it would run) and ends with one
 * RESULT reply. A request carries no package name, path or option: only the operation. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Requests and replies are versioned apart, so that a change to one leaves the other as it was.
 * Reply version 2 added the outcomes limits, already-installed and too-soon. */
#define PROTO_REQUEST_VERSION 1u
#define PROTO_REPLY_VERSION 2u
#define PROTO_REQUEST_MAGIC 0x51524442u /* "BDRQ" as bytes on the wire */
#define PROTO_REPLY_MAGIC 0x50524442u   /* "BDRP" */
#define PROTO_REQUEST_SIZE 16u
#define PROTO_REPLY_SIZE 512u
#define PROTO_REPLY_HEADER 24u
#define PROTO_LINE_MAX (PROTO_REPLY_SIZE - PROTO_REPLY_HEADER)

/* The helper's fixed fd for its end of the socket pair. */
#define PROTO_HELPER_FD 3

/* The helper starts at most one install run of the package manager per caller uid in this many
 * seconds; a request sooner is answered PROTO_TOO_SOON with the seconds left. */
#define PROTO_INSTALL_INTERVAL_S 60

/* Each op names one of the compiled-in package sets (policy/packages.tsv): the desktop's, the web
 * viewer's, or the international fonts. A helper older than an op refuses it as malformed, so a
 * mismatch fails closed. */
enum proto_op {
	PROTO_OP_DECIDE = 1,        /* what would an install do: nothing is changed */
	PROTO_OP_INSTALL = 2,       /* install the desktop's package set */
	PROTO_OP_DECIDE_WEB = 3,    /* DECIDE, for the web viewer's set */
	PROTO_OP_INSTALL_WEB = 4,   /* INSTALL, for the web viewer's set */
	PROTO_OP_DECIDE_FONTS = 5,  /* DECIDE, for the fonts set (CJK, colour emoji) */
	PROTO_OP_INSTALL_FONTS = 6, /* INSTALL, for the fonts set */
};

enum proto_manager {
	PROTO_MANAGER_NONE = 0,
	PROTO_MANAGER_APT = 1,
	PROTO_MANAGER_DNF = 2,
};

/* What happened, in the RESULT reply and as the helper's exit status. */
enum proto_outcome {
	PROTO_OK = 0,              /* decide: an install would run; install: done */
	PROTO_NO_MANAGER = 1,      /* neither apt-get nor dnf at its fixed path */
	PROTO_NOT_PRIVILEGED = 2,  /* not running as root: not setuid, nosuid, no_new_privs */
	PROTO_NOT_PERMITTED = 3,   /* the caller is neither root nor in the helper's group */
	PROTO_BAD_REQUEST = 4,     /* the request was malformed */
	PROTO_REQUEST_TIMEOUT = 5, /* no complete request in time */
	PROTO_BUSY = 6,            /* another install is running on this host */
	PROTO_NOT_IN_REPOS = 7,    /* a package is not in the configured repositories */
	PROTO_LOCKED = 8,          /* the package database is locked by another process */
	PROTO_DOWNLOAD_FAILED = 9, /* the packages (or lists) could not be downloaded */
	PROTO_FAILED = 10,         /* the package manager failed otherwise; detail = its status */
	PROTO_TIMEOUT = 11,        /* the install ran past its time and was stopped */
	PROTO_INTERNAL = 12,       /* the helper itself failed; detail says where */
	/* Reply version 2: */
	PROTO_LIMITS = 13,            /* a limit or OOM score the caller set cannot be reset here */
	PROTO_ALREADY_INSTALLED = 14, /* install: nothing to do; nothing ran, no lock was taken */
	PROTO_TOO_SOON = 15,          /* install: this uid started one too recently; detail = the
				       * seconds to wait */
	PROTO_OUTCOME_COUNT,
};

enum proto_reply_kind {
	PROTO_REPLY_LINE = 1,
	PROTO_REPLY_RESULT = 2,
};

struct proto_request {
	enum proto_op op;
};

struct proto_reply {
	enum proto_reply_kind kind;
	/* RESULT only */
	enum proto_outcome outcome;
	enum proto_manager manager;
	int32_t detail; /* exit status, signal or step; meaning depends on outcome */
	/* LINE only: text without a newline, NUL-terminated here (never on the wire) */
	uint16_t len;
	char text[PROTO_LINE_MAX + 1];
};

/* Fills buf with the one valid encoding of req. -EINVAL for an unknown op. */
int proto_request_encode(const struct proto_request *req, uint8_t buf[PROTO_REQUEST_SIZE]);
/* Strict: exactly PROTO_REQUEST_SIZE bytes, the magic, the version, a known op and every reserved
 * byte zero, else -EBADMSG (-EPROTO for another PROTO_REQUEST_VERSION). */
int proto_request_decode(const uint8_t *buf, size_t len, struct proto_request *ret);

/* Replies. A LINE longer than PROTO_LINE_MAX is truncated by encode. Decode is as strict as for
 * requests (-EPROTO for another PROTO_REPLY_VERSION). */
int proto_reply_encode(const struct proto_reply *reply, uint8_t buf[PROTO_REPLY_SIZE]);
int proto_reply_decode(const uint8_t *buf, size_t len, struct proto_reply *ret);

/* Whether op installs (else it only decides), and whether it is about the web viewer's set or
 * the fonts set. */
bool proto_op_installs(enum proto_op op);
bool proto_op_web(enum proto_op op);
bool proto_op_fonts(enum proto_op op);

/* Stable names for logs and messages: "decide", "install", "decide-web", "install-web",
 * "decide-fonts", "install-fonts"; "ok",
 * "not-in-repos", ... */
const char *proto_op_name(enum proto_op op);
const char *proto_outcome_name(enum proto_outcome outcome);
const char *proto_manager_name(enum proto_manager manager);
