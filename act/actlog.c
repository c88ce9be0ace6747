#include "actlog.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "activity.h"
#include "desktop.h"
#include "fileio.h"
#include "strescape.h"
#include "util.h"

static void put_string(FILE *f, const char *s, size_t len)
{
	escape_json_string(f, s, len);
}

static const char *outcome(int r)
{
	switch (r) {
	case 0:
		return "ok";
	case -EINVAL:
		return "bad input";
	case -ETIMEDOUT:
		return "timed out";
	case -EINTR:
		return "interrupted";
	default:
		return "failed";
	}
}

/* The UTC date of a day count since 1970 (H. Hinnant's days-to-civil), by hand: gmtime() and
 * strftime() read the time zone file first, a tenth of a click. */
static void civil_from_days(long z, int *ret_y, int *ret_m, int *ret_d)
{
	z += 719468;
	long era = (z >= 0 ? z : z - 146096) / 146097;
	long doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long mp = (5 * doy + 2) / 153;
	long m = mp < 10 ? mp + 3 : mp - 9;
	*ret_y = (int)(yoe + era * 400 + (m <= 2));
	*ret_m = (int)m;
	*ret_d = (int)(doy - (153 * mp + 2) / 5 + 1);
}

/* What the request asked, as members of the line (the typed text only with log_text). */
static void put_request(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			bool log_text)
{
	switch (rq->cmd) {
	case ACT_CLICK:
	case ACT_MOVE:
	case ACT_DRAG:
	case ACT_SCROLL:
	case ACT_MOUSE_DOWN:
	case ACT_MOUSE_UP:
		if (r == 0) {
			fprintf(f, ",\"x\":%u,\"y\":%u", out->x, out->y);
		}
		if (rq->n_path) {
			fprintf(f, ",\"path_points\":%zu", rq->n_path);
		}
		if (rq->hold) {
			fputs(",\"hold\":", f);
			put_string(f, rq->hold, strlen(rq->hold));
		}
		if (r == 0 && rq->cmd == ACT_DRAG) {
			fprintf(f, ",\"x2\":%u,\"y2\":%u", out->x2, out->y2);
		}
		if (rq->from_w) {
			fprintf(f, ",\"from\":\"%ux%u\"", rq->from_w, rq->from_h);
		}
		if (rq->cmd != ACT_MOVE && rq->cmd != ACT_SCROLL) {
			fprintf(f, ",\"button\":\"%s\"", act_button_name(rq->button));
		}
		if (rq->cmd == ACT_CLICK && rq->clicks == 2) {
			fputs(",\"double\":true", f);
		} else if (rq->cmd == ACT_CLICK && rq->clicks > 2) {
			fprintf(f, ",\"clicks\":%u", rq->clicks);
		}
		if (rq->cmd == ACT_SCROLL) {
			fprintf(f, ",\"direction\":\"%s\",\"amount\":%u", act_scroll_name(rq->dir),
				rq->amount);
		}
		break;
	case ACT_TYPE:
		fprintf(f, ",\"text_length\":%zu", out->chars);
		if (log_text) {
			fputs(",\"text\":", f);
			put_string(f, rq->text, rq->text_len);
		}
		break;
	case ACT_KEY:
		fprintf(f, ",\"keys\":%zu", rq->n_keys);
		if (rq->hold_ms) {
			fprintf(f, ",\"hold_ms\":%llu", (unsigned long long)rq->hold_ms);
		}
		if (rq->key_mode != ACT_KEY_TAP) {
			fprintf(f, ",\"mode\":\"%s\"",
				rq->key_mode == ACT_KEY_PRESS ? "press" : "release");
		}
		/* Combos are typed text too (a password one key at a time). */
		if (log_text) {
			fputs(",\"combos\":[", f);
			for (size_t i = 0; i < rq->n_keys; i++) {
				fputs(i ? "," : "", f);
				put_string(f, rq->keys[i], strlen(rq->keys[i]));
			}
			fputc(']', f);
		}
		break;
	case ACT_CLIPBOARD_GET:
	case ACT_CLIPBOARD_SET:
		/* The clipboard's text is typed text too: only with log_text. */
		fprintf(f, ",\"verb\":\"%s\",\"selection\":\"%s\"",
			rq->cmd == ACT_CLIPBOARD_GET ? "get" : "set",
			rq->primary ? "PRIMARY" : "CLIPBOARD");
		if (rq->cmd == ACT_CLIPBOARD_SET) {
			fprintf(f, ",\"text_bytes\":%zu", rq->text_len);
		}
		if (rq->cmd == ACT_CLIPBOARD_SET && log_text) {
			fputs(",\"text\":", f);
			put_string(f, rq->text, rq->text_len);
		}
		if (rq->cmd == ACT_CLIPBOARD_GET && r == 0) {
			fprintf(f, ",\"text_bytes\":%zu", out->data_len);
		}
		break;
	case ACT_LAUNCH:
		fputs(",\"name\":", f);
		put_string(f, rq->text, rq->text_len);
		if (r == 0) {
			fprintf(f, ",\"id\":\"0x%lx\"", out->win);
		}
		break;
	case ACT_OPEN:
		/* A URL may carry a secret (a token in its query): only with log_text. */
		if (log_text) {
			fputs(",\"target\":", f);
			put_string(f, rq->text, rq->text_len);
		}
		if (r == 0) {
			fprintf(f, ",\"id\":\"0x%lx\"", out->win);
		}
		break;
	case ACT_WINDOW:
		fprintf(f, ",\"verb\":\"%s\",\"id\":\"0x%lx\"", act_win_op_name(rq->win_op),
			rq->win_id);
		break;
	case ACT_SCREENSHOT:
		if (rq->region) {
			fprintf(f, ",\"region\":[%u,%u,%u,%u]", rq->rx, rq->ry, rq->rw, rq->rh);
		}
		if (r == 0) {
			fprintf(f, ",\"width\":%u,\"height\":%u", out->pic.w, out->pic.h);
		}
		break;
	case ACT_WAIT:
		fprintf(f, ",\"seconds\":%llu.%03llu", (unsigned long long)(rq->timeout_ms / 1000),
			(unsigned long long)(rq->timeout_ms % 1000));
		break;
	default:
		break;
	}
}

char *actlog_line(const char *source, const struct act_req *rq, const struct act_out *out, int r,
		  bool log_text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int y, mo, d;
	civil_from_days(ts.tv_sec / 86400, &y, &mo, &d);
	long sec = (long)(ts.tv_sec % 86400);
	fprintf(f,
		"{\"time\":\"%04d-%02d-%02dT%02ld:%02ld:%02ld.%03ldZ\",\"source\":\"%s\",\"command\":\"%s\"",
		y, mo, d, sec / 3600, sec / 60 % 60, sec % 60, ts.tv_nsec / 1000000, source,
		act_cmd_name(rq->cmd));
	put_request(f, rq, out, r, log_text);
	if (out->stopped) {
		/* Where a human's take cut it: what reached the desktop and what did not. */
		size_t total = 1;
		const char *what = "events";
		if (rq->cmd == ACT_TYPE) {
			total = out->chars;
			what = "characters";
		} else if (rq->cmd == ACT_KEY && rq->hold_ms) {
			total = 2;
			what = "key events";
		} else if (rq->cmd == ACT_KEY) {
			total = rq->n_keys;
			what = "key combos";
		} else if (rq->hold) {
			total = 3;
			what = "steps";
		}
		fprintf(f,
			",\"result\":\"stopped: a human took the desktop after %zu of %zu %s\",\"sent\":%zu}\n",
			out->sent, total, what, out->sent);
	} else {
		fprintf(f, ",\"result\":\"%s\"}\n", outcome(r));
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int actlog_append(int dirfd, const char *line)
{
	/* Appended, not written-then-renamed: a log grows a line at a time, and one write() of
	 * an O_APPEND file lands whole. The lock orders the rotation against other writers. */
	_cleanup_close_ int fd =
		open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT, 0600);
	if (fd < 0) {
		return fd;
	}
	if (flock(fd, LOCK_EX) < 0) {
		return negative_errno();
	}
	struct stat st, cur;
	if (fstat(fd, &st) < 0) {
		return negative_errno();
	}
	/* Another writer rotated the file after we opened it: write to the new one. */
	if (fstatat(dirfd, ACTLOG_FILE, &cur, AT_SYMLINK_NOFOLLOW) < 0 || cur.st_ino != st.st_ino) {
		safe_close(fd);
		fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT, 0600);
		if (fd < 0 || flock(fd, LOCK_EX) < 0 || fstat(fd, &st) < 0) {
			return fd < 0 ? fd : negative_errno();
		}
	}
	size_t len = strlen(line);
	if ((size_t)st.st_size + len > ACTLOG_MAX && st.st_size > 0) {
		if (renameat(dirfd, ACTLOG_FILE, dirfd, ACTLOG_OLD) < 0) {
			return negative_errno();
		}
		safe_close(fd);
		fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT | O_EXCL,
				     0600);
		if (fd < 0) {
			/* Another writer made the new file between our rename and here. */
			fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT,
					     0600);
		}
		if (fd < 0) {
			return fd;
		}
	}
	return write_all(fd, line, len);
}

void actlog_stamp_activity(struct profile *p)
{
	activity_stamp(p->dirfd);
}
