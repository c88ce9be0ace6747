#include "actlogkeys.h"

#include <string.h>

#include "act.h"
#include "strescape.h"

/* ,"key":"s" with s escaped. */
static void put_string(FILE *f, const char *key, const char *s, size_t len)
{
	fprintf(f, ",\"%s\":", key);
	escape_json_string(f, s, len);
}

void actlogkeys_pointer(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			bool log_text)
{
	if (r == 0) {
		fprintf(f, ",\"x\":%u,\"y\":%u", out->x, out->y);
	}
	if (rq->n_path) {
		fprintf(f, ",\"path_points\":%zu", rq->n_path);
	}
	if (rq->hold) {
		put_string(f, "hold", rq->hold, strlen(rq->hold));
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
}

void actlogkeys_type(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		     bool log_text)
{
	fprintf(f, ",\"text_length\":%zu", out->chars);
	if (log_text) {
		put_string(f, "text", rq->text, rq->text_len);
	}
}

void actlogkeys_key(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		    bool log_text)
{
	fprintf(f, ",\"keys\":%zu", rq->n_keys);
	if (rq->hold_ms) {
		fprintf(f, ",\"hold_ms\":%llu", (unsigned long long)rq->hold_ms);
	}
	if (rq->key_mode != ACT_KEY_TAP) {
		fprintf(f, ",\"mode\":\"%s\"", rq->key_mode == ACT_KEY_PRESS ? "press" : "release");
	}
	/* Combos are typed text too (a password one key at a time). */
	if (log_text) {
		fputs(",\"combos\":[", f);
		for (size_t i = 0; i < rq->n_keys; i++) {
			fputs(i ? "," : "", f);
			escape_json_string(f, rq->keys[i], strlen(rq->keys[i]));
		}
		fputc(']', f);
	}
}

void actlogkeys_screenshot(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			   bool log_text)
{
	if (rq->region) {
		fprintf(f, ",\"region\":[%u,%u,%u,%u]", rq->rx, rq->ry, rq->rw, rq->rh);
	}
	if (r == 0) {
		fprintf(f, ",\"width\":%u,\"height\":%u", out->pic.w, out->pic.h);
	}
}

void actlogkeys_pause(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		      bool log_text)
{
	fprintf(f, ",\"seconds\":%llu.%03llu", (unsigned long long)(rq->timeout_ms / 1000),
		(unsigned long long)(rq->timeout_ms % 1000));
}

void actlogkeys_clipboard(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			  bool log_text)
{
	bool set = rq->cmd == ACT_CLIPBOARD_SET;
	fprintf(f, ",\"verb\":\"%s\",\"selection\":\"%s\"", set ? "set" : "get",
		rq->primary ? "PRIMARY" : "CLIPBOARD");
	if (set) {
		/* The clipboard's text is typed text too. */
		fprintf(f, ",\"text_bytes\":%zu", rq->text_len);
		if (log_text) {
			put_string(f, "text", rq->text, rq->text_len);
		}
	} else if (r == 0) {
		fprintf(f, ",\"text_bytes\":%zu", out->data_len);
	}
}

void actlogkeys_window(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		       bool log_text)
{
	fprintf(f, ",\"verb\":\"%s\",\"id\":\"0x%lx\"", act_win_op_name(rq->win_op), rq->win_id);
}

void actlogkeys_opened(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		       bool log_text)
{
	bool launch = rq->cmd == ACT_LAUNCH;
	if (launch || log_text) {
		put_string(f, launch ? "name" : "target", rq->text, rq->text_len);
	}
	if (r == 0) {
		fprintf(f, ",\"id\":\"0x%lx\"", out->win);
	}
}
