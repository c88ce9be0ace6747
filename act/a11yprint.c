/* The walked tree printed (act/a11y.h): tree's outline or JSON, find's matches, the boxes in the
 * screen's pixels or a picture's (--from). */
#include "a11y.h"

#include <string.h>

#include "a11y-internal.h"
#include "actargs.h"
#include "strescape.h"
#include "util.h"

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
