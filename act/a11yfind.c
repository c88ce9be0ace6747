/* find and --element over a walked tree (act/a11y.h): which of its nodes match a role and a
 * name, and the one node an --element spec names. No AT-SPI call: the walk has read the nodes. */
#include "a11y.h"

#include <errno.h>
#include <stdlib.h>

#include "actargs.h"
#include "util.h"

size_t a11y_find(const struct a11y_tree *t, const char *role, const char *name, size_t **ret)
{
	size_t *m = calloc(t->n ? t->n : 1, sizeof(*m));
	size_t n = 0;
	int best = 1;
	for (size_t i = 0; m && i < t->n; i++) {
		const struct a11y_node *x = &t->v[i];
		if (x->partial || (role && !a11y_role_matches(x->role, role))) {
			continue;
		}
		int q = name ? a11y_name_match(x->name, name) : 2;
		if (q == 0 || q < best) {
			continue;
		}
		if (q > best) {
			/* The first exact match: the parts found before it go. */
			best = q;
			n = 0;
		}
		m[n++] = i;
	}
	*ret = m;
	return m ? n : 0;
}

/* "push button "Send" #1.0.3" for a message. */
static void describe(char *buf, size_t size, const struct a11y_node *n)
{
	snprintf(buf, size, "%s \"%.80s\" #%s", n->role, n->name, n->id);
}

int a11y_element(const struct a11y_tree *t, const char *spec, size_t *ret, struct error *err)
{
	char buf[ACT_MATCH_MAX + 1];
	struct a11y_spec s;
	if (a11y_parse_spec(spec, buf, sizeof(buf), &s) < 0) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"--element takes ROLE:NAME (e.g. 'push button:Send') or a node id, not '%s'",
			spec);
	}
	if (s.id) {
		for (size_t i = 0; i < t->n; i++) {
			if (streq(t->v[i].id, s.id)) {
				*ret = i;
				return 0;
			}
		}
		return error_set_kind(
			err, ERROR_BAD_INPUT, -ENOENT,
			"no element showing has the id %s now: ask find or tree again", s.id);
	}
	_cleanup_free_ size_t *m = NULL;
	size_t n = a11y_find(t, s.role, s.name, &m);
	if (n == 1) {
		*ret = m[0];
		return 0;
	}
	if (n == 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -ENOENT,
				      "no element showing matches --element '%s'%s", spec,
				      t->unanswered ? " (some applications did not answer)" : "");
	}
	char a[300], b[300];
	describe(a, sizeof(a), &t->v[m[0]]);
	describe(b, sizeof(b), &t->v[m[1]]);
	return error_set_kind(
		err, ERROR_BAD_INPUT, -EINVAL,
		"--element '%s' matches %zu elements (%s, %s%s): name one by its id or a fuller name",
		spec, n, a, b, n > 2 ? ", ..." : "");
}
