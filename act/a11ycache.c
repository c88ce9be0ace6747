/* One application's tree in one call: org.a11y.atspi.Cache.GetItems (act/a11y-internal.h).
 * Its items are every accessible object the application's bridge keeps (GTK's and Chromium's
 * through at-spi2-atk, Qt's own): path, parent, index in it, child count, interfaces, name,
 * role, states. Read from them, a node costs one call (its bounds) instead of six, and a hidden
 * one none: the calls are what a tree costs, each a round trip through the bus daemon. */
#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "a11y-internal.h"
#include "util.h"

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
	int ms = walker_call_ms(k);
	if (ms == 0) {
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
	DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, ms, &derr);
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

/* The next field as an int32 into *ret; false when it is not one. */
static bool next_int(DBusMessageIter *f, int *ret)
{
	if (!next_is(f, DBUS_TYPE_INT32)) {
		return false;
	}
	dbus_int32_t i32;
	dbus_message_iter_get_basic(f, &i32);
	*ret = i32;
	return true;
}

/* An AT-SPI state set as D-Bus carries it (au: two words, the low one first) at arr, as
 * 1 << AtspiStateType bits. */
static uint64_t read_states(DBusMessageIter *arr)
{
	DBusMessageIter a;
	uint64_t states = 0;
	dbus_message_iter_recurse(arr, &a);
	for (unsigned word = 0; word < 2 && dbus_message_iter_get_arg_type(&a) == DBUS_TYPE_UINT32;
	     word++) {
		dbus_uint32_t u32;
		dbus_message_iter_get_basic(&a, &u32);
		states |= (uint64_t)u32 << (32 * word);
		dbus_message_iter_next(&a);
	}
	return states;
}

/* One item (so)(so)(so)iiassusau into it; false when it is not that shape. */
static bool read_item(DBusMessageIter *st, struct citem *it)
{
	DBusMessageIter f, a;
	/* An item that was not of the shape leaves its slot to the next: nothing of it stays. */
	*it = (struct citem){0};
	dbus_message_iter_recurse(st, &f);
	it->path = object_path(&f);
	dbus_message_iter_next(&f); /* the application */
	dbus_message_iter_next(&f);
	it->parent = object_path(&f);
	if (!it->path || !it->parent || !next_int(&f, &it->index) ||
	    !next_int(&f, &it->nchildren) || !next_is(&f, DBUS_TYPE_ARRAY)) {
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
	it->states = read_states(&f);
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

/* The item's bounds on the screen into n: one call. */
static void cached_extents(struct walker *k, const struct cache *c, const struct citem *it,
			   struct a11y_node *n)
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
	n->x = v[0];
	n->y = v[1];
	n->w = v[2] > 0 ? v[2] : 0;
	n->h = v[3] > 0 ? v[3] : 0;
}

/* One cached item into a new node, as the node-by-node walk reads one: its bounds asked only
 * when it is read whole (a window or above, or of find's role and name). NULL when it is left
 * out (off the screen) or the application did not answer. */
static struct a11y_node *read_cached(struct walker *k, const struct cache *c,
				     const struct citem *it, const char *id, unsigned depth,
				     bool always)
{
	struct a11y_node n = {.depth = depth, .states = it->states};
	n.role = atspi_role_get_name((AtspiRole)it->role);
	bool whole =
		depth <= 2 || ((!k->w->role || (n.role && a11y_role_matches(n.role, k->w->role))) &&
			       (!k->w->name || a11y_name_match(it->name, k->w->name) > 0));
	if (whole && it->component) {
		cached_extents(k, c, it, &n);
	}
	if (k->app_failed || (!always && walker_off_screen(k, &n))) {
		g_free(n.role);
		return NULL;
	}
	n.partial = !whole;
	n.name = strdup(whole ? it->name : "");
	n.bus_name = strdup(c->bus_name);
	n.path = strdup(it->path);
	return walker_keep(k, &n, id);
}

static void walk_cached(struct walker *k, const struct cache *c, AtspiAccessible *app, size_t i,
			const char *id, unsigned depth, size_t window, bool always);

/* What the item (node id) holds: from the cache, or node by node when the cache does not hold
 * them all (a list that manages its descendants). */
static void walk_cached_children(struct walker *k, const struct cache *c, AtspiAccessible *app,
				 const struct citem *it, const char *id, unsigned depth,
				 size_t window)
{
	if ((int)it->nkids < it->nchildren) {
		AtspiAccessible *obj = resolve(app, id);
		if (obj) {
			walker_children(k, obj, id, depth);
			g_object_unref(obj);
		}
		return;
	}
	for (size_t j = 0; j < it->nkids && !k->app_failed && !k->t->cut; j++) {
		char cid[A11Y_ID_MAX + 1];
		if (a11y_child_id(cid, id, c->v[it->kids[j]].index)) {
			walk_cached(k, c, app, it->kids[j], cid, depth + 1, window, false);
		}
	}
}

/* One cached item and what it holds, as the node-by-node walk reads a node: left out when not
 * showing or off the screen. */
static void walk_cached(struct walker *k, const struct cache *c, AtspiAccessible *app, size_t i,
			const char *id, unsigned depth, size_t window, bool always)
{
	const struct citem *it = &c->v[i];
	if (!walker_room(k) || (!always && !HAS(it->states, ATSPI_STATE_SHOWING))) {
		return;
	}
	struct a11y_node *n = read_cached(k, c, it, id, depth, always);
	if (n && walker_below(k, n, window)) {
		walk_cached_children(k, c, app, it, id, depth, n->window);
	}
}

bool walker_app_cached(struct walker *k, AtspiAccessible *app, const char *id, int only)
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
		char cid[A11Y_ID_MAX + 1];
		if (a11y_child_id(cid, id, c.v[top[j]].index)) {
			walk_cached(k, &c, app, top[j], cid, 2, k->t->n, only >= 0);
		}
	}
	free(top);
	cache_free(&c);
	return true;
}

uint64_t a11y_cached_states(const struct a11y_node *n)
{
	DBusConnection *bus = atspi_get_a11y_bus();
	DBusMessage *m = bus ? dbus_message_new_method_call(n->bus_name, n->path,
							    "org.a11y.atspi.Accessible", "GetState")
			     : NULL;
	if (!m) {
		return 0;
	}
	DBusMessage *r = dbus_connection_send_with_reply_and_block(bus, m, A11Y_CALL_MS, NULL);
	dbus_message_unref(m);
	DBusMessageIter it;
	uint64_t states = 0;
	if (r && dbus_message_iter_init(r, &it) &&
	    dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_ARRAY) {
		states = read_states(&it);
	}
	if (r) {
		dbus_message_unref(r);
	}
	return states;
}
