/* The desktop's accessibility tree through AT-SPI (libatspi, from the desktop's own bus:
 * session/busconf.h): a walk of the applications' showing elements into nodes (role, name,
 * screen bounds, states, an id that is the node's path of child indices from the desktop), and
 * what tree, find and --element make of them. Only botdesk-act-a11y links it: no other action
 * loads libatspi or GLib. Every D-Bus call is bounded: an application that does not answer is
 * named and left out, and the walk stops at the call's deadline with what it has. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "a11ymatch.h"
#include "error.h"

struct a11y_node {
	char id[A11Y_ID_MAX + 1];
	unsigned depth; /* 1 an application, 2 a window, ... (below the --window's, from it) */
	char *role, *name;
	int x, y, w, h;        /* screen coordinates; w, h 0 without a Component interface */
	uint64_t states;       /* 1 << AtspiStateType */
	size_t window;         /* the index of the node's window (depth 2), or its own */
	bool partial;          /* read for the walk only (a11y_walk's role): no name, no bounds */
	char *bus_name, *path; /* where it lives, for a node read from its application's cache */
	void *obj;             /* the AtspiAccessible */
};

struct a11y_tree {
	struct a11y_node *v;
	size_t n, cap;
	/* Why the walk is not whole: NULL, "timeout" or "nodes" (A11Y_NODES_MAX). */
	const char *cut;
	/* Applications that did not answer in time, comma-separated, or NULL. */
	char *unanswered;
};

#define A11Y_NODES_MAX 20000
/* One D-Bus call's bound (less when the call's deadline is nearer). */
#define A11Y_CALL_MS 1500

struct a11y_walk {
	const char *window;   /* a window's id or title, or NULL: the whole desktop */
	unsigned depth;       /* levels kept; 0 every level */
	uint64_t deadline_ms; /* CLOCK_MONOTONIC ms (timeutil.h's now_ms) */
	unsigned sw, sh;      /* the screen: what lies wholly outside it is left out */
	/* find's hint, or NULL: below the windows, only the nodes of this role (a11y_role_matches)
	 * are read whole; the others only as far as the walk needs (no name, no bounds), two
	 * D-Bus calls fewer each. */
	const char *role;
	/* And the name find asks for, or NULL: from an application's cache, where names come
	 * free, only the nodes that match it get their bounds asked. */
	const char *name;
};

/* Connects to the desktop's accessibility bus (its environment: DISPLAY, XAUTHORITY,
 * DBUS_SESSION_BUS_ADDRESS) and walks it into t. -ENOENT naming the window when --window
 * matches none, -EINVAL when it matches several (both ERROR_BAD_INPUT); -ENOTCONN when there is
 * no accessibility bus. */
int a11y_walk(const struct a11y_walk *w, struct a11y_tree *t, struct error *err);

/* Frees what a11y_walk made (before a11y_close: the nodes hold objects of the bus). */
void a11y_tree_free(struct a11y_tree *t);

/* The nodes that match role and name (either NULL: any), as indices into t (the best name
 * matches only: exact ones when there are any). ret is malloc'ed. */
size_t a11y_find(const struct a11y_tree *t, const char *role, const char *name, size_t **ret);

/* The one node an --element spec names, refused (ERROR_BAD_INPUT, -ENOENT or -EINVAL with the
 * candidates) when none or several match. */
int a11y_element(const struct a11y_tree *t, const char *spec, size_t *ret, struct error *err);

/* How long type --element waits, after its click, for the element to say it has the focus. */
#define A11Y_FOCUS_WAIT_MS 3000

/* Whether the node has the focus now (asked again, not from the walk). */
bool a11y_focused(const struct a11y_node *n);

/* Leaves the accessibility bus. Before a click or keys: Debian's Chromium 156 was seen to crash
 * (SIGSEGV) on keys typed while a client of its tree was still connected, never once it had
 * left. The nodes' objects are not to be used after it. */
void a11y_close(void);

/* Bounds in a picture pic_w x pic_h of a sw x sh screen (MCP's model picture, --from);
 * pic_w 0: screen pixels. */
struct a11y_scale {
	unsigned pic_w, pic_h, sw, sh;
};

/* The tree as an outline (two spaces a level: `role "name" x,y WxH [states] #id`), or as JSON
 * ({"nodes":[...],"count":N, "cut":..., "unanswered":[...]}, children nested). */
void a11y_print_tree(FILE *f, const struct a11y_tree *t, const struct a11y_scale *sc, bool json);
/* find's matches, one a line with their window, or JSON {"matches":[...],"count":N}. */
void a11y_print_matches(FILE *f, const struct a11y_tree *t, const size_t *m, size_t n,
			const struct a11y_scale *sc, bool json);
