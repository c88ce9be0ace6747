#include "proto.h"

#include <errno.h>
#include <string.h>

#include "util.h"

/* Request layout: magic u32 | version u16 | op u16 | reserved 8 bytes (zero).
 * Reply layout:   magic u32 | version u16 | kind u16 | outcome u16 | manager u16 | detail i32 |
 *                 len u16 | reserved 6 bytes (zero) | text PROTO_LINE_MAX bytes (zero past len). */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | ((uint32_t)get16(p + 2) << 16);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] != 0) {
			return false;
		}
	}
	return true;
}

static bool op_known(uint32_t op)
{
	return op >= PROTO_OP_DECIDE && op <= PROTO_OP_INSTALL_FONTS;
}

bool proto_op_installs(enum proto_op op)
{
	return op == PROTO_OP_INSTALL || op == PROTO_OP_INSTALL_WEB || op == PROTO_OP_INSTALL_FONTS;
}

bool proto_op_web(enum proto_op op)
{
	return op == PROTO_OP_DECIDE_WEB || op == PROTO_OP_INSTALL_WEB;
}

bool proto_op_fonts(enum proto_op op)
{
	return op == PROTO_OP_DECIDE_FONTS || op == PROTO_OP_INSTALL_FONTS;
}

int proto_request_encode(const struct proto_request *req, uint8_t buf[PROTO_REQUEST_SIZE])
{
	if (!op_known((uint32_t)req->op)) {
		return -EINVAL;
	}
	memset(buf, 0, PROTO_REQUEST_SIZE);
	put32(buf, PROTO_REQUEST_MAGIC);
	put16(buf + 4, PROTO_REQUEST_VERSION);
	put16(buf + 6, (uint16_t)req->op);
	return 0;
}

int proto_request_decode(const uint8_t *buf, size_t len, struct proto_request *ret)
{
	if (len != PROTO_REQUEST_SIZE) {
		return -EBADMSG;
	}
	if (get32(buf) != PROTO_REQUEST_MAGIC) {
		return -EBADMSG;
	}
	if (get16(buf + 4) != PROTO_REQUEST_VERSION) {
		return -EPROTO;
	}
	uint16_t op = get16(buf + 6);
	if (!op_known(op) || !all_zero(buf + 8, PROTO_REQUEST_SIZE - 8)) {
		return -EBADMSG;
	}
	ret->op = (enum proto_op)op;
	return 0;
}

int proto_reply_encode(const struct proto_reply *reply, uint8_t buf[PROTO_REPLY_SIZE])
{
	memset(buf, 0, PROTO_REPLY_SIZE);
	put32(buf, PROTO_REPLY_MAGIC);
	put16(buf + 4, PROTO_REPLY_VERSION);
	put16(buf + 6, (uint16_t)reply->kind);
	switch (reply->kind) {
	case PROTO_REPLY_RESULT:
		if ((unsigned)reply->outcome >= PROTO_OUTCOME_COUNT ||
		    (unsigned)reply->manager > PROTO_MANAGER_DNF) {
			return -EINVAL;
		}
		put16(buf + 8, (uint16_t)reply->outcome);
		put16(buf + 10, (uint16_t)reply->manager);
		put32(buf + 12, (uint32_t)reply->detail);
		return 0;
	case PROTO_REPLY_LINE: {
		size_t n = reply->len < PROTO_LINE_MAX ? reply->len : PROTO_LINE_MAX;
		put16(buf + 16, (uint16_t)n);
		memcpy(buf + PROTO_REPLY_HEADER, reply->text, n);
		return 0;
	}
	}
	return -EINVAL;
}

int proto_reply_decode(const uint8_t *buf, size_t len, struct proto_reply *ret)
{
	if (len != PROTO_REPLY_SIZE || get32(buf) != PROTO_REPLY_MAGIC) {
		return -EBADMSG;
	}
	if (get16(buf + 4) != PROTO_REPLY_VERSION) {
		return -EPROTO;
	}
	if (!all_zero(buf + 18, PROTO_REPLY_HEADER - 18)) {
		return -EBADMSG;
	}
	struct proto_reply r = {.kind = get16(buf + 6)};
	switch (r.kind) {
	case PROTO_REPLY_RESULT: {
		uint16_t outcome = get16(buf + 8), manager = get16(buf + 10);
		if (outcome >= PROTO_OUTCOME_COUNT || manager > PROTO_MANAGER_DNF ||
		    get16(buf + 16) != 0 || !all_zero(buf + PROTO_REPLY_HEADER, PROTO_LINE_MAX)) {
			return -EBADMSG;
		}
		r.outcome = (enum proto_outcome)outcome;
		r.manager = (enum proto_manager)manager;
		r.detail = (int32_t)get32(buf + 12);
		break;
	}
	case PROTO_REPLY_LINE:
		r.len = get16(buf + 16);
		if (r.len > PROTO_LINE_MAX || !all_zero(buf + 8, 8) ||
		    !all_zero(buf + PROTO_REPLY_HEADER + r.len, PROTO_LINE_MAX - r.len)) {
			return -EBADMSG;
		}
		/* A NUL inside the text would silently cut what the reader prints. */
		if (memchr(buf + PROTO_REPLY_HEADER, '\0', r.len)) {
			return -EBADMSG;
		}
		memcpy(r.text, buf + PROTO_REPLY_HEADER, r.len);
		r.text[r.len] = '\0';
		break;
	default:
		return -EBADMSG;
	}
	*ret = r;
	return 0;
}

/* A name from a table indexed by the enum, "unknown" past its end or on a hole. */
static const char *table_name(const char *const *names, size_t n, unsigned i)
{
	return i < n && names[i] ? names[i] : "unknown";
}

const char *proto_op_name(enum proto_op op)
{
	static const char *const names[] = {
		[PROTO_OP_DECIDE] = "decide",
		[PROTO_OP_INSTALL] = "install",
		[PROTO_OP_DECIDE_WEB] = "decide-web",
		[PROTO_OP_INSTALL_WEB] = "install-web",
		[PROTO_OP_DECIDE_FONTS] = "decide-fonts",
		[PROTO_OP_INSTALL_FONTS] = "install-fonts",
	};
	return table_name(names, ARRAY_SIZE(names), op);
}

const char *proto_outcome_name(enum proto_outcome outcome)
{
	static const char *const names[PROTO_OUTCOME_COUNT] = {
		[PROTO_OK] = "ok",
		[PROTO_NO_MANAGER] = "no-manager",
		[PROTO_NOT_PRIVILEGED] = "not-privileged",
		[PROTO_NOT_PERMITTED] = "not-permitted",
		[PROTO_BAD_REQUEST] = "bad-request",
		[PROTO_REQUEST_TIMEOUT] = "request-timeout",
		[PROTO_BUSY] = "busy",
		[PROTO_NOT_IN_REPOS] = "not-in-repos",
		[PROTO_LOCKED] = "locked",
		[PROTO_DOWNLOAD_FAILED] = "download-failed",
		[PROTO_FAILED] = "failed",
		[PROTO_TIMEOUT] = "timeout",
		[PROTO_INTERNAL] = "internal",
		[PROTO_LIMITS] = "limits",
		[PROTO_ALREADY_INSTALLED] = "already-installed",
		[PROTO_TOO_SOON] = "too-soon",
	};
	return table_name(names, ARRAY_SIZE(names), outcome);
}

const char *proto_manager_name(enum proto_manager manager)
{
	static const char *const names[] = {
		[PROTO_MANAGER_NONE] = "none",
		[PROTO_MANAGER_APT] = "apt",
		[PROTO_MANAGER_DNF] = "dnf",
	};
	return table_name(names, ARRAY_SIZE(names), manager);
}
