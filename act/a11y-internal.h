/* What the parts of botdesk-act-a11y's tree share (act/a11y.h is the interface): one walk's
 * state and how a node read is kept or let go. a11y.c walks the bus node by node, a11ycache.c
 * reads an application's tree from its cache in one call (and hands back to the node-by-node
 * walk where the cache does not hold the children), a11yprint.c names the states. Private to
 * these files. */
#pragma once

#include <atspi/atspi.h>
#include <stdbool.h>
#include <stdint.h>

#include "a11y.h"

/* One walk's state: the deadline, and the applications found not answering. */
struct walker {
	const struct a11y_walk *w;
	struct a11y_tree *t;
	bool app_failed; /* the application being walked stopped answering */
};

/* Whether the state s (an AtspiStateType) is among the bits of a node's states. */
#define HAS(bits, s) (((bits) >> (s)) & 1)

/* How long the walk's next D-Bus call may wait, in ms: A11Y_CALL_MS, less near the deadline; 0
 * once the deadline has passed (the walk is cut then: "timeout"). */
int walker_call_ms(struct walker *k);

/* Whether the walk may read another node: not once the application stopped answering or the
 * walk was cut, nor when the tree holds A11Y_NODES_MAX nodes (then it is cut: "nodes"). */
bool walker_room(struct walker *k);

/* Places n, the node just kept, in its window (its own when it is one, at depth 2; else the
 * window given, its parent's) and says whether the walk goes below it (--depth). */
bool walker_below(const struct walker *k, struct a11y_node *n, size_t window);

/* Whether the node's screen bounds lie wholly off the screen (xfwm4 keeps a window at
 * -1000,-1000): it is left out, with what it holds. A node without bounds is not. */
bool walker_off_screen(const struct walker *k, const struct a11y_node *n);

/* Adds n to the tree as node id (a NULL role becomes "unknown"): what n holds is the tree's
 * then. When memory runs out it is freed instead: NULL. */
struct a11y_node *walker_keep(struct walker *k, struct a11y_node *n, const char *id);

/* Frees what one node holds (not the node). */
void a11y_node_free(struct a11y_node *n);

/* The children of obj (node id, at depth, the last node kept) node by node: six calls a node. */
void walker_children(struct walker *k, AtspiAccessible *obj, const char *id, unsigned depth);

/* The application's windows (or only its window of index only, when only >= 0) from its cache,
 * app being node id; false when it keeps none: the walk then asks node by node. */
bool walker_app_cached(struct walker *k, AtspiAccessible *app, const char *id, int only);

/* The states of a node read from its application's cache (it has no AtspiAccessible), asked
 * again in one call; 0 when the application did not answer. */
uint64_t a11y_cached_states(const struct a11y_node *n);
