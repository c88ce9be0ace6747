#include "a11y.h"

#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "actargs.h"
#include "strescape.h"
#include "timeutil.h"
#include "util.h"

/* One walk's state: the deadline, and the applications found not answering. */
struct walker {
	const struct a11y_walk *w;
	struct a11y_tree *t;
	bool app_failed; /* the application being walked stopped answering */
};

static uint64_t left_ms(const struct walker *k)
{
	uint64_t now = now_ms();
	return now >= k->w->deadline_ms ? 0 : k->w->deadline_ms - now;
}

/* Every call waits at most A11Y_CALL_MS, less near the deadline; -1: no longer start-up grace
 * for young applications (libatspi's default is 15 s). */
static bool bound_calls(struct walker *k)
{
	uint64_t left = left_ms(k);
	if (left == 0) {
		k->t->cut = "timeout";
		return false;
	}
	atspi_set_timeout((gint)(left < A11Y_CALL_MS ? left : A11Y_CALL_MS), -1);
	return true;
}

/* Names an application that stopped answering: by its name when that was read, else by its
 * process's (the accessibility bus says which process it is, not the application). */
static void note_unanswered(struct a11y_tree *t, AtspiAccessible *app, const char *name)
{
	GError *gerr = NULL;
	guint pid = atspi_accessible_get_process_id(app, &gerr);
	g_clear_error(&gerr);
	char comm[64] = "";
	if (!(name && *name) && pid > 0) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%u/comm", pid);
		FILE *f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
		}
		if (f) {
			fclose(f);
		}
		name = comm;
	}
	char *s = NULL;
	if (asprintf(&s, "%s%s%s (pid %u)", t->unanswered ? t->unanswered : "",
		     t->unanswered ? ", " : "", name && *name ? name : "unnamed", pid) >= 0) {
		free(t->unanswered);
		t->unanswered = s;
	}
}

static bool failed(struct walker *k, GError **gerr)
{
	if (!*gerr) {
		return false;
	}
	k->app_failed = true;
	g_clear_error(gerr);
	return true;
}

static struct a11y_node *push(struct a11y_tree *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct a11y_node *v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			return NULL;
		}
		t->v = v;
		t->cap = cap;
	}
	struct a11y_node *n = &t->v[t->n++];
	*n = (struct a11y_node){0};
	return n;
}

static uint64_t state_bits(AtspiAccessible *obj)
{
	AtspiStateSet *set = atspi_accessible_get_state_set(obj);
	uint64_t bits = 0;
	GArray *a = set ? atspi_state_set_get_states(set) : NULL;
	for (guint i = 0; a && i < a->len; i++) {
		unsigned s = (unsigned)g_array_index(a, AtspiStateType, i);
		if (s < 64) {
			bits |= 1ull << s;
		}
	}
	if (a) {
		g_array_free(a, TRUE);
	}
	if (set) {
		g_object_unref(set);
	}
	return bits;
}

#define HAS(bits, s) (((bits) >> (s)) & 1)

/* Reads one node (not its children) into a new entry; NULL when it is to be left out (not
 * showing) or the application did not answer. */
static struct a11y_node *read_node(struct walker *k, AtspiAccessible *obj, const char *id,
				   unsigned depth, bool always)
{
	GError *gerr = NULL;
	uint64_t states = state_bits(obj);
	if (!always && !HAS(states, ATSPI_STATE_SHOWING)) {
		return NULL;
	}
	AtspiRole role = atspi_accessible_get_role(obj, &gerr);
	if (failed(k, &gerr)) {
		return NULL;
	}
	gchar *role_name = atspi_role_get_name(role);
	bool whole = !k->w->role || depth <= 2 ||
		     (role_name && a11y_role_matches(role_name, k->w->role));
	gchar *name = whole ? atspi_accessible_get_name(obj, &gerr) : NULL;
	if (failed(k, &gerr)) {
		g_free(role_name);
		return NULL;
	}
	int x = 0, y = 0, w = 0, h = 0;
	AtspiComponent *c = whole ? atspi_accessible_get_component_iface(obj) : NULL;
	if (c) {
		AtspiRect *r = atspi_component_get_extents(c, ATSPI_COORD_TYPE_SCREEN, &gerr);
		g_object_unref(c);
		if (failed(k, &gerr)) {
			g_free(name);
			g_free(role_name);
			return NULL;
		}
		if (r) {
			x = r->x;
			y = r->y;
			w = r->width > 0 ? r->width : 0;
			h = r->height > 0 ? r->height : 0;
			g_free(r);
		}
	}
	/* Off the screen (xfwm4 keeps a window at -1000,-1000): left out, with what it holds. */
	if (!always && w && h &&
	    (x + w <= 0 || y + h <= 0 ||
	     (k->w->sw && (x >= (int)k->w->sw || y >= (int)k->w->sh)))) {
		g_free(name);
		g_free(role_name);
		return NULL;
	}
	struct a11y_node *n = push(k->t);
	if (!n) {
		g_free(name);
		g_free(role_name);
		return NULL;
	}
	snprintf(n->id, sizeof(n->id), "%s", id);
	n->depth = depth;
	n->role = role_name ? role_name : g_strdup("unknown");
	n->partial = !whole;
	n->name = strdup(name ? name : "");
	g_free(name);
	n->x = x;
	n->y = y;
	n->w = w;
	n->h = h;
	n->states = states;
	n->obj = g_object_ref(obj);
	return n;
}

static void walk_children(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth);

static void walk_node(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth,
		      size_t window)
{
	if (k->app_failed || !bound_calls(k)) {
		return;
	}
	if (k->t->n >= A11Y_NODES_MAX) {
		k->t->cut = "nodes";
		return;
	}
	struct a11y_node *n = read_node(k, obj, id, depth, false);
	if (!n) {
		return;
	}
	n->window = depth == 2 ? k->t->n - 1 : window;
	if (!k->w->depth || depth < k->w->depth) {
		walk_children(k, obj, id, depth);
	}
}

static void walk_children(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth)
{
	GError *gerr = NULL;
	gint count = atspi_accessible_get_child_count(obj, &gerr);
	if (failed(k, &gerr)) {
		return;
	}
	size_t window = k->t->n - 1;
	window = k->t->v[window].window;
	for (gint i = 0; i < count && !k->app_failed && !k->t->cut; i++) {
		if (!bound_calls(k)) {
			return;
		}
		AtspiAccessible *child = atspi_accessible_get_child_at_index(obj, i, &gerr);
		if (failed(k, &gerr) || !child) {
			continue;
		}
		char cid[A11Y_ID_MAX + 16];
		snprintf(cid, sizeof(cid), "%s.%d", id, i);
		if (strlen(cid) <= A11Y_ID_MAX) {
			walk_node(k, child, cid, depth + 1, window);
		}
		g_object_unref(child);
	}
}

/* ---- one application's tree in one call: org.a11y.atspi.Cache.GetItems ----
 * Its items are every accessible object the application's bridge keeps (GTK's and Chromium's
 * through at-spi2-atk, Qt's own): path, parent, index in it, child count, interfaces, name,
 * role, states. Read from them, a node costs one call (its bounds) instead of six, and a hidden
 * one none: the calls are what a tree costs, each a round trip through the bus daemon. */

#define ROOT_PATH "/org/a11y/atspi/accessible/root"

struct citem {
	const char *path, *parent, *name; /* into the reply, which lives as long as the cache */
	int index, nchildren;
	unsigned role;
	uint64_t states;
	bool component;
	size_t *kids, nkids;
};

struct cache {
	DBusMessage *reply;
	DBusConnection *bus;
	const char *bus_name;
	struct citem *v;
	size_t n;
	GHashTable *by_path; /* path -> index + 1 */
};

static void cache_free(struct cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].kids);
	}
	free(c->v);
	if (c->by_path) {
		g_hash_table_destroy(c->by_path);
	}
	if (c->reply) {
		dbus_message_unref(c->reply);
	}
	*c = (struct cache){0};
}

/* One call to bus_name, bounded as every call of the walk. NULL when it failed: then *unknown
 * says whether the application has no such method (another way may do), else it stopped
 * answering (k->app_failed). */
static DBusMessage *call(struct walker *k, DBusConnection *bus, const char *bus_name,
			 const char *path, const char *iface, const char *method, bool with_coords,
			 bool *unknown)
{
	*unknown = false;
	uint64_t left = left_ms(k);
	if (left == 0) {
		k->t->cut = "timeout";
		return NULL;
	}
	DBusMessage *m = dbus_message_new_method_call(bus_name, path, iface, method);
	if (!m) {
		return NULL;
	}
	dbus_uint32_t screen = ATSPI_COORD_TYPE_SCREEN;
	if (with_coords) {
		dbus_message_append_args(m, DBUS_TYPE_UINT32, &screen, DBUS_TYPE_INVALID);
	}
	DBusError derr;
	dbus_error_init(&derr);
	DBusMessage *reply = dbus_connection_send_with_reply_and_block(
		bus, m, (int)(left < A11Y_CALL_MS ? left : A11Y_CALL_MS), &derr);
	dbus_message_unref(m);
	if (!reply) {
		*unknown = dbus_error_has_name(&derr, DBUS_ERROR_UNKNOWN_METHOD) ||
			   dbus_error_has_name(&derr, DBUS_ERROR_UNKNOWN_OBJECT) ||
			   dbus_error_has_name(&derr, DBUS_ERROR_UNKNOWN_INTERFACE);
		k->app_failed = k->app_failed || !*unknown;
		dbus_error_free(&derr);
	}
	return reply;
}

static const char *object_path(DBusMessageIter *it)
{
	DBusMessageIter ref;
	const char *s = NULL;
	if (dbus_message_iter_get_arg_type(it) != DBUS_TYPE_STRUCT) {
		return NULL;
	}
	dbus_message_iter_recurse(it, &ref); /* (so) */
	dbus_message_iter_next(&ref);
	if (dbus_message_iter_get_arg_type(&ref) == DBUS_TYPE_OBJECT_PATH) {
		dbus_message_iter_get_basic(&ref, &s);
	}
	return s;
}

static bool next_is(DBusMessageIter *f, int type)
{
	dbus_message_iter_next(f);
	return dbus_message_iter_get_arg_type(f) == type;
}

/* One item (so)(so)(so)iiassusau into it; false when it is not that shape. */
static bool read_item(DBusMessageIter *st, struct citem *it)
{
	DBusMessageIter f, a;
	dbus_message_iter_recurse(st, &f);
	it->path = object_path(&f);
	dbus_message_iter_next(&f); /* the application */
	dbus_message_iter_next(&f);
	it->parent = object_path(&f);
	if (!it->path || !it->parent || !next_is(&f, DBUS_TYPE_INT32)) {
		return false;
	}
	dbus_int32_t i32;
	dbus_message_iter_get_basic(&f, &i32);
	it->index = i32;
	if (!next_is(&f, DBUS_TYPE_INT32)) {
		return false;
	}
	dbus_message_iter_get_basic(&f, &i32);
	it->nchildren = i32;
	if (!next_is(&f, DBUS_TYPE_ARRAY)) {
		return false;
	}
	dbus_message_iter_recurse(&f, &a);
	while (dbus_message_iter_get_arg_type(&a) == DBUS_TYPE_STRING) {
		const char *iface;
		dbus_message_iter_get_basic(&a, &iface);
		it->component = it->component || streq(iface, "org.a11y.atspi.Component");
		dbus_message_iter_next(&a);
	}
	if (!next_is(&f, DBUS_TYPE_STRING)) {
		return false;
	}
	dbus_message_iter_get_basic(&f, &it->name);
	if (!next_is(&f, DBUS_TYPE_UINT32)) {
		return false;
	}
	dbus_uint32_t u32;
	dbus_message_iter_get_basic(&f, &u32);
	it->role = u32;
	dbus_message_iter_next(&f); /* the description */
	if (!next_is(&f, DBUS_TYPE_ARRAY)) {
		return false;
	}
	dbus_message_iter_recurse(&f, &a);
	for (unsigned word = 0; word < 2 && dbus_message_iter_get_arg_type(&a) == DBUS_TYPE_UINT32;
	     word++) {
		dbus_message_iter_get_basic(&a, &u32);
		it->states |= (uint64_t)u32 << (32 * word);
		dbus_message_iter_next(&a);
	}
	return true;
}

static int by_index(const void *a, const void *b, void *ctx)
{
	const struct citem *v = ctx;
	int x = v[*(const size_t *)a].index, y = v[*(const size_t *)b].index;
	return (x > y) - (x < y);
}

/* The application's items, each with its children in order. -EOPNOTSUPP when it keeps no
 * cache (the walk then asks node by node), -EIO when it did not answer. */
static int cache_load(struct walker *k, AtspiAccessible *app, struct cache *c)
{
	*c = (struct cache){0};
	AtspiObject *o = ATSPI_OBJECT(app);
	if (!o->app || !o->app->bus || !o->app->bus_name) {
		return -EOPNOTSUPP;
	}
	c->bus = o->app->bus;
	c->bus_name = o->app->bus_name;
	bool unknown;
	c->reply = call(k, c->bus, c->bus_name, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache",
			"GetItems", false, &unknown);
	if (!c->reply) {
		return unknown ? -EOPNOTSUPP : -EIO;
	}
	DBusMessageIter it, arr;
	if (!dbus_message_iter_init(c->reply, &it) ||
	    dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_ARRAY) {
		cache_free(c);
		return -EOPNOTSUPP;
	}
	int count = dbus_message_iter_get_element_count(&it);
	c->v = calloc(count > 0 ? (size_t)count : 1, sizeof(*c->v));
	c->by_path = g_hash_table_new(g_str_hash, g_str_equal);
	if (!c->v) {
		cache_free(c);
		return -ENOMEM;
	}
	dbus_message_iter_recurse(&it, &arr);
	while (dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRUCT && c->n < (size_t)count) {
		if (read_item(&arr, &c->v[c->n])) {
			g_hash_table_insert(c->by_path, (gpointer)(uintptr_t)c->v[c->n].path,
					    GSIZE_TO_POINTER(c->n + 1));
			c->n++;
		}
		dbus_message_iter_next(&arr);
	}
	for (size_t i = 0; i < c->n; i++) {
		size_t p = GPOINTER_TO_SIZE(g_hash_table_lookup(c->by_path, c->v[i].parent));
		if (p == 0) {
			continue;
		}
		struct citem *parent = &c->v[p - 1];
		size_t *kids = realloc(parent->kids, (parent->nkids + 1) * sizeof(*kids));
		if (!kids) {
			cache_free(c);
			return -ENOMEM;
		}
		parent->kids = kids;
		parent->kids[parent->nkids++] = i;
	}
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].nkids > 1) {
			qsort_r(c->v[i].kids, c->v[i].nkids, sizeof(size_t), by_index, c->v);
		}
	}
	return 0;
}

/* The AtspiAccessible of the node with that id (its path of indices from the desktop), asked
 * node by node from the application: for what the cache does not hold. */
static AtspiAccessible *resolve(AtspiAccessible *app, const char *id)
{
	AtspiAccessible *obj = g_object_ref(app);
	const char *p = strchr(id, '.');
	while (obj && p) {
		GError *gerr = NULL;
		AtspiAccessible *child = atspi_accessible_get_child_at_index(
			obj, (gint)strtol(p + 1, NULL, 10), &gerr);
		g_clear_error(&gerr);
		g_object_unref(obj);
		obj = child;
		p = strchr(p + 1, '.');
	}
	return obj;
}

/* The item's bounds on the screen: one call. */
static void cached_extents(struct walker *k, const struct cache *c, const struct citem *it, int *x,
			   int *y, int *w, int *h)
{
	bool unknown;
	DBusMessage *r = call(k, c->bus, c->bus_name, it->path, "org.a11y.atspi.Component",
			      "GetExtents", true, &unknown);
	DBusMessageIter m, s;
	dbus_int32_t v[4] = {0, 0, 0, 0};
	if (r && dbus_message_iter_init(r, &m) &&
	    dbus_message_iter_get_arg_type(&m) == DBUS_TYPE_STRUCT) {
		dbus_message_iter_recurse(&m, &s);
		for (int j = 0; j < 4 && dbus_message_iter_get_arg_type(&s) == DBUS_TYPE_INT32;
		     j++) {
			dbus_message_iter_get_basic(&s, &v[j]);
			dbus_message_iter_next(&s);
		}
	}
	if (r) {
		dbus_message_unref(r);
	}
	*x = v[0];
	*y = v[1];
	*w = v[2] > 0 ? v[2] : 0;
	*h = v[3] > 0 ? v[3] : 0;
}

/* One cached item and what it holds, as walk_node reads a node: left out when not showing or
 * off the screen; bounds asked only for what is read whole. */
static void walk_cached(struct walker *k, const struct cache *c, AtspiAccessible *app, size_t i,
			const char *id, unsigned depth, size_t window, bool always)
{
	const struct citem *it = &c->v[i];
	if (k->app_failed || k->t->cut) {
		return;
	}
	if (k->t->n >= A11Y_NODES_MAX) {
		k->t->cut = "nodes";
		return;
	}
	if (!always && !HAS(it->states, ATSPI_STATE_SHOWING)) {
		return;
	}
	gchar *role_name = atspi_role_get_name((AtspiRole)it->role);
	bool whole = depth <= 2 ||
		     ((!k->w->role || (role_name && a11y_role_matches(role_name, k->w->role))) &&
		      (!k->w->name || a11y_name_match(it->name, k->w->name) > 0));
	int x = 0, y = 0, w = 0, h = 0;
	if (whole && it->component) {
		cached_extents(k, c, it, &x, &y, &w, &h);
	}
	if (k->app_failed || (!always && w && h &&
			      (x + w <= 0 || y + h <= 0 ||
			       (k->w->sw && (x >= (int)k->w->sw || y >= (int)k->w->sh))))) {
		g_free(role_name);
		return;
	}
	struct a11y_node *n = push(k->t);
	if (!n) {
		g_free(role_name);
		return;
	}
	snprintf(n->id, sizeof(n->id), "%s", id);
	n->depth = depth;
	n->role = role_name ? role_name : g_strdup("unknown");
	n->partial = !whole;
	n->name = strdup(whole ? it->name : "");
	n->x = x;
	n->y = y;
	n->w = w;
	n->h = h;
	n->states = it->states;
	n->bus_name = strdup(c->bus_name);
	n->path = strdup(it->path);
	n->window = depth == 2 ? k->t->n - 1 : window;
	window = n->window;
	if (k->w->depth && depth >= k->w->depth) {
		return;
	}
	if ((int)it->nkids < it->nchildren) {
		/* Children the cache does not hold (a list that manages its descendants): asked
		 * one by one. */
		AtspiAccessible *obj = resolve(app, id);
		if (obj) {
			walk_children(k, obj, id, depth);
			g_object_unref(obj);
		}
		return;
	}
	for (size_t j = 0; j < it->nkids && !k->app_failed && !k->t->cut; j++) {
		char cid[A11Y_ID_MAX + 16];
		snprintf(cid, sizeof(cid), "%s.%d", id, c->v[it->kids[j]].index);
		if (strlen(cid) <= A11Y_ID_MAX) {
			walk_cached(k, c, app, it->kids[j], cid, depth + 1, window, false);
		}
	}
}

/* The application's windows (or the one window of index only, when only >= 0) from its cache;
 * false when it keeps none: the walk then asks node by node. */
static bool walk_app_cached(struct walker *k, AtspiAccessible *app, const char *id, int only)
{
	struct cache c;
	int r = cache_load(k, app, &c);
	if (r == -EOPNOTSUPP) {
		return false;
	}
	size_t *top = calloc(c.n ? c.n : 1, sizeof(*top));
	size_t n = 0;
	for (size_t i = 0; r == 0 && top && i < c.n; i++) {
		if (streq(c.v[i].parent, ROOT_PATH) && (only < 0 || c.v[i].index == only)) {
			top[n++] = i;
		}
	}
	if (n > 1) {
		qsort_r(top, n, sizeof(size_t), by_index, c.v);
	}
	for (size_t j = 0; j < n && !k->app_failed && !k->t->cut; j++) {
		char cid[A11Y_ID_MAX + 16];
		snprintf(cid, sizeof(cid), "%s.%d", id, c.v[top[j]].index);
		walk_cached(k, &c, app, top[j], cid, 2, k->t->n, only >= 0);
	}
	free(top);
	cache_free(&c);
	return true;
}

/* One application: kept only when something of it shows; named when it stopped answering. */
static void walk_app(struct walker *k, AtspiAccessible *app, const char *id)
{
	size_t start = k->t->n;
	k->app_failed = false;
	bool read = read_node(k, app, id, 1, true) != NULL;
	if (read) {
		k->t->v[start].window = start;
		if (k->w->depth != 1 && !walk_app_cached(k, app, id, -1)) {
			walk_children(k, app, id, 1);
		}
	}
	if (k->app_failed) {
		note_unanswered(k->t, app, read ? k->t->v[start].name : NULL);
	}
	/* An application with no window showing is left out, and so is one that did not answer
	 * (what was read of it may be half). */
	if (k->app_failed || (read && k->t->n == start + 1 && k->w->depth != 1)) {
		struct a11y_tree dropped = {.v = k->t->v + start, .n = k->t->n - start};
		for (size_t i = 0; i < dropped.n; i++) {
			g_free(dropped.v[i].role);
			free(dropped.v[i].name);
			free(dropped.v[i].bus_name);
			free(dropped.v[i].path);
			if (dropped.v[i].obj) {
				g_object_unref(dropped.v[i].obj);
			}
		}
		k->t->n = start;
	}
}

/* --window: the one window (depth 2) of that id, or whose title is that (else has it as a
 * part). */
static int pick_window(struct walker *k, AtspiAccessible *desktop, AtspiAccessible **ret,
		       char *ret_id, struct error *err)
{
	const char *want = k->w->window;
	GError *gerr = NULL;
	if (a11y_is_id(want)) {
		unsigned a, b;
		char rest;
		if (sscanf(want, "%u.%u%c", &a, &b, &rest) != 2) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -ENOENT,
				"--window %s is no window's id: a window's is APP.WINDOW (e.g. 2.0), as tree shows it",
				want);
		}
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, (gint)a, &gerr);
		AtspiAccessible *win =
			app ? atspi_accessible_get_child_at_index(app, (gint)b, &gerr) : NULL;
		g_clear_error(&gerr);
		if (app) {
			g_object_unref(app);
		}
		if (!win) {
			return error_set_kind(err, ERROR_BAD_INPUT, -ENOENT,
					      "no window has the id %s now: ask tree again", want);
		}
		*ret = win;
		snprintf(ret_id, A11Y_ID_MAX + 1, "%s", want);
		return 0;
	}
	/* By title: the top two levels only. */
	struct a11y_walk top = *k->w;
	top.depth = 2;
	top.window = NULL;
	struct a11y_tree t = {0};
	struct walker tk = {.w = &top, .t = &t};
	gint apps = atspi_accessible_get_child_count(desktop, &gerr);
	g_clear_error(&gerr);
	for (gint i = 0; i < apps && bound_calls(&tk); i++) {
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, &gerr);
		g_clear_error(&gerr);
		if (app) {
			char id[16];
			snprintf(id, sizeof(id), "%d", i);
			walk_app(&tk, app, id);
			g_object_unref(app);
		}
	}
	size_t exact = 0, part = 0, which = 0;
	for (size_t i = 0; i < t.n; i++) {
		int m = t.v[i].depth == 2 ? a11y_name_match(t.v[i].name, want) : 0;
		exact += m == 2;
		part += m == 1;
		if (m == 2 || (m == 1 && exact == 0)) {
			which = i;
		}
	}
	size_t found = exact ? exact : part;
	if (found != 1) {
		a11y_tree_free(&t);
		return error_set_kind(
			err, ERROR_BAD_INPUT, found ? -EINVAL : -ENOENT,
			found ? "--window '%s' names %zu windows: give its id (tree shows them)"
			      : "no window showing has the title '%s'%.0zu: see botdesk tree --depth 2",
			want, found);
	}
	*ret = t.v[which].obj ? g_object_ref(t.v[which].obj) : NULL;
	snprintf(ret_id, A11Y_ID_MAX + 1, "%s", t.v[which].id);
	a11y_tree_free(&t);
	return 0;
}

int a11y_walk(const struct a11y_walk *w, struct a11y_tree *t, struct error *err)
{
	*t = (struct a11y_tree){0};
	/* Only the desktop's: a caller's own accessibility bus would be somebody else's. */
	unsetenv("AT_SPI_BUS_ADDRESS");
	if (atspi_init() < 0) {
		return error_set(err, -ENOTCONN, "cannot reach the desktop's accessibility bus");
	}
	struct walker k = {.w = w, .t = t};
	if (!bound_calls(&k)) {
		return error_set(err, -ETIMEDOUT, "no time left for the accessibility tree");
	}
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop) {
		return error_set(
			err, -ENOTCONN,
			"the desktop has no accessibility registry (is at-spi2-core installed?)");
	}
	if (w->window) {
		AtspiAccessible *win = NULL;
		char id[A11Y_ID_MAX + 1];
		int r = pick_window(&k, desktop, &win, id, err);
		if (r < 0) {
			return r;
		}
		/* Levels count from the window: it is depth 2, as in the whole tree. */
		struct a11y_walk ww = *w;
		if (ww.depth) {
			ww.depth += 1;
		}
		k.w = &ww;
		k.app_failed = false;
		/* From the application's cache when it keeps one. */
		unsigned a = 0, b = 0;
		GError *gerr = NULL;
		AtspiAccessible *app =
			sscanf(id, "%u.%u", &a, &b) == 2
				? atspi_accessible_get_child_at_index(desktop, (gint)a, &gerr)
				: NULL;
		g_clear_error(&gerr);
		char appid[16];
		snprintf(appid, sizeof(appid), "%u", a);
		bool cached = app && walk_app_cached(&k, app, appid, (int)b) && t->n > 0;
		if (cached || (app && k.app_failed)) {
			if (k.app_failed) {
				note_unanswered(t, app, w->window);
			}
			k.w = w;
			g_object_unref(app);
			if (win) {
				g_object_unref(win);
			}
			return 0;
		}
		if (!win && app) {
			win = atspi_accessible_get_child_at_index(app, (gint)b, &gerr);
			g_clear_error(&gerr);
		}
		if (app) {
			g_object_unref(app);
		}
		if (!win) {
			return error_set_kind(err, ERROR_BAD_INPUT, -ENOENT,
					      "no window has the id %s now: ask tree again", id);
		}
		bool read = read_node(&k, win, id, 2, true) != NULL;
		if (read) {
			t->v[0].window = 0;
			if (!ww.depth || ww.depth > 2) {
				walk_children(&k, win, id, 2);
			}
		}
		if (k.app_failed) {
			note_unanswered(t, win, read ? t->v[0].name : w->window);
		}
		k.w = w;
		g_object_unref(win);
		return 0;
	}
	GError *gerr = NULL;
	gint apps = atspi_accessible_get_child_count(desktop, &gerr);
	if (gerr) {
		int r = error_set(err, -ENOTCONN, "cannot read the desktop's applications: %s",
				  gerr->message);
		g_clear_error(&gerr);
		return r;
	}
	for (gint i = 0; i < apps && !t->cut && bound_calls(&k); i++) {
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, &gerr);
		g_clear_error(&gerr);
		if (!app) {
			continue;
		}
		char id[16];
		snprintf(id, sizeof(id), "%d", i);
		walk_app(&k, app, id);
		g_object_unref(app);
	}
	return 0;
}

void a11y_tree_free(struct a11y_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		g_free(t->v[i].role);
		free(t->v[i].name);
		free(t->v[i].bus_name);
		free(t->v[i].path);
		if (t->v[i].obj) {
			g_object_unref(t->v[i].obj);
		}
	}
	free(t->v);
	free(t->unanswered);
	*t = (struct a11y_tree){0};
}

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

bool a11y_focused(const struct a11y_node *n)
{
	if (n->obj) {
		return HAS(state_bits(n->obj), ATSPI_STATE_FOCUSED);
	}
	/* A node read from its application's cache: its states asked again, in one call. */
	DBusConnection *bus = atspi_get_a11y_bus();
	DBusMessage *m = bus ? dbus_message_new_method_call(n->bus_name, n->path,
							    "org.a11y.atspi.Accessible", "GetState")
			     : NULL;
	if (!m) {
		return false;
	}
	DBusMessage *r = dbus_connection_send_with_reply_and_block(bus, m, A11Y_CALL_MS, NULL);
	dbus_message_unref(m);
	DBusMessageIter it, a;
	uint64_t states = 0;
	if (r && dbus_message_iter_init(r, &it) &&
	    dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_ARRAY) {
		dbus_message_iter_recurse(&it, &a);
		for (unsigned word = 0;
		     word < 2 && dbus_message_iter_get_arg_type(&a) == DBUS_TYPE_UINT32; word++) {
			dbus_uint32_t u32;
			dbus_message_iter_get_basic(&a, &u32);
			states |= (uint64_t)u32 << (32 * word);
			dbus_message_iter_next(&a);
		}
	}
	if (r) {
		dbus_message_unref(r);
	}
	return HAS(states, ATSPI_STATE_FOCUSED);
}

void a11y_close(void)
{
	atspi_exit();
}

/* ---- printing ---- */

static void put_json_string(FILE *f, const char *s)
{
	escape_json_string(f, s, strlen(s));
}

/* A name on one line of the outline: quotes and line breaks escaped, at most 120 bytes (whole
 * UTF-8 characters) and an ellipsis. */
static void put_text_name(FILE *f, const char *s)
{
	fputc('"', f);
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
		if (n >= 120 && (*p & 0xc0) != 0x80) {
			fputs("…", f);
			break;
		}
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p < 0x20) {
			fputc(' ', f);
		} else {
			fputc(*p, f);
		}
	}
	fputc('"', f);
}

static const char *state_name(unsigned s)
{
	GEnumClass *c = g_type_class_ref(atspi_state_type_get_type());
	GEnumValue *v = g_enum_get_value(c, (gint)s);
	const char *name = v ? v->value_nick : NULL;
	g_type_class_unref(c);
	return name;
}

/* The states the outline shows: what an agent acts on. The JSON has them all. */
static const unsigned outline_states[] = {
	ATSPI_STATE_FOCUSED,       ATSPI_STATE_CHECKED,  ATSPI_STATE_SELECTED,
	ATSPI_STATE_PRESSED,       ATSPI_STATE_EXPANDED, ATSPI_STATE_COLLAPSED,
	ATSPI_STATE_EDITABLE,      ATSPI_STATE_ACTIVE,   ATSPI_STATE_REQUIRED,
	ATSPI_STATE_INVALID_ENTRY, ATSPI_STATE_BUSY,     ATSPI_STATE_INDETERMINATE,
	ATSPI_STATE_READ_ONLY,     ATSPI_STATE_MODAL,
};

static void scale_box(const struct a11y_node *n, const struct a11y_scale *sc, int *x, int *y,
		      int *w, int *h)
{
	*x = n->x;
	*y = n->y;
	*w = n->w;
	*h = n->h;
	if (!sc || !sc->pic_w || !sc->sw || !sc->sh) {
		return;
	}
	/* Edges map as the picture's pixels cover the screen (act_to_picture), clamped to it. */
	int x2 = n->x + n->w, y2 = n->y + n->h;
	int cx = n->x < 0 ? 0 : n->x, cy = n->y < 0 ? 0 : n->y;
	x2 = x2 > (int)sc->sw ? (int)sc->sw : x2;
	y2 = y2 > (int)sc->sh ? (int)sc->sh : y2;
	cx = cx >= (int)sc->sw ? (int)sc->sw - 1 : cx;
	cy = cy >= (int)sc->sh ? (int)sc->sh - 1 : cy;
	*x = (int)act_to_picture((unsigned)cx, sc->sw, sc->pic_w);
	*y = (int)act_to_picture((unsigned)cy, sc->sh, sc->pic_h);
	int ex = x2 > cx ? (int)act_to_picture((unsigned)(x2 - 1), sc->sw, sc->pic_w) + 1 : *x;
	int ey = y2 > cy ? (int)act_to_picture((unsigned)(y2 - 1), sc->sh, sc->pic_h) + 1 : *y;
	*w = n->w ? ex - *x : 0;
	*h = n->h ? ey - *y : 0;
}

static void put_line(FILE *f, const struct a11y_node *n, const struct a11y_scale *sc,
		     unsigned indent)
{
	fprintf(f, "%*s%s ", (int)(2 * indent), "", n->role);
	put_text_name(f, n->name);
	int x, y, w, h;
	scale_box(n, sc, &x, &y, &w, &h);
	if (w || h) {
		fprintf(f, " %d,%d %dx%d", x, y, w, h);
	}
	bool first = true;
	for (size_t i = 0; i < ARRAY_SIZE(outline_states); i++) {
		if (HAS(n->states, outline_states[i])) {
			fprintf(f, "%s%s", first ? " [" : ",", state_name(outline_states[i]));
			first = false;
		}
	}
	/* A widget one could act on but may not now. */
	if (HAS(n->states, ATSPI_STATE_FOCUSABLE) && !HAS(n->states, ATSPI_STATE_ENABLED)) {
		fprintf(f, "%sdisabled", first ? " [" : ",");
		first = false;
	}
	fprintf(f, "%s #%s", first ? "" : "]", n->id);
}

static void put_json_node(FILE *f, const struct a11y_node *n, const struct a11y_scale *sc)
{
	int x, y, w, h;
	scale_box(n, sc, &x, &y, &w, &h);
	fprintf(f, "{\"id\":\"%s\",\"role\":", n->id);
	put_json_string(f, n->role);
	fputs(",\"name\":", f);
	put_json_string(f, n->name);
	fprintf(f, ",\"x\":%d,\"y\":%d,\"width\":%d,\"height\":%d,\"states\":[", x, y, w, h);
	bool first = true;
	for (unsigned s = 0; s < 64; s++) {
		/* Showing and visible go without saying: the others are left out. */
		if (HAS(n->states, s) && s != ATSPI_STATE_SHOWING && s != ATSPI_STATE_VISIBLE &&
		    state_name(s)) {
			fprintf(f, "%s\"%s\"", first ? "" : ",", state_name(s));
			first = false;
		}
	}
	fputc(']', f);
}

static void put_json_tail(FILE *f, const struct a11y_tree *t)
{
	if (t->cut) {
		fprintf(f, ",\"cut\":\"%s\"", t->cut);
	}
	if (t->unanswered) {
		fputs(",\"unanswered\":", f);
		put_json_string(f, t->unanswered);
	}
}

void a11y_print_tree(FILE *f, const struct a11y_tree *t, const struct a11y_scale *sc, bool json)
{
	unsigned base = t->n ? t->v[0].depth : 1;
	if (!json) {
		for (size_t i = 0; i < t->n; i++) {
			put_line(f, &t->v[i], sc, t->v[i].depth - base);
			fputc('\n', f);
		}
		if (t->cut) {
			fprintf(f, "(cut: %s)\n",
				streq(t->cut, "timeout")
					? "the call's time ran out; ask for one window or fewer levels, or a longer --timeout"
					: "too many nodes; ask for one window or fewer levels");
		}
		if (t->unanswered) {
			fprintf(f, "(did not answer in time, left out: %s)\n", t->unanswered);
		}
		return;
	}
	fputs("{\"nodes\":[", f);
	for (size_t i = 0; i < t->n; i++) {
		put_json_node(f, &t->v[i], sc);
		unsigned next = i + 1 < t->n ? t->v[i + 1].depth : base;
		if (next > t->v[i].depth) {
			fputs(",\"children\":[", f);
			continue;
		}
		fputs(",\"children\":[]}", f);
		for (unsigned d = t->v[i].depth; d > next; d--) {
			fputs("]}", f);
		}
		if (i + 1 < t->n) {
			fputc(',', f);
		}
	}
	fprintf(f, "],\"count\":%zu", t->n);
	put_json_tail(f, t);
	fputs("}\n", f);
}

void a11y_print_matches(FILE *f, const struct a11y_tree *t, const size_t *m, size_t n,
			const struct a11y_scale *sc, bool json)
{
	if (json) {
		fputs("{\"matches\":[", f);
	}
	for (size_t i = 0; i < n; i++) {
		const struct a11y_node *x = &t->v[m[i]];
		const struct a11y_node *win = &t->v[x->window];
		if (json) {
			fputs(i ? "," : "", f);
			put_json_node(f, x, sc);
			fputs(",\"window\":", f);
			put_json_string(f, win->name);
			fputc('}', f);
			continue;
		}
		put_line(f, x, sc, 0);
		if (win != x) {
			fputs(" in ", f);
			put_text_name(f, win->name);
		}
		fputc('\n', f);
	}
	if (json) {
		fprintf(f, "],\"count\":%zu", n);
		put_json_tail(f, t);
		fputs("}\n", f);
		return;
	}
	if (t->unanswered) {
		fprintf(f, "(did not answer in time, left out: %s)\n", t->unanswered);
	}
	if (t->cut) {
		fprintf(f, "(cut: %s; there may be more)\n", t->cut);
	}
}
