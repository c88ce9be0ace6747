/* The wire format: one valid encoding per message, and every malformation refused. */
#include "../unit.h"
#include "proto.h"
#include "util.h"

static void valid_request(uint8_t buf[PROTO_REQUEST_SIZE], enum proto_op op)
{
	struct proto_request rq = {.op = op};
	assert_int_equal(proto_request_encode(&rq, buf), 0);
}

static void test_request_roundtrip(void **state)
{
	uint8_t buf[PROTO_REQUEST_SIZE];
	struct proto_request out;
	/* Each op decodes as itself, its number on the wire at byte 6; INSTALL last, for the bytes
	 * below. */
	static const struct {
		enum proto_op op;
		uint8_t wire;
	} ops[] = {
		{PROTO_OP_DECIDE, 1},       {PROTO_OP_DECIDE_WEB, 3},    {PROTO_OP_INSTALL_WEB, 4},
		{PROTO_OP_DECIDE_FONTS, 5}, {PROTO_OP_INSTALL_FONTS, 6}, {PROTO_OP_INSTALL, 2},
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		valid_request(buf, ops[i].op);
		assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), 0);
		assert_int_equal(out.op, ops[i].op);
		assert_int_equal(buf[6], ops[i].wire);
	}
	/* The bytes on the wire are fixed: little-endian "BDRQ", version 1, the op, zeros. */
	static const uint8_t want[PROTO_REQUEST_SIZE] = {'B', 'D', 'R', 'Q', 1, 0, 2, 0};
	assert_memory_equal(buf, want, sizeof(want));
}

static void test_request_encode_refuses_unknown_op(void **state)
{
	uint8_t buf[PROTO_REQUEST_SIZE];
	struct proto_request rq = {.op = (enum proto_op)7};
	assert_int_equal(proto_request_encode(&rq, buf), -EINVAL);
}

static void test_request_sizes(void **state)
{
	uint8_t buf[PROTO_REQUEST_SIZE + 8] = {0};
	struct proto_request out = {.op = (enum proto_op)99};
	valid_request(buf, PROTO_OP_INSTALL);
	/* Short by one, empty, long by one, long by eight: all refused, out untouched. */
	static const size_t sizes[] = {0, 1, PROTO_REQUEST_SIZE - 1, PROTO_REQUEST_SIZE + 1,
				       PROTO_REQUEST_SIZE + 8};
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		assert_int_equal(proto_request_decode(buf, sizes[i], &out), -EBADMSG);
	}
	assert_int_equal(out.op, 99);
}

static void test_request_bad_fields(void **state)
{
	uint8_t buf[PROTO_REQUEST_SIZE];
	struct proto_request out;
	for (size_t byte = 0; byte < 4; byte++) {
		valid_request(buf, PROTO_OP_DECIDE);
		buf[byte] ^= 0x20;
		assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), -EBADMSG);
	}
	valid_request(buf, PROTO_OP_DECIDE);
	buf[4] = 2;
	assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), -EPROTO);
	valid_request(buf, PROTO_OP_DECIDE);
	buf[5] = 1;
	assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), -EPROTO);
	static const uint16_t ops[] = {0, 7, 0x100, 0x103, 0xffff};
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		valid_request(buf, PROTO_OP_DECIDE);
		buf[6] = (uint8_t)ops[i];
		buf[7] = (uint8_t)(ops[i] >> 8);
		assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), -EBADMSG);
	}
}

static void test_request_reserved_bytes(void **state)
{
	uint8_t buf[PROTO_REQUEST_SIZE];
	struct proto_request out;
	for (size_t byte = 8; byte < PROTO_REQUEST_SIZE; byte++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			valid_request(buf, PROTO_OP_INSTALL);
			buf[byte] = (uint8_t)(1u << bit);
			assert_int_equal(proto_request_decode(buf, sizeof(buf), &out), -EBADMSG);
		}
	}
}

static void test_reply_line_roundtrip(void **state)
{
	struct proto_reply in = {.kind = PROTO_REPLY_LINE, .len = 5}, out;
	memcpy(in.text, "hello", 5);
	uint8_t buf[PROTO_REPLY_SIZE];
	assert_int_equal(proto_reply_encode(&in, buf), 0);
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.kind, PROTO_REPLY_LINE);
	assert_int_equal(out.len, 5);
	assert_string_equal(out.text, "hello");
}

static void test_reply_line_truncated(void **state)
{
	struct proto_reply in = {.kind = PROTO_REPLY_LINE, .len = 9999}, out;
	memset(in.text, 'x', sizeof(in.text));
	uint8_t buf[PROTO_REPLY_SIZE];
	assert_int_equal(proto_reply_encode(&in, buf), 0);
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.len, PROTO_LINE_MAX);
	assert_int_equal(strlen(out.text), PROTO_LINE_MAX);
}

static void test_reply_result_roundtrip(void **state)
{
	struct proto_reply in = {.kind = PROTO_REPLY_RESULT,
				 .outcome = PROTO_LOCKED,
				 .manager = PROTO_MANAGER_DNF,
				 .detail = -7},
			   out;
	uint8_t buf[PROTO_REPLY_SIZE];
	assert_int_equal(proto_reply_encode(&in, buf), 0);
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.kind, PROTO_REPLY_RESULT);
	assert_int_equal(out.outcome, PROTO_LOCKED);
	assert_int_equal(out.manager, PROTO_MANAGER_DNF);
	assert_int_equal(out.detail, -7);
}

static void test_reply_malformed(void **state)
{
	struct proto_reply line = {.kind = PROTO_REPLY_LINE, .len = 3}, out;
	memcpy(line.text, "abc", 3);
	uint8_t buf[PROTO_REPLY_SIZE];
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	assert_int_equal(proto_reply_decode(buf, sizeof(buf) - 1, &out), -EBADMSG);
	/* A NUL inside the text, bytes past the length, a length past the end, a stray field. */
	buf[PROTO_REPLY_HEADER + 1] = '\0';
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	buf[PROTO_REPLY_HEADER + 3] = 'd';
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	buf[16] = 0xff, buf[17] = 0xff;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	buf[9] = 1;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	buf[20] = 1;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	/* Unknown kind, outcome and manager; text in a result. */
	assert_int_equal(proto_reply_encode(&line, buf), 0);
	buf[6] = 3;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	struct proto_reply res = {.kind = PROTO_REPLY_RESULT};
	assert_int_equal(proto_reply_encode(&res, buf), 0);
	buf[8] = PROTO_OUTCOME_COUNT;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&res, buf), 0);
	buf[10] = 3;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&res, buf), 0);
	buf[PROTO_REPLY_HEADER] = 'x';
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EBADMSG);
	assert_int_equal(proto_reply_encode(&res, buf), 0);
	buf[4] = 9;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EPROTO);
	res.outcome = PROTO_OUTCOME_COUNT;
	assert_int_equal(proto_reply_encode(&res, buf), -EINVAL);
}

static void test_reply_version(void **state)
{
	/* Replies are at version 2 (the outcomes limits, already-installed, too-soon); requests
	 * stay at 1. A reply of another version is refused as such, not misread. */
	struct proto_reply in = {.kind = PROTO_REPLY_RESULT,
				 .outcome = PROTO_TOO_SOON,
				 .manager = PROTO_MANAGER_APT,
				 .detail = 60},
			   out;
	uint8_t buf[PROTO_REPLY_SIZE];
	assert_int_equal(proto_reply_encode(&in, buf), 0);
	assert_int_equal(buf[4], 2);
	assert_int_equal(buf[5], 0);
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.outcome, PROTO_TOO_SOON);
	assert_int_equal(out.detail, 60);
	buf[4] = 1;
	assert_int_equal(proto_reply_decode(buf, sizeof(buf), &out), -EPROTO);
	uint8_t req[PROTO_REQUEST_SIZE];
	valid_request(req, PROTO_OP_DECIDE);
	assert_int_equal(req[4], 1);
}

static void test_names(void **state)
{
	assert_string_equal(proto_op_name(PROTO_OP_INSTALL), "install");
	assert_string_equal(proto_op_name(PROTO_OP_DECIDE_WEB), "decide-web");
	assert_string_equal(proto_op_name(PROTO_OP_INSTALL_WEB), "install-web");
	/* What each op does is read from it in one place (the helper's serve and the runner). */
	assert_false(proto_op_installs(PROTO_OP_DECIDE) || proto_op_installs(PROTO_OP_DECIDE_WEB));
	assert_true(proto_op_installs(PROTO_OP_INSTALL) && proto_op_installs(PROTO_OP_INSTALL_WEB));
	assert_false(proto_op_web(PROTO_OP_DECIDE) || proto_op_web(PROTO_OP_INSTALL));
	assert_true(proto_op_web(PROTO_OP_DECIDE_WEB) && proto_op_web(PROTO_OP_INSTALL_WEB));
	assert_string_equal(proto_op_name(PROTO_OP_DECIDE_FONTS), "decide-fonts");
	assert_string_equal(proto_op_name(PROTO_OP_INSTALL_FONTS), "install-fonts");
	assert_false(proto_op_installs(PROTO_OP_DECIDE_FONTS));
	assert_true(proto_op_installs(PROTO_OP_INSTALL_FONTS));
	assert_true(proto_op_fonts(PROTO_OP_DECIDE_FONTS) &&
		    proto_op_fonts(PROTO_OP_INSTALL_FONTS));
	assert_false(proto_op_web(PROTO_OP_INSTALL_FONTS) || proto_op_fonts(PROTO_OP_INSTALL_WEB) ||
		     proto_op_fonts(PROTO_OP_INSTALL));
	assert_string_equal(proto_outcome_name(PROTO_NOT_IN_REPOS), "not-in-repos");
	assert_string_equal(proto_outcome_name(PROTO_LIMITS), "limits");
	assert_string_equal(proto_outcome_name(PROTO_ALREADY_INSTALLED), "already-installed");
	assert_string_equal(proto_outcome_name(PROTO_TOO_SOON), "too-soon");
	assert_string_equal(proto_outcome_name(PROTO_OUTCOME_COUNT), "unknown");
	assert_string_equal(proto_manager_name(PROTO_MANAGER_APT), "apt");
	for (int o = 0; o < PROTO_OUTCOME_COUNT; o++) {
		assert_string_not_equal(proto_outcome_name((enum proto_outcome)o), "unknown");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_roundtrip),
		cmocka_unit_test(test_request_encode_refuses_unknown_op),
		cmocka_unit_test(test_request_sizes),
		cmocka_unit_test(test_request_bad_fields),
		cmocka_unit_test(test_request_reserved_bytes),
		cmocka_unit_test(test_reply_line_roundtrip),
		cmocka_unit_test(test_reply_line_truncated),
		cmocka_unit_test(test_reply_result_roundtrip),
		cmocka_unit_test(test_reply_malformed),
		cmocka_unit_test(test_reply_version),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
