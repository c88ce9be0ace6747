/* What find and --element match (act/a11ymatch.c), and the accessibility options of the actions'
 * parser (act/actargs.c): tree, find, click and type --element. */
#include "unit.h"

#include "a11ymatch.h"
#include "actargs.h"

static void test_roles(void **state)
{
	(void)state;
	assert_true(a11y_role_matches("push button", "push button"));
	assert_true(a11y_role_matches("push button", "button"));
	assert_true(a11y_role_matches("push button", "Push_Button"));
	assert_true(a11y_role_matches("push button", "push-button"));
	assert_true(a11y_role_matches("toggle button", "button"));
	assert_true(a11y_role_matches("entry", "ENTRY"));
	/* Whole words from the end only. */
	assert_false(a11y_role_matches("push button", "utton"));
	assert_false(a11y_role_matches("push button", "push"));
	assert_false(a11y_role_matches("button", "push button"));
	assert_false(a11y_role_matches("push button", ""));
	assert_false(a11y_role_matches("link", "button"));
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(a11y_name_match("Send report", "Send report"), 2);
	assert_int_equal(a11y_name_match("Send report", "send"), 1);
	assert_int_equal(a11y_name_match("Send report", "REPORT"), 1);
	assert_int_equal(a11y_name_match("Send report", "send it"), 0);
	assert_int_equal(a11y_name_match("", "x"), 0);
	assert_int_equal(a11y_name_match("x", ""), 0);
}

static void test_ids_and_specs(void **state)
{
	(void)state;
	assert_true(a11y_is_id("3"));
	assert_true(a11y_is_id("3.0.12.4"));
	assert_false(a11y_is_id("3."));
	assert_false(a11y_is_id(".3"));
	assert_false(a11y_is_id("3..4"));
	assert_false(a11y_is_id("3.a"));
	assert_false(a11y_is_id(""));
	char buf[128];
	struct a11y_spec s;
	assert_int_equal(a11y_parse_spec("push button:Send: now", buf, sizeof(buf), &s), 0);
	assert_string_equal(s.role, "push button");
	assert_string_equal(s.name, "Send: now");
	assert_null(s.id);
	assert_int_equal(a11y_parse_spec(":Send", buf, sizeof(buf), &s), 0);
	assert_null(s.role);
	assert_string_equal(s.name, "Send");
	assert_int_equal(a11y_parse_spec("entry:", buf, sizeof(buf), &s), 0);
	assert_string_equal(s.role, "entry");
	assert_null(s.name);
	assert_int_equal(a11y_parse_spec("Send report", buf, sizeof(buf), &s), 0);
	assert_null(s.role);
	assert_string_equal(s.name, "Send report");
	assert_int_equal(a11y_parse_spec("2.0.3", buf, sizeof(buf), &s), 0);
	assert_string_equal(s.id, "2.0.3");
	assert_int_equal(a11y_parse_spec(":", buf, sizeof(buf), &s), -EINVAL);
	assert_int_equal(a11y_parse_spec("", buf, sizeof(buf), &s), -EINVAL);
	assert_int_equal(a11y_parse_spec("a:b", buf, 3, &s), -EINVAL);
}

/* A child's id is its parent's and its index; the walk stops where an id would outgrow
 * A11Y_ID_MAX rather than keep a cut one (it would name another node). */
static void test_child_ids(void **state)
{
	(void)state;
	char id[A11Y_ID_MAX + 1];
	assert_true(a11y_child_id(id, "2.0", 13));
	assert_string_equal(id, "2.0.13");
	assert_true(a11y_is_id(id));
	char parent[A11Y_ID_MAX + 1] = "1";
	while (strlen(parent) + 2 <= A11Y_ID_MAX) {
		strcat(parent, ".1");
	}
	assert_int_equal(strlen(parent), A11Y_ID_MAX - 1);
	assert_false(a11y_child_id(id, parent, 0));
	parent[A11Y_ID_MAX - 3] = '\0';
	assert_true(a11y_child_id(id, parent, 7));
	assert_int_equal(strlen(id), A11Y_ID_MAX - 1);
	assert_true(a11y_child_id(id, parent, 70));
	assert_int_equal(strlen(id), A11Y_ID_MAX);
	assert_false(a11y_child_id(id, parent, 700));
}

/* argv's writable copies live until the next parse (rq points into them). */
static int parse(struct act_req *rq, struct error *err, const char *const *args)
{
	static char *argv[16];
	int argc = 0;
	for (; argv[argc]; argc++) {
		free(argv[argc]);
		argv[argc] = NULL;
	}
	for (argc = 0; args[argc]; argc++) {
		argv[argc] = strdup(args[argc]);
	}
	*err = (struct error){{0}};
	return act_parse_argv(argc, argv, rq, err);
}

static void test_options(void **state)
{
	(void)state;
	struct act_req rq;
	struct error err;
	const char *const tree[] = {"tree", "--window", "Form", "--depth", "3", "--json", NULL};
	assert_int_equal(parse(&rq, &err, tree), 0);
	assert_int_equal(rq.cmd, ACT_TREE);
	assert_string_equal(rq.window, "Form");
	assert_int_equal(rq.depth, 3);
	assert_true(act_is_a11y(&rq));
	const char *const find[] = {"find", "--role",    "button", "--name",
				    "Send", "--timeout", "2",      NULL};
	assert_int_equal(parse(&rq, &err, find), 0);
	assert_string_equal(rq.role, "button");
	assert_string_equal(rq.name, "Send");
	assert_int_equal(rq.timeout_ms, 2000);
	const char *const click[] = {"click", "--element", "push button:Send", "--double", NULL};
	assert_int_equal(parse(&rq, &err, click), 0);
	assert_string_equal(rq.element, "push button:Send");
	assert_true(act_is_a11y(&rq) && act_is_pointer(rq.cmd));
	const char *const type[] = {"type", "--element", "entry:Email", "--", "-x", NULL};
	assert_int_equal(parse(&rq, &err, type), 0);
	assert_string_equal(rq.element, "entry:Email");
	assert_int_equal(rq.text_len, 2);
	const char *const plain[] = {"click", "1", "2", NULL};
	assert_int_equal(parse(&rq, &err, plain), 0);
	assert_false(act_is_a11y(&rq));
	/* Refused, naming what is wrong. */
	const char *const both[] = {"click", "1", "2", "--element", "a:b", NULL};
	assert_int_equal(parse(&rq, &err, both), -EINVAL);
	assert_non_null(strstr(err.msg, "X Y or --element, not both"));
	const char *const from[] = {"click", "--element", "a:b", "--from", "960x600", NULL};
	assert_int_equal(parse(&rq, &err, from), -EINVAL);
	assert_non_null(strstr(err.msg, "no --from"));
	const char *const deep[] = {"tree", "--depth", "65", NULL};
	assert_int_equal(parse(&rq, &err, deep), -EINVAL);
	assert_non_null(strstr(err.msg, "--depth"));
	const char *const empty[] = {"find", "--name", "", NULL};
	assert_int_equal(parse(&rq, &err, empty), -EINVAL);
	const char *const line[] = {"find", "--name", "a\nb", NULL};
	assert_int_equal(parse(&rq, &err, line), -EINVAL);
	assert_non_null(strstr(err.msg, "one line"));
	const char *const other[] = {"key", "--element", "a:b", "Return", NULL};
	assert_int_equal(parse(&rq, &err, other), -EINVAL);
	const char *const findpos[] = {"find", "button", NULL};
	assert_int_equal(parse(&rq, &err, findpos), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles),         cmocka_unit_test(test_names),
		cmocka_unit_test(test_ids_and_specs), cmocka_unit_test(test_child_ids),
		cmocka_unit_test(test_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
