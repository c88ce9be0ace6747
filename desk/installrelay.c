/* Shows the helper's output as it comes: on a terminal a progress bar from apt's status lines
 * (and, on failure, the last lines that explain it), elsewhere every line; each line made safe to
 * print first, since it is the package manager's and its maintainer scripts' text. */
#include "installrelay.h"

#include <langinfo.h>
#include <locale.h>
#include <string.h>

#include "parse.h"
#include "utf8.h"
#include "util.h"

void install_sanitize(char *line, bool utf8)
{
	size_t len = strlen(line), pos = 0;
	while (pos < len) {
		size_t at = pos;
		uint32_t cp;
		/* Valid UTF-8 stays, but not the C1 controls U+0080-U+009F: terminals act on them
		 * in UTF-8 too. */
		if (utf8 && (unsigned char)line[at] >= 0x80 &&
		    utf8_next(line, len, &pos, &cp) == 0 && cp >= 0xa0) {
			continue;
		}
		pos = at + 1;
		/* C0 controls, DEL, and any other byte >= 0x80: a lone 0x9b is CSI to a terminal
		 * that is not in UTF-8 mode. */
		unsigned char ch = (unsigned char)line[at];
		if ((ch < 0x20 && ch != '\t') || ch >= 0x7f) {
			line[at] = '?';
		}
	}
}

bool install_relay_locale_utf8(void)
{
	locale_t l = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	if (!l) {
		return false;
	}
	bool yes = streq(nl_langinfo_l(CODESET, l), "UTF-8");
	freelocale(l);
	return yes;
}

static void draw_bar(struct install_relay *rl, unsigned percent, const char *what, const char *desc)
{
	char bar[21];
	unsigned filled = percent * 20 / 100;
	for (unsigned i = 0; i < 20; i++) {
		bar[i] = i < filled ? '#' : '.';
	}
	bar[20] = '\0';
	fprintf(rl->out, "\r\033[K[%s] %3u%% %s %.40s", bar, percent, what, desc);
	fflush(rl->out);
	rl->bar = true;
}

/* apt's APT::Status-Fd lines: "pmstatus:PKG:PERCENT:DESCRIPTION" (dlstatus while downloading). */
static bool status_line(struct install_relay *rl, const char *line)
{
	bool dl = startswith(line, "dlstatus:");
	if (!dl && !startswith(line, "pmstatus:")) {
		return false;
	}
	if (!rl->tty) {
		return true;
	}
	const char *pct = strchr(line + 9, ':');
	if (!pct) {
		return true;
	}
	pct++;
	size_t digits = strspn(pct, "0123456789");
	uint64_t v;
	if (parse_u64_n(pct, digits, 100, &v) < 0) {
		return true;
	}
	const char *desc = strchr(pct, ':');
	draw_bar(rl, (unsigned)v, dl ? "downloading" : "installing", desc ? desc + 1 : "");
	return true;
}

void install_relay_line(const char *text, void *userdata)
{
	struct install_relay *rl = userdata;
	char line[PROTO_LINE_MAX + 1];
	snprintf(line, sizeof(line), "%s", text);
	install_sanitize(line, rl->utf8);
	if (status_line(rl, line)) {
		return;
	}
	if (!rl->command[0]) {
		snprintf(rl->command, sizeof(rl->command), "%s", line);
	}
	snprintf(rl->tail[rl->tail_next], sizeof(rl->tail[0]), "%s", line);
	rl->tail_next = (rl->tail_next + 1) % INSTALL_RELAY_TAIL_LINES;
	if (!rl->tty && !rl->quiet) {
		fprintf(rl->out, "%s\n", line);
	}
}

void install_relay_end(struct install_relay *rl, bool failed)
{
	if (rl->bar) {
		fputs("\n", rl->out);
		rl->bar = false;
	}
	/* On a terminal only the bar was shown: a failure shows the lines that explain it. */
	if (rl->tty && failed) {
		for (size_t i = 0; i < INSTALL_RELAY_TAIL_LINES; i++) {
			const char *l = rl->tail[(rl->tail_next + i) % INSTALL_RELAY_TAIL_LINES];
			if (*l) {
				fprintf(rl->out, "%s\n", l);
			}
		}
	}
	fflush(rl->out);
}
