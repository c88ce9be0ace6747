#include "unit.h"

#include <errno.h>
#include <string.h>

#include "base64.h"
#include "picture.h"

/* RFC 4648's test vectors, through both the buffer and the data: URL. */
static void base64_vectors(void **state)
{
	static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *const want[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
					   "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		size_t len = strlen(in[i]);
		char out[16];
		assert_int_equal(base64_len(len), strlen(want[i]));
		base64_encode((const unsigned char *)in[i], len, out);
		assert_string_equal(out, want[i]);
	}
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	base64_print_data_url(f, "image/png", (const unsigned char *)"\xff\x00\x10", 3);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "data:image/png;base64,/wAQ\n");
	free(buf);
}

static void max_bounds(void **state)
{
	unsigned w, h;
	assert_int_equal(picture_parse_max("16x16", &w, &h), 0);
	assert_int_equal(picture_parse_max("8192x8192", &w, &h), 0);
	assert_int_equal(w, 8192);
	assert_true(picture_parse_max("15x600", &w, &h) < 0);
	assert_true(picture_parse_max("960x8193", &w, &h) < 0);
	assert_true(picture_parse_max("960", &w, &h) < 0);
}

/* A file gets the bytes whole; a directory is named as one; ./- is a file, not stdout. */
static void writes_output(void **state)
{
	char *dir = unit_mkdtemp();
	char path[4096];
	struct error err = {{0}};
	snprintf(path, sizeof(path), "%s/pic.png", dir);
	assert_int_equal(picture_write_output(path, "PNG!", 4, &err), 0);
	char got[8] = "";
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(fread(got, 1, sizeof(got), f), 4);
	fclose(f);
	assert_memory_equal(got, "PNG!", 4);
	assert_int_equal(picture_write_output(dir, "x", 1, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "names a directory"));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(picture_write_output("./-", "y", 1, &err), 0);
	assert_int_equal(access("-", F_OK), 0);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(base64_vectors),
		cmocka_unit_test(max_bounds),
		cmocka_unit_test(writes_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
