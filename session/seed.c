#include "seed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "fileio.h"
#include "memout.h"
#include "pathjoin.h"
#include "seedkeys.h"
#include "util.h"

const char *const seed_masked_autostarts[] = {
	"xfce4-screensaver",
	"light-locker",
	"xfce4-power-manager",
	"xfce-polkit",
	"polkit-gnome-authentication-agent-1",
	"lxpolkit",
	"xfce4-notifyd",
	"blueman",
	"at-spi-dbus-bus",
	"gnome-keyring-pkcs11",
	"gnome-keyring-secrets",
	"gnome-keyring-ssh",
	"xdg-user-dirs",
	NULL,
};

/* The system's shortcuts file is some 6 KiB. */
#define SEED_SHORTCUTS_MAX (256 * 1024)

#define XML_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n"

/* Theme and fonts that are always there: GTK's built-in Adwaita and DejaVu (a dependency of the
 * desktop packages), at the DPI Xvnc is started with. */
static const char xsettings_xml[] = XML_HEAD
	"<channel name=\"xsettings\" version=\"1.0\">\n"
	"  <property name=\"Net\" type=\"empty\">\n"
	"    <property name=\"ThemeName\" type=\"string\" value=\"Adwaita\"/>\n"
	"    <property name=\"IconThemeName\" type=\"string\" value=\"Adwaita\"/>\n"
	"    <property name=\"EnableEventSounds\" type=\"bool\" value=\"false\"/>\n"
	"    <property name=\"EnableInputFeedbackSounds\" type=\"bool\" value=\"false\"/>\n"
	"  </property>\n"
	"  <property name=\"Xft\" type=\"empty\">\n"
	"    <property name=\"DPI\" type=\"int\" value=\"96\"/>\n"
	"    <property name=\"Antialias\" type=\"int\" value=\"1\"/>\n"
	"    <property name=\"Hinting\" type=\"int\" value=\"1\"/>\n"
	"    <property name=\"HintStyle\" type=\"string\" value=\"hintslight\"/>\n"
	"    <property name=\"RGBA\" type=\"string\" value=\"none\"/>\n"
	"  </property>\n"
	"  <property name=\"Gtk\" type=\"empty\">\n"
	"    <property name=\"FontName\" type=\"string\" value=\"DejaVu Sans 10\"/>\n"
	"    <property name=\"MonospaceFontName\" type=\"string\" value=\"DejaVu Sans Mono 10\"/>\n"
	"  </property>\n"
	"</channel>\n";

/* The same look for GTK when no XSETTINGS daemon runs (the lean desktop has no xfsettingsd):
 * GTK reads this file only then, so under the full desktop it changes nothing. */
static const char gtk_settings_ini[] = "[Settings]\n"
				       "gtk-theme-name=Adwaita\n"
				       "gtk-icon-theme-name=Adwaita\n"
				       "gtk-font-name=DejaVu Sans 10\n"
				       "gtk-xft-dpi=98304\n"
				       "gtk-xft-antialias=1\n"
				       "gtk-xft-hinting=1\n"
				       "gtk-xft-hintstyle=hintslight\n"
				       "gtk-xft-rgba=none\n"
				       "gtk-enable-event-sounds=0\n"
				       "gtk-enable-input-feedback-sounds=0\n";

/* A solid background on Xvnc's one output, no desktop icons (they would pull in a file manager
 * daemon for nothing). */
static const char desktop_xml[] =
	XML_HEAD "<channel name=\"xfce4-desktop\" version=\"1.0\">\n"
		 "  <property name=\"backdrop\" type=\"empty\">\n"
		 "    <property name=\"screen0\" type=\"empty\">\n"
		 "      <property name=\"monitorVNC-0\" type=\"empty\">\n"
		 "        <property name=\"workspace0\" type=\"empty\">\n"
		 "          <property name=\"color-style\" type=\"int\" value=\"0\"/>\n"
		 "          <property name=\"image-style\" type=\"int\" value=\"0\"/>\n"
		 "          <property name=\"rgba1\" type=\"array\">\n"
		 "            <value type=\"double\" value=\"0.109804\"/>\n"
		 "            <value type=\"double\" value=\"0.121569\"/>\n"
		 "            <value type=\"double\" value=\"0.160784\"/>\n"
		 "            <value type=\"double\" value=\"1.000000\"/>\n"
		 "          </property>\n"
		 "        </property>\n"
		 "      </property>\n"
		 "    </property>\n"
		 "  </property>\n"
		 "  <property name=\"desktop-icons\" type=\"empty\">\n"
		 "    <property name=\"style\" type=\"int\" value=\"0\"/>\n"
		 "  </property>\n"
		 "</channel>\n";

static const char screensaver_xml[] =
	XML_HEAD "<channel name=\"xfce4-screensaver\" version=\"1.0\">\n"
		 "  <property name=\"saver\" type=\"empty\">\n"
		 "    <property name=\"enabled\" type=\"bool\" value=\"false\"/>\n"
		 "    <property name=\"idle-activation\" type=\"empty\">\n"
		 "      <property name=\"enabled\" type=\"bool\" value=\"false\"/>\n"
		 "    </property>\n"
		 "  </property>\n"
		 "  <property name=\"lock\" type=\"empty\">\n"
		 "    <property name=\"enabled\" type=\"bool\" value=\"false\"/>\n"
		 "  </property>\n"
		 "</channel>\n";

static const char power_xml[] = XML_HEAD
	"<channel name=\"xfce4-power-manager\" version=\"1.0\">\n"
	"  <property name=\"xfce4-power-manager\" type=\"empty\">\n"
	"    <property name=\"dpms-enabled\" type=\"bool\" value=\"false\"/>\n"
	"    <property name=\"lock-screen-suspend-hibernate\" type=\"bool\" value=\"false\"/>\n"
	"  </property>\n"
	"</channel>\n";

/* xfsettingsd leaves the keyboard alone: the session set layout us on the server. */
static const char keyboard_xml[] =
	XML_HEAD "<channel name=\"keyboard-layout\" version=\"1.0\">\n"
		 "  <property name=\"Default\" type=\"empty\">\n"
		 "    <property name=\"XkbDisable\" type=\"bool\" value=\"true\"/>\n"
		 "  </property>\n"
		 "</channel>\n";

void seed_write_xfwm4(FILE *f, const char *profile)
{
	fputs(XML_HEAD "<channel name=\"xfwm4\" version=\"1.0\">\n"
		       "  <property name=\"general\" type=\"empty\">\n"
		       "    <property name=\"use_compositing\" type=\"bool\" value=\"false\"/>\n"
		       "    <property name=\"workspace_count\" type=\"int\" value=\"1\"/>\n"
		       "    <property name=\"workspace_names\" type=\"array\">\n"
		       "      <value type=\"string\" value=\"botdesk:",
	      f);
	escape_xml_text(f, profile);
	fputs("\"/>\n"
	      "    </property>\n"
	      "    <property name=\"theme\" type=\"string\" value=\"Default\"/>\n"
	      "    <property name=\"title_font\" type=\"string\" value=\"DejaVu Sans Bold 10\"/>\n"
	      "    <property name=\"focus_new\" type=\"bool\" value=\"true\"/>\n"
	      "    <property name=\"activate_action\" type=\"string\" value=\"bring\"/>\n"
	      "    <property name=\"borderless_maximize\" type=\"bool\" value=\"true\"/>\n",
	      f);
	for (size_t i = 0; seed_xfwm4_defaults[i]; i++) {
		fputs(seed_xfwm4_defaults[i], f);
	}
	fputs("  </property>\n"
	      "</channel>\n",
	      f);
}

/* The ids first .. first+count-1, without skip (0: none). */
static void plugin_ids(FILE *f, unsigned first, unsigned count, unsigned skip)
{
	fputs("      <property name=\"plugin-ids\" type=\"array\">\n", f);
	for (unsigned i = 0; i < count; i++) {
		if (first + i != skip) {
			fprintf(f, "        <value type=\"int\" value=\"%u\"/>\n", first + i);
		}
	}
	fputs("      </property>\n", f);
}

void seed_write_panel(FILE *f, const struct dock *dock, bool tray)
{
	size_t n = dock ? dock->n : 0;
	fputs(XML_HEAD "<channel name=\"xfce4-panel\" version=\"1.0\">\n"
		       "  <property name=\"configver\" type=\"int\" value=\"2\"/>\n"
		       "  <property name=\"panels\" type=\"array\">\n"
		       "    <value type=\"int\" value=\"1\"/>\n",
	      f);
	if (n > 0) {
		fputs("    <value type=\"int\" value=\"2\"/>\n", f);
	}
	/* The top bar: menu, tasks, tray, clock. The tray is a process of its own (the panel runs
	 * it out of process), some 45 ms of CPU and 4 MiB of private memory at every start, for
	 * status icons an agent's desktop does not show: only the full desktop has it. */
	fputs("    <property name=\"panel-1\" type=\"empty\">\n"
	      "      <property name=\"position\" type=\"string\" value=\"p=6;x=0;y=0\"/>\n"
	      "      <property name=\"length\" type=\"uint\" value=\"100\"/>\n"
	      "      <property name=\"position-locked\" type=\"bool\" value=\"true\"/>\n"
	      "      <property name=\"size\" type=\"uint\" value=\"28\"/>\n"
	      "      <property name=\"icon-size\" type=\"uint\" value=\"16\"/>\n",
	      f);
	plugin_ids(f, 1, 5, tray ? 0 : 4);
	fputs("    </property>\n", f);
	/* The dock: one launcher per program present, always shown. */
	if (n > 0) {
		fputs("    <property name=\"panel-2\" type=\"empty\">\n"
		      "      <property name=\"position\" type=\"string\" value=\"p=10;x=0;y=0\"/>\n"
		      "      <property name=\"length\" type=\"uint\" value=\"1\"/>\n"
		      "      <property name=\"position-locked\" type=\"bool\" value=\"true\"/>\n"
		      "      <property name=\"autohide-behavior\" type=\"uint\" value=\"0\"/>\n"
		      "      <property name=\"size\" type=\"uint\" value=\"44\"/>\n"
		      "      <property name=\"icon-size\" type=\"uint\" value=\"28\"/>\n",
		      f);
		plugin_ids(f, SEED_DOCK_FIRST_ID, (unsigned)n, 0);
		fputs("    </property>\n", f);
	}
	fputs("  </property>\n"
	      "  <property name=\"plugins\" type=\"empty\">\n"
	      "    <property name=\"plugin-1\" type=\"string\" value=\"applicationsmenu\"/>\n"
	      "    <property name=\"plugin-2\" type=\"string\" value=\"tasklist\">\n"
	      "      <property name=\"grouping\" type=\"uint\" value=\"1\"/>\n"
	      "    </property>\n"
	      "    <property name=\"plugin-3\" type=\"string\" value=\"separator\">\n"
	      "      <property name=\"expand\" type=\"bool\" value=\"true\"/>\n"
	      "      <property name=\"style\" type=\"uint\" value=\"0\"/>\n"
	      "    </property>\n",
	      f);
	if (tray) {
		fputs("    <property name=\"plugin-4\" type=\"string\" value=\"systray\">\n"
		      "      <property name=\"square-icons\" type=\"bool\" value=\"true\"/>\n"
		      "    </property>\n",
		      f);
	}
	fputs("    <property name=\"plugin-5\" type=\"string\" value=\"clock\"/>\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f,
			"    <property name=\"plugin-%zu\" type=\"string\" value=\"launcher\">\n"
			"      <property name=\"items\" type=\"array\">\n"
			"        <value type=\"string\" value=\"botdesk-",
			SEED_DOCK_FIRST_ID + i);
		escape_xml_text(f, dock->items[i].id);
		fputs(".desktop\"/>\n"
		      "      </property>\n"
		      "    </property>\n",
		      f);
	}
	fputs("  </property>\n"
	      "</channel>\n",
	      f);
}

static void seed_write_launcher(FILE *f, const struct dock_item *item)
{
	fputs("[Desktop Entry]\nVersion=1.0\nType=Application\nName=", f);
	escape_desktop_string(f, item->name);
	fputs("\nExec=", f);
	escape_desktop_exec(f, item->argv.v);
	fputs("\nIcon=", f);
	escape_desktop_string(f, item->icon);
	fputs("\nTerminal=false\nStartupNotify=false\n", f);
}

/* Opens rel under base, creating each missing component 0700, never through a symlink. */
static int open_dirs(int base, const char *rel, int *ret)
{
	_cleanup_free_ char *copy = strdup(rel);
	if (!copy) {
		return -ENOMEM;
	}
	int fd = fcntl(base, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		return negative_errno();
	}
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (mkdirat(fd, c, 0700) < 0 && errno != EEXIST) {
			int r = negative_errno();
			safe_close(fd);
			return r;
		}
		int next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int r = negative_errno();
		safe_close(fd);
		if (next < 0) {
			return r;
		}
		fd = next;
	}
	*ret = fd;
	return 0;
}

/* Writes name only when nothing is there (a planted symlink included: it is neither followed nor
 * replaced), whole or not at all: a temporary linked into place. */
static int seed_file(int dirfd, const char *name, const char *text, size_t len)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		return 0;
	}
	if (errno != ENOENT) {
		return negative_errno();
	}
	char tmp[256];
	int r = path_format(tmp, sizeof(tmp), ".%s.seed.%ld", name, (long)getpid());
	if (r < 0) {
		return r;
	}
	(void)unlinkat(dirfd, tmp, 0);
	_cleanup_close_ int fd =
		openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		return negative_errno();
	}
	r = write_all(fd, text, len);
	if (r == 0 && linkat(dirfd, tmp, dirfd, name, 0) < 0 && errno != EEXIST) {
		r = negative_errno();
	}
	(void)unlinkat(dirfd, tmp, 0);
	return r;
}

/* The generators, as memout() runs them: ctx is the address of a pointer to what they write
 * from (the seed_opts, a dock item). */
static int print_xfwm4(FILE *f, void *ctx)
{
	const struct seed_opts *const *o = ctx;
	seed_write_xfwm4(f, (*o)->profile);
	return 0;
}

static int print_panel(FILE *f, void *ctx)
{
	const struct seed_opts *const *o = ctx;
	seed_write_panel(f, (*o)->dock, (*o)->tray);
	return 0;
}

static int print_launcher(FILE *f, void *ctx)
{
	const struct dock_item *const *item = ctx;
	seed_write_launcher(f, *item);
	return 0;
}

/* Runs a generator into memory and seeds its output. */
static int seed_generated(int dirfd, const char *name, int (*print)(FILE *f, void *ctx), void *ctx)
{
	size_t len;
	_cleanup_free_ char *text = memout_len(print, ctx, &len);
	if (!text) {
		return negative_errno();
	}
	return seed_file(dirfd, name, text, len);
}

/* The shortcuts as the providers would leave them (see seedkeys.h). A system file that is absent,
 * unreadable or laid out otherwise leaves the work to them, as before. */
static int seed_shortcuts(int dir)
{
	if (faccessat(dir, "xfce4-keyboard-shortcuts.xml", F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		return 0;
	}
	_cleanup_close_ int fd = open(SEEDKEYS_SYSTEM_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	_cleanup_free_ char *text = malloc(SEED_SHORTCUTS_MAX);
	if (!text) {
		return -ENOMEM;
	}
	ssize_t n = read_all(fd, text, SEED_SHORTCUTS_MAX);
	if (n <= 0 || n == SEED_SHORTCUTS_MAX) {
		return 0;
	}
	_cleanup_free_ char *out = NULL;
	size_t len;
	int r = seedkeys_from_system(text, (size_t)n, &out, &len);
	if (r == -EPROTO) {
		return 0;
	}
	return r < 0 ? r : seed_file(dir, "xfce4-keyboard-shortcuts.xml", out, len);
}

static int seed_xfconf(int home, const struct seed_opts *o)
{
	static const struct {
		const char *name;
		const char *text;
	} fixed[] = {
		{"xsettings.xml", xsettings_xml},           {"xfce4-desktop.xml", desktop_xml},
		{"xfce4-screensaver.xml", screensaver_xml}, {"xfce4-power-manager.xml", power_xml},
		{"keyboard-layout.xml", keyboard_xml},
	};
	_cleanup_close_ int dir = -1;
	int r = open_dirs(home, SEED_XFCONF_DIR, &dir);
	for (size_t i = 0; i < ARRAY_SIZE(fixed) && r == 0; i++) {
		r = seed_file(dir, fixed[i].name, fixed[i].text, strlen(fixed[i].text));
	}
	if (r == 0) {
		r = seed_generated(dir, "xfwm4.xml", print_xfwm4, &o);
	}
	if (r == 0) {
		r = seed_shortcuts(dir);
	}
	/* Seeded once like the rest; that the file exists is also what spares the user the
	 * panel's first-start dialog. */
	if (r == 0) {
		r = seed_generated(dir, "xfce4-panel.xml", print_panel, &o);
	}
	return r;
}

static int seed_launchers(int home, const struct dock *dock)
{
	int r = 0;
	for (size_t i = 0; dock && i < dock->n && r == 0; i++) {
		char rel[64], name[64];
		r = path_format(rel, sizeof(rel), SEED_PANEL_DIR "/launcher-%zu",
				SEED_DOCK_FIRST_ID + i);
		if (r == 0) {
			r = path_format(name, sizeof(name), "botdesk-%s.desktop",
					dock->items[i].id);
		}
		_cleanup_close_ int dir = -1;
		if (r == 0) {
			r = open_dirs(home, rel, &dir);
		}
		const struct dock_item *item = &dock->items[i];
		if (r == 0) {
			r = seed_generated(dir, name, print_launcher, &item);
		}
	}
	return r;
}

static int seed_autostarts(int home)
{
	_cleanup_close_ int dir = -1;
	int r = open_dirs(home, SEED_AUTOSTART_DIR, &dir);
	for (size_t i = 0; seed_masked_autostarts[i] && r == 0; i++) {
		char name[128], text[256];
		r = path_format(name, sizeof(name), "%s.desktop", seed_masked_autostarts[i]);
		if (r < 0) {
			break;
		}
		int n = snprintf(text, sizeof(text),
				 "[Desktop Entry]\nType=Application\nName=%s\nHidden=true\n",
				 seed_masked_autostarts[i]);
		if (n < 0 || (size_t)n >= sizeof(text)) {
			r = -EOVERFLOW;
			break;
		}
		r = seed_file(dir, name, text, (size_t)n);
	}
	return r;
}

int seed_config(const char *config_home, const struct seed_opts *o, struct error *err)
{
	if (mkdir(config_home, 0700) < 0 && errno != EEXIST) {
		return error_set(err, negative_errno(), "cannot create %s: %s", config_home,
				 strerror(errno));
	}
	_cleanup_close_ int home =
		open(config_home, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (home < 0) {
		return error_set(err, negative_errno(), "cannot open %s: %s", config_home,
				 strerror(errno));
	}
	int r = seed_xfconf(home, o);
	_cleanup_close_ int gtk = -1;
	if (r == 0 && (r = open_dirs(home, "gtk-3.0", &gtk)) == 0) {
		r = seed_file(gtk, "settings.ini", gtk_settings_ini, strlen(gtk_settings_ini));
	}
	if (r == 0) {
		r = seed_launchers(home, o->dock);
	}
	if (r == 0) {
		r = seed_autostarts(home);
	}
	if (r < 0) {
		return error_set(err, r, "cannot seed the desktop configuration in %s: %s",
				 config_home, strerror(-r));
	}
	return 0;
}
