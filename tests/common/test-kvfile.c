#include "unit.h"

#include <errno.h>

#include "kvfile.h"

/* What the reader handed over, as "key=value;" pairs, and how the fake setter answers. */
struct seen {
	char pairs[512];
	const char *refuse_key; /* -EINVAL with want "a number" */
	const char *fail_key;   /* -ENOMEM */
};

static int record(void *ctx, const char *key, const char *value, const char **ret_want)
{
	struct seen *s = ctx;
	if (s->fail_key && strcmp(key, s->fail_key) == 0) {
		return -ENOMEM;
	}
	if (s->refuse_key && strcmp(key, s->refuse_key) == 0) {
		*ret_want = "a number";
		return -EINVAL;
	}
	if (strcmp(key, "known") != 0 && strncmp(key, "k", 1) != 0) {
		return -ENOENT;
	}
	size_t n = strlen(s->pairs);
	snprintf(s->pairs + n, sizeof(s->pairs) - n, "%s=%s;", key, value);
	return 0;
}

/* Blanks around key and value, comments, empty lines and CRLF endings are all syntax, not data;
 * a '#' after the first non-blank and a second '=' belong to the value. */
static void takes_pairs(void **state)
{
	struct seen s = {0};
	struct error err = {0};
	const char *text = "# comment\n\n  \t\nk1 = v1\n\tk2=v2 \r\n   # indented comment\n"
			   "k3 = a # not a comment\nk4 = x=y\nk5 =\nk6 = last";
	assert_int_equal(kvfile_parse(text, "f.conf", "", record, &s, &err), 0);
	assert_string_equal(s.pairs, "k1=v1;k2=v2;k3=a # not a comment;k4=x=y;k5=;k6=last;");
	assert_false(error_isset(&err));
}

static void empty_text(void **state)
{
	struct seen s = {0};
	struct error err = {0};
	assert_int_equal(kvfile_parse("", "f.conf", "", record, &s, &err), 0);
	assert_string_equal(s.pairs, "");
}

/* The line number counts blank and comment lines, so it is the one an editor shows. */
static void no_equals_names_line(void **state)
{
	struct seen s = {0};
	struct error err = {0};
	assert_int_equal(kvfile_parse("# c\n\nk1 = v\njunk\nk2 = w\n", "/etc/x.conf", "; fix it",
				      record, &s, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "/etc/x.conf:4: expected 'key = value'; fix it");
	/* Nothing after the bad line was read. */
	assert_string_equal(s.pairs, "k1=v;");
}

static void unknown_key(void **state)
{
	struct seen s = {0};
	struct error err = {0};
	assert_int_equal(kvfile_parse("k1 = v\n  other  = w\n", "a.conf", "", record, &s, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "a.conf:2: unknown setting 'other'");
}

static void bad_value(void **state)
{
	struct seen s = {.refuse_key = "known"};
	struct error err = {0};
	assert_int_equal(kvfile_parse("\n\nknown =  seven \n", "a.conf", "!", record, &s, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "a.conf:3: known = 'seven' is not valid: expected a number!");
}

/* Any other error of the setter ends the read as it is, with no message of the reader's. */
static void setter_error_passes(void **state)
{
	struct seen s = {.fail_key = "k2"};
	struct error err = {0};
	assert_int_equal(kvfile_parse("k1 = a\nk2 = b\nk3 = c\n", "a.conf", "", record, &s, &err),
			 -ENOMEM);
	assert_false(error_isset(&err));
	assert_string_equal(s.pairs, "k1=a;");
}

/* A file reads the same as its text: the last line needs no newline. */
static void reads_stream(void **state)
{
	char *dir = unit_mkdtemp();
	unit_write(dir, "f.conf", "k1 = one\r\n#x\nk2 = two");
	char path[4200];
	snprintf(path, sizeof(path), "%s/f.conf", dir);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	struct seen s = {0};
	struct error err = {0};
	assert_int_equal(kvfile_read(f, path, "", record, &s, &err), 0);
	assert_string_equal(s.pairs, "k1=one;k2=two;");
	fclose(f);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(takes_pairs),
		cmocka_unit_test(empty_text),
		cmocka_unit_test(no_equals_names_line),
		cmocka_unit_test(unknown_key),
		cmocka_unit_test(bad_value),
		cmocka_unit_test(setter_error_passes),
		cmocka_unit_test(reads_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
