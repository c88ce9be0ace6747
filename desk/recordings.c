/* The recordings as the runner reads them (recordings.h). */
#include "recordings.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "fileio.h"
#include "parse.h"
#include "proc.h"
#include "strescape.h"
#include "util.h"

#define ACTIONS_FILE "actions.jsonl"
#define ACTIONS_OLD "actions.jsonl.1"
#define CAPTION_MS 2000

static uint64_t unix_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int open_recdir(const struct profile *p)
{
	if (p->dirfd < 0) {
		return -ENOENT;
	}
	int fd = openat(p->dirfd, RECORDINGS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

int recordings_running(const struct profile *p, struct rec_running *ret)
{
	if (p->dirfd < 0) {
		return -ENOENT;
	}
	struct rec_running run;
	int r = rec_running_read_at(p->dirfd, &run);
	if (r < 0) {
		return r == -EINVAL ? -ENOENT : r;
	}
	struct proc_stat st;
	if (proc_stat_read(run.pid, &st) < 0 || !proc_stat_is_live(&st) ||
	    st.starttime != run.starttime) {
		return -ENOENT;
	}
	*ret = run;
	return 0;
}

void recordings_json_escape(FILE *f, const char *s)
{
	escape_write(f, s, strlen(s), &escape_json);
}

/* Days since 1970 of a civil date (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* An action line's "time":"YYYY-MM-DDTHH:MM:SS.mmmZ" as unix ms. */
static int action_time(const char *line, uint64_t *ret)
{
	const char *t = strstr(line, "\"time\":\"");
	int y, mo, d, h, mi, s, ms, n = 0;
	if (!t ||
	    sscanf(t + 8, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &y, &mo, &d, &h, &mi, &s, &ms, &n) !=
		    7 ||
	    n != 24 || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31) {
		return -EINVAL;
	}
	int64_t days = days_from_civil(y, (unsigned)mo, (unsigned)d);
	*ret = ((uint64_t)days * 86400 + (uint64_t)h * 3600 + (uint64_t)mi * 60 + (uint64_t)s) *
		       1000 +
	       (uint64_t)ms;
	return 0;
}

/* An events line's "time_ms":N. */
static int event_time(const char *line, uint64_t *ret)
{
	const char *t = strstr(line, "\"time_ms\":");
	if (!t) {
		return -EINVAL;
	}
	t += 10;
	size_t n = strspn(t, "0123456789");
	return parse_u64_n(t, n, UINT64_MAX / 2, ret);
}

/* The string value of "key" in a flat line, into buf ("" when absent). */
static void field(const char *line, const char *key, char *buf, size_t size)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	buf[0] = '\0';
	const char *v = strstr(line, pat);
	if (!v || size < 2) {
		return;
	}
	v += strlen(pat);
	bool quoted = *v == '"';
	v += quoted;
	size_t k = 0;
	for (; *v && k + 1 < size; v++) {
		if (quoted && *v == '\\' && v[1]) {
			v++;
		} else if ((quoted && *v == '"') || (!quoted && (*v == ',' || *v == '}'))) {
			break;
		}
		buf[k++] = *v;
	}
	buf[k] = '\0';
}

static char *action_text(const char *line)
{
	char cmd[64], x[16], y[16], *text = NULL;
	field(line, "command", cmd, sizeof(cmd));
	field(line, "x", x, sizeof(x));
	field(line, "y", y, sizeof(y));
	int n = x[0] ? asprintf(&text, "%s %s %s", cmd, x, y) : asprintf(&text, "%s", cmd);
	return n < 0 ? NULL : text;
}

static char *event_text(const char *line, enum rec_event_kind *ret_kind)
{
	char kind[32], what[512], *text = NULL;
	field(line, "kind", kind, sizeof(kind));
	int n;
	if (streq(kind, "input")) {
		*ret_kind = REC_EV_INPUT;
		n = asprintf(&text, "human input");
	} else if (streq(kind, "exec")) {
		*ret_kind = REC_EV_EXEC;
		field(line, "program", what, sizeof(what));
		n = asprintf(&text, "exec %s", what);
	} else {
		*ret_kind = REC_EV_LEASE;
		field(line, "reason", what, sizeof(what));
		n = what[0] ? asprintf(&text, "%s: %s", kind, what) : asprintf(&text, "%s", kind);
	}
	return n < 0 ? NULL : text;
}

struct evlist {
	struct rec_event *v;
	size_t n, cap;
};

static int push(struct evlist *l, uint64_t t, enum rec_event_kind kind, const char *line,
		char *text)
{
	if (!text) {
		return -ENOMEM;
	}
	if (ARRAY_RESERVE(l->v, l->cap, l->n + 1, 32) < 0) {
		free(text);
		return -ENOMEM;
	}
	char *json = strdup(line);
	if (!json) {
		free(text);
		return -ENOMEM;
	}
	l->v[l->n++] = (struct rec_event){t, kind, json, text};
	return 0;
}

/* The lines of name under dirfd within [from, to] (unix ms); count only when l is NULL. */
static int scan_file(int dirfd, const char *name, bool actions, uint64_t from, uint64_t to,
		     struct evlist *l, unsigned *count)
{
	int fd = open_regular_at(dirfd, name, O_RDONLY, 0);
	if (fd < 0) {
		return fd == -ENOENT ? 0 : fd;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		safe_close(fd);
		return -ENOMEM;
	}
	_cleanup_fclose_ FILE *file = f;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int r = 0;
	while (r == 0 && (len = getline(&line, &cap, file)) > 0) {
		if (line[len - 1] == '\n') {
			line[--len] = '\0';
		}
		uint64_t t;
		/* Only whole objects: a torn or foreign line is skipped, never half-shown. */
		if (len < 2 || line[0] != '{' || line[len - 1] != '}' ||
		    (actions ? action_time(line, &t) : event_time(line, &t)) < 0 || t < from ||
		    t > to) {
			continue;
		}
		if (count) {
			(*count)++;
		}
		if (l) {
			enum rec_event_kind kind = REC_EV_ACTION;
			char *text = actions ? action_text(line) : event_text(line, &kind);
			r = push(l, t, kind, line, text);
		}
	}
	return r;
}

static int fill_row(const struct profile *p, int recfd, const char *id, struct rec_row *row)
{
	struct rec_meta m;
	int r = rec_meta_read_at(recfd, id, &m);
	if (r < 0) {
		return r;
	}
	*row = (struct rec_row){.start_ms = m.start_ms, .width = m.width, .height = m.height};
	memcpy(row->id, id, strlen(id) + 1);
	char name[RECORDING_ID_MAX + 8];
	struct stat st;
	if (rec_file_name(id, "rfb", name, sizeof(name)) == 0 &&
	    fstatat(recfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		row->bytes = (uint64_t)st.st_size;
	}
	struct rec_running run;
	row->recording = recordings_running(p, &run) == 0 && streq(run.id, id);
	uint64_t end = m.end_ms;
	if (end == 0) {
		/* Still recording: up to now; ended without a word (killed): its last write. */
		end = row->recording ? unix_ms()
				     : (uint64_t)st.st_mtim.tv_sec * 1000 +
					       (uint64_t)st.st_mtim.tv_nsec / 1000000;
	}
	row->duration_ms = end > m.start_ms ? end - m.start_ms : 0;
	unsigned n = 0;
	(void)scan_file(p->dirfd, ACTIONS_OLD, true, m.start_ms, end, NULL, &n);
	(void)scan_file(p->dirfd, ACTIONS_FILE, true, m.start_ms, end, NULL, &n);
	row->actions = n;
	return 0;
}

int recordings_row(const struct profile *p, const char *id, struct rec_row *ret)
{
	if (!rec_id_valid(id)) {
		return -ENOENT;
	}
	_cleanup_close_ int recfd = open_recdir(p);
	if (recfd < 0) {
		return recfd;
	}
	return fill_row(p, recfd, id, ret);
}

int recordings_list(const struct profile *p, struct rec_row **ret, size_t *ret_n)
{
	*ret = NULL;
	*ret_n = 0;
	_cleanup_close_ int recfd = open_recdir(p);
	if (recfd < 0) {
		return recfd == -ENOENT ? 0 : recfd;
	}
	_cleanup_free_ struct rec_id *ids = NULL;
	size_t nids;
	int r = rec_list_ids(recfd, "meta", &ids, &nids);
	if (r < 0) {
		return r;
	}
	struct rec_row *v = calloc(nids ? nids : 1, sizeof(*v));
	if (!v) {
		return -ENOMEM;
	}
	size_t n = 0;
	for (size_t i = 0; i < nids; i++) {
		n += fill_row(p, recfd, ids[i].s, &v[n]) == 0;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	uint64_t x = ((const struct rec_event *)a)->t_ms, y = ((const struct rec_event *)b)->t_ms;
	return x < y ? -1 : x > y;
}

int recordings_timeline(const struct profile *p, const struct rec_row *row, struct rec_event **ret,
			size_t *ret_n)
{
	struct evlist l = {0};
	uint64_t from = row->start_ms, to = row->start_ms + row->duration_ms;
	int r = scan_file(p->dirfd, ACTIONS_OLD, true, from, to, &l, NULL);
	r = r < 0 ? r : scan_file(p->dirfd, ACTIONS_FILE, true, from, to, &l, NULL);
	_cleanup_close_ int recfd = open_recdir(p);
	char name[RECORDING_ID_MAX + 8];
	if (r == 0 && recfd >= 0 && rec_file_name(row->id, "events", name, sizeof(name)) == 0) {
		r = scan_file(recfd, name, false, from, to, &l, NULL);
	}
	if (r < 0) {
		recordings_events_free(l.v, l.n);
		return r;
	}
	if (l.n > 0) {
		qsort(l.v, l.n, sizeof(*l.v), by_time);
	}
	*ret = l.v;
	*ret_n = l.n;
	return 0;
}

void recordings_events_free(struct rec_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].json);
		free(v[i].text);
	}
	free(v);
}

void recordings_note_exec(const struct profile *p, const char *program)
{
	struct rec_running run;
	if (recordings_running(p, &run) < 0) {
		return;
	}
	const char *base = strrchr(program, '/');
	base = base ? base + 1 : program;
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	if (!f) {
		return;
	}
	fprintf(f, "{\"time_ms\":%llu,\"kind\":\"exec\",\"program\":\"",
		(unsigned long long)unix_ms());
	recordings_json_escape(f, base);
	fputs("\"}\n", f);
	_cleanup_close_ int recfd = -1;
	if (fclose(f) == 0 && (recfd = open_recdir(p)) >= 0) {
		(void)rec_events_append_at(recfd, run.id, line);
	}
	free(line);
}

static void srt_time(FILE *f, uint64_t ms)
{
	fprintf(f, "%02llu:%02llu:%02llu,%03llu", (unsigned long long)(ms / 3600000),
		(unsigned long long)(ms / 60000 % 60), (unsigned long long)(ms / 1000 % 60),
		(unsigned long long)(ms % 1000));
}

int recordings_write_captions(FILE *f, const struct rec_row *row, const struct rec_event *v,
			      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t at = v[i].t_ms - row->start_ms;
		uint64_t end = at + CAPTION_MS;
		if (i + 1 < n && v[i + 1].t_ms - row->start_ms < end) {
			end = v[i + 1].t_ms - row->start_ms;
		}
		if (end <= at) {
			end = at + 1;
		}
		fprintf(f, "%zu\n", i + 1);
		srt_time(f, at);
		fputs(" --> ", f);
		srt_time(f, end);
		/* One line of plain words: a caption's text never holds a blank line. */
		fprintf(f, "\n%s\n\n", v[i].text);
	}
	return ferror(f) ? -EIO : 0;
}
