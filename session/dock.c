#include "dock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pathsearch.h"
#include "util.h"

struct candidate {
	const char *id, *name, *icon;
	const char *programs[4]; /* the first one present wins */
};

static const struct candidate candidates[] = {
	{"terminal",
	 "Terminal",
	 "utilities-terminal",
	 {"xfce4-terminal", "x-terminal-emulator", "xterm", NULL}},
	{"files", "Files", "system-file-manager", {"thunar", "pcmanfm", NULL}},
	{"editor", "Text Editor", "accessories-text-editor", {"mousepad", "gedit", NULL}},
};

static int add(struct dock *d, const struct candidate *c, char *path, char *const args[])
{
	struct dock_item *it = &d->items[d->n];
	*it = (struct dock_item){.id = c->id, .name = c->name, .icon = c->icon};
	int r = strv_push(&it->argv, path);
	for (size_t i = 0; args && args[i] && r == 0; i++) {
		r = strv_push(&it->argv, args[i]);
	}
	free(path);
	if (r < 0) {
		strv_free(&it->argv);
		return r;
	}
	d->n++;
	return 0;
}

static int add_browser(struct dock *d, const char *search_path, const char *command)
{
	static const struct candidate browser = {"browser", "Web Browser", "web-browser", {NULL}};
	_cleanup_free_ char *copy = strdup(command);
	if (!copy) {
		return -ENOMEM;
	}
	char *words[32];
	size_t n = 0;
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w && n < ARRAY_SIZE(words) - 1;
	     w = strtok_r(NULL, " \t", &save)) {
		words[n++] = w;
	}
	words[n] = NULL;
	if (n == 0) {
		return 0;
	}
	char *path;
	int r = path_find(search_path, words[0], &path);
	if (r == -ENOENT) {
		return 0;
	}
	if (r < 0) {
		return r;
	}
	return add(d, &browser, path, words + 1);
}

int dock_resolve(const char *search_path, const char *browser, struct dock *ret)
{
	struct dock d = {0};
	int r = 0;
	for (size_t i = 0; i < ARRAY_SIZE(candidates) && r == 0; i++) {
		for (size_t j = 0; candidates[i].programs[j]; j++) {
			char *path;
			r = path_find(search_path, candidates[i].programs[j], &path);
			if (r == 0) {
				r = add(&d, &candidates[i], path, NULL);
				break;
			}
			if (r != -ENOENT) {
				break;
			}
			r = 0;
		}
	}
	if (r == 0 && browser) {
		r = add_browser(&d, search_path, browser);
	}
	if (r < 0) {
		dock_free(&d);
		return r;
	}
	*ret = d;
	return 0;
}

void dock_free(struct dock *d)
{
	for (size_t i = 0; i < d->n; i++) {
		strv_free(&d->items[i].argv);
	}
	d->n = 0;
}
