/* The desktop's accessibility tree walked node by node through libatspi (act/a11y.h): the
 * desktop's applications, their showing windows and what those hold, every call bounded by the
 * walk's deadline; --window's one window. Where an application keeps a cache, a11ycache.c reads
 * its tree in one call instead. */
#include "a11y.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "a11y-internal.h"
#include "array.h"
#include "timeutil.h"
#include "util.h"

int walker_call_ms(struct walker *k)
{
	uint64_t now = now_ms();
	if (now >= k->w->deadline_ms) {
		k->t->cut = "timeout";
		return 0;
	}
	uint64_t left = k->w->deadline_ms - now;
	return (int)(left < A11Y_CALL_MS ? left : A11Y_CALL_MS);
}

/* Every libatspi call waits as walker_call_ms says; -1: no longer start-up grace for young
 * applications (libatspi's default is 15 s). */
static bool bound_calls(struct walker *k)
{
	int ms = walker_call_ms(k);
	if (ms == 0) {
		return false;
	}
	atspi_set_timeout(ms, -1);
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

bool walker_room(struct walker *k)
{
	if (k->app_failed || k->t->cut) {
		return false;
	}
	if (k->t->n >= A11Y_NODES_MAX) {
		k->t->cut = "nodes";
		return false;
	}
	return true;
}

bool walker_below(const struct walker *k, struct a11y_node *n, size_t window)
{
	n->window = n->depth == 2 ? k->t->n - 1 : window;
	return !k->w->depth || n->depth < k->w->depth;
}

bool walker_off_screen(const struct walker *k, const struct a11y_node *n)
{
	return n->w && n->h &&
	       (n->x + n->w <= 0 || n->y + n->h <= 0 ||
		(k->w->sw && (n->x >= (int)k->w->sw || n->y >= (int)k->w->sh)));
}

struct a11y_node *walker_keep(struct walker *k, struct a11y_node *n, const char *id)
{
	struct a11y_tree *t = k->t;
	if (ARRAY_RESERVE(t->v, t->cap, t->n + 1, 256) < 0) {
		a11y_node_free(n);
		return NULL;
	}
	snprintf(n->id, sizeof(n->id), "%s", id);
	if (!n->role) {
		n->role = g_strdup("unknown");
	}
	t->v[t->n] = *n;
	return &t->v[t->n++];
}

void a11y_node_free(struct a11y_node *n)
{
	g_free(n->role);
	free(n->name);
	free(n->bus_name);
	free(n->path);
	if (n->obj) {
		g_object_unref(n->obj);
	}
	n->role = n->name = n->bus_name = n->path = NULL;
	n->obj = NULL;
}

/* The node's bounds on the screen into n (none without a Component interface); false when the
 * application did not answer. */
static bool read_extents(struct walker *k, AtspiAccessible *obj, struct a11y_node *n)
{
	AtspiComponent *c = atspi_accessible_get_component_iface(obj);
	if (!c) {
		return true;
	}
	GError *gerr = NULL;
	AtspiRect *r = atspi_component_get_extents(c, ATSPI_COORD_TYPE_SCREEN, &gerr);
	g_object_unref(c);
	if (failed(k, &gerr)) {
		return false;
	}
	if (r) {
		n->x = r->x;
		n->y = r->y;
		n->w = r->width > 0 ? r->width : 0;
		n->h = r->height > 0 ? r->height : 0;
		g_free(r);
	}
	return true;
}

/* Reads one node (not its children) into a new entry; NULL when it is to be left out (not
 * showing, or off the screen) or the application did not answer. Below the windows, with
 * find's role, a node of another role is read only as far as the walk needs (no name, no
 * bounds). */
static struct a11y_node *read_node(struct walker *k, AtspiAccessible *obj, const char *id,
				   unsigned depth, bool always)
{
	struct a11y_node n = {.depth = depth, .states = state_bits(obj)};
	if (!always && !HAS(n.states, ATSPI_STATE_SHOWING)) {
		return NULL;
	}
	GError *gerr = NULL;
	AtspiRole role = atspi_accessible_get_role(obj, &gerr);
	if (failed(k, &gerr)) {
		return NULL;
	}
	n.role = atspi_role_get_name(role);
	n.partial = k->w->role && depth > 2 && !(n.role && a11y_role_matches(n.role, k->w->role));
	gchar *name = n.partial ? NULL : atspi_accessible_get_name(obj, &gerr);
	n.name = strdup(name ? name : "");
	g_free(name);
	if (failed(k, &gerr) || (!n.partial && !read_extents(k, obj, &n)) ||
	    (!always && walker_off_screen(k, &n))) {
		a11y_node_free(&n);
		return NULL;
	}
	n.obj = g_object_ref(obj);
	return walker_keep(k, &n, id);
}

static void walk_node(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth,
		      size_t window)
{
	if (!walker_room(k) || !bound_calls(k)) {
		return;
	}
	struct a11y_node *n = read_node(k, obj, id, depth, false);
	if (n && walker_below(k, n, window)) {
		walker_children(k, obj, id, depth);
	}
}

void walker_children(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth)
{
	GError *gerr = NULL;
	gint count = atspi_accessible_get_child_count(obj, &gerr);
	if (failed(k, &gerr)) {
		return;
	}
	size_t window = k->t->v[k->t->n - 1].window;
	for (gint i = 0; i < count && !k->app_failed && !k->t->cut; i++) {
		if (!bound_calls(k)) {
			return;
		}
		AtspiAccessible *child = atspi_accessible_get_child_at_index(obj, i, &gerr);
		if (failed(k, &gerr) || !child) {
			continue;
		}
		char cid[A11Y_ID_MAX + 1];
		if (a11y_child_id(cid, id, i)) {
			walk_node(k, child, cid, depth + 1, window);
		}
		g_object_unref(child);
	}
}

/* One application: kept only when something of it shows; named when it stopped answering. */
static void walk_app(struct walker *k, AtspiAccessible *app, const char *id)
{
	size_t start = k->t->n;
	k->app_failed = false;
	bool read = read_node(k, app, id, 1, true) != NULL;
	if (read) {
		k->t->v[start].window = start;
		if (k->w->depth != 1 && !walker_app_cached(k, app, id, -1)) {
			walker_children(k, app, id, 1);
		}
	}
	if (k->app_failed) {
		note_unanswered(k->t, app, read ? k->t->v[start].name : NULL);
	}
	/* An application with no window showing is left out, and so is one that did not answer
	 * (what was read of it may be half). */
	if (k->app_failed || (read && k->t->n == start + 1 && k->w->depth != 1)) {
		while (k->t->n > start) {
			a11y_node_free(&k->t->v[--k->t->n]);
		}
	}
}

/* The child of that index, or NULL (whatever the reason: the caller names what is missing). */
static AtspiAccessible *child_at(AtspiAccessible *obj, unsigned i)
{
	GError *gerr = NULL;
	AtspiAccessible *child = atspi_accessible_get_child_at_index(obj, (gint)i, &gerr);
	g_clear_error(&gerr);
	return child;
}

/* The desktop's applications (apps of them) one by one, until the walk is cut. */
static void walk_apps(struct walker *k, AtspiAccessible *desktop, gint apps)
{
	for (gint i = 0; i < apps && !k->t->cut && bound_calls(k); i++) {
		AtspiAccessible *app = child_at(desktop, (unsigned)i);
		if (!app) {
			continue;
		}
		char id[16];
		snprintf(id, sizeof(id), "%d", i);
		walk_app(k, app, id);
		g_object_unref(app);
	}
}

/* --window by id: APP.WINDOW, as tree shows it. */
static int window_by_id(AtspiAccessible *desktop, const char *want, AtspiAccessible **ret,
			char *ret_id, struct error *err)
{
	unsigned a, b;
	char rest;
	if (sscanf(want, "%u.%u%c", &a, &b, &rest) != 2) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -ENOENT,
			"--window %s is no window's id: a window's is APP.WINDOW (e.g. 2.0), as tree shows it",
			want);
	}
	AtspiAccessible *app = child_at(desktop, a);
	AtspiAccessible *win = app ? child_at(app, b) : NULL;
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

/* --window by title: the one window (depth 2) whose title is that, else has it as a part, from
 * a walk of the top two levels only. *ret is NULL for a window read from its application's
 * cache. */
static int window_by_title(struct walker *k, AtspiAccessible *desktop, AtspiAccessible **ret,
			   char *ret_id, struct error *err)
{
	const char *want = k->w->window;
	struct a11y_walk top = *k->w;
	top.depth = 2;
	top.window = NULL;
	struct a11y_tree t = {0};
	struct walker tk = {.w = &top, .t = &t};
	GError *gerr = NULL;
	gint apps = atspi_accessible_get_child_count(desktop, &gerr);
	g_clear_error(&gerr);
	walk_apps(&tk, desktop, apps);
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

/* The --window from its application's cache, when it keeps one: true when that settled it (the
 * window read, or the application stopped answering). */
static bool window_cached(struct walker *k, AtspiAccessible *app, unsigned a, unsigned b)
{
	if (!app) {
		return false;
	}
	char appid[16];
	snprintf(appid, sizeof(appid), "%u", a);
	bool cached = walker_app_cached(k, app, appid, (int)b) && k->t->n > 0;
	if (k->app_failed) {
		note_unanswered(k->t, app, k->w->window);
	}
	return cached || k->app_failed;
}

/* The --window node by node: the window (read even when it does not show) and what it holds. */
static int window_by_node(struct walker *k, AtspiAccessible *win, const char *id, struct error *err)
{
	if (!win) {
		return error_set_kind(err, ERROR_BAD_INPUT, -ENOENT,
				      "no window has the id %s now: ask tree again", id);
	}
	struct a11y_node *n = read_node(k, win, id, 2, true);
	bool read = n != NULL;
	if (n && walker_below(k, n, 0)) {
		walker_children(k, win, id, 2);
	}
	if (k->app_failed) {
		note_unanswered(k->t, win, read ? k->t->v[0].name : k->w->window);
	}
	return 0;
}

/* --window: that one window alone, its levels counted from it (it is depth 2, as in the whole
 * tree). */
static int walk_window(struct walker *k, AtspiAccessible *desktop, struct error *err)
{
	AtspiAccessible *win = NULL;
	char id[A11Y_ID_MAX + 1];
	int r = a11y_is_id(k->w->window) ? window_by_id(desktop, k->w->window, &win, id, err)
					 : window_by_title(k, desktop, &win, id, err);
	if (r < 0) {
		return r;
	}
	const struct a11y_walk *w = k->w;
	struct a11y_walk ww = *w;
	ww.depth += ww.depth ? 1 : 0;
	k->w = &ww;
	k->app_failed = false;
	unsigned a = 0, b = 0;
	AtspiAccessible *app = sscanf(id, "%u.%u", &a, &b) == 2 ? child_at(desktop, a) : NULL;
	if (!window_cached(k, app, a, b)) {
		if (!win && app) {
			win = child_at(app, b);
		}
		r = window_by_node(k, win, id, err);
	}
	k->w = w;
	if (app) {
		g_object_unref(app);
	}
	if (win) {
		g_object_unref(win);
	}
	return r;
}

/* The desktop's root of the accessibility tree, on the desktop's own bus. */
static int open_desktop(struct walker *k, AtspiAccessible **ret, struct error *err)
{
	/* Only the desktop's: a caller's own accessibility bus would be somebody else's. */
	unsetenv("AT_SPI_BUS_ADDRESS");
	if (atspi_init() < 0) {
		return error_set(err, -ENOTCONN, "cannot reach the desktop's accessibility bus");
	}
	if (!bound_calls(k)) {
		return error_set(err, -ETIMEDOUT, "no time left for the accessibility tree");
	}
	AtspiAccessible *desktop = atspi_get_desktop(0);
	if (!desktop) {
		return error_set(
			err, -ENOTCONN,
			"the desktop has no accessibility registry (is at-spi2-core installed?)");
	}
	*ret = desktop;
	return 0;
}

/* The whole desktop: every application's showing windows. */
static int walk_desktop(struct walker *k, AtspiAccessible *desktop, struct error *err)
{
	GError *gerr = NULL;
	gint apps = atspi_accessible_get_child_count(desktop, &gerr);
	if (gerr) {
		int r = error_set(err, -ENOTCONN, "cannot read the desktop's applications: %s",
				  gerr->message);
		g_clear_error(&gerr);
		return r;
	}
	walk_apps(k, desktop, apps);
	return 0;
}

int a11y_walk(const struct a11y_walk *w, struct a11y_tree *t, struct error *err)
{
	*t = (struct a11y_tree){0};
	struct walker k = {.w = w, .t = t};
	AtspiAccessible *desktop = NULL;
	int r = open_desktop(&k, &desktop, err);
	if (r < 0) {
		return r;
	}
	return w->window ? walk_window(&k, desktop, err) : walk_desktop(&k, desktop, err);
}

void a11y_tree_free(struct a11y_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		a11y_node_free(&t->v[i]);
	}
	free(t->v);
	free(t->unanswered);
	*t = (struct a11y_tree){0};
}

bool a11y_focused(const struct a11y_node *n)
{
	uint64_t states = n->obj ? state_bits(n->obj) : a11y_cached_states(n);
	return HAS(states, ATSPI_STATE_FOCUSED);
}

void a11y_close(void)
{
	atspi_exit();
}
