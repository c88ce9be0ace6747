/* The Xfce configuration the session seeds: complete, escaped, and never over a user's file. */
#include "session-test.h"

#include <errno.h>

#include "dock.h"
#include "escape.h"
#include "seed.h"
#include "seedkeys.h"

static char *generate(void (*gen)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	gen(f, arg);
	fclose(f);
	return text;
}

static void gen_xfwm4(FILE *f, const void *profile)
{
	seed_write_xfwm4(f, profile);
}

static void gen_exec(FILE *f, const void *argv)
{
	escape_desktop_exec(f, (char *const *)argv);
}

static void gen_xml(FILE *f, const void *s)
{
	escape_xml_text(f, s);
}

static void test_xml_escaping(void **state)
{
	char *t = generate(gen_xml, "a&b<c>\"d'e");
	assert_string_equal(t, "a&amp;b&lt;c&gt;&quot;d&apos;e");
	free(t);
}

/* The profile's name lands in xfwm4's workspace name, escaped: nothing it holds can close the
 * attribute or add an element. */
static void test_xfwm4_odd_profile(void **state)
{
	char *t = generate(gen_xfwm4, "x\"/><property name=\"use_compositing\" value=\"true");
	/* The injected property stays text: one real use_compositing, the seeded one. */
	size_t count = 0;
	for (const char *p = t; (p = strstr(p, "<property name=\"use_compositing\"")); p++) {
		count++;
	}
	assert_int_equal(count, 1);
	assert_non_null(strstr(t, "botdesk:x&quot;/&gt;&lt;property"));
	assert_non_null(strstr(t, "<property name=\"use_compositing\" type=\"bool\" "
				  "value=\"false\"/>"));
	assert_non_null(strstr(t, "<property name=\"workspace_count\" type=\"int\" value=\"1\"/>"));
	free(t);
}

static void test_exec_quoting(void **state)
{
	char *plain[] = {(char[]){"/usr/bin/firefox"}, (char[]){"--new-window"}, NULL};
	char *t = generate(gen_exec, plain);
	assert_string_equal(t, "/usr/bin/firefox --new-window");
	free(t);
	/* Reserved characters quote the argument; the quote-level and string-level escapes are
	 * both applied; % is doubled so no field code is expanded. */
	char *odd[] = {(char[]){"/opt/my browser/run"},
		       (char[]){"a\"b"},
		       (char[]){"$HOME"},
		       (char[]){"back\\slash"},
		       (char[]){"100%"},
		       (char[]){"%u"},
		       NULL};
	t = generate(gen_exec, odd);
	assert_string_equal(t, "\"/opt/my browser/run\" \"a\\\\\"b\" \"\\\\$HOME\" "
			       "\"back\\\\\\\\slash\" 100%% %%u");
	free(t);
}

static struct dock make_dock(void)
{
	struct dock d = {0};
	d.items[0] = (struct dock_item){.id = "terminal", .name = "Terminal", .icon = "t"};
	strv_push(&d.items[0].argv, "/usr/bin/xfce4-terminal");
	d.items[1] = (struct dock_item){.id = "browser", .name = "Web Browser", .icon = "w"};
	strv_push(&d.items[1].argv, "/opt/b/browser");
	strv_push(&d.items[1].argv, "--profile=a b");
	d.n = 2;
	return d;
}

static void test_seed_tree(void **state)
{
	char *dir = unit_mkdtemp();
	char home[8192];
	snprintf(home, sizeof(home), "%s/xdg", dir);
	struct dock d = make_dock();
	struct seed_opts o = {.profile = "p<1>", .dock = &d};
	struct error err = {0};
	assert_int_equal(seed_config(home, &o, &err), 0);

	struct stat st;
	assert_int_equal(stat(home, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	static const char *const channels[] = {
		"xfwm4",          "xsettings",         "xfce4-desktop",
		"xfce4-panel",    "xfce4-screensaver", "xfce4-power-manager",
		"keyboard-layout"};
	for (size_t i = 0; i < sizeof(channels) / sizeof(channels[0]); i++) {
		char name[256];
		snprintf(name, sizeof(name), "xdg/" SEED_XFCONF_DIR "/%s.xml", channels[i]);
		char *t = st_read(dir, name);
		assert_non_null(t);
		assert_non_null(strstr(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
		assert_non_null(strstr(t, "</channel>"));
		free(t);
	}
	char *panel = st_read(dir, "xdg/" SEED_XFCONF_DIR "/xfce4-panel.xml");
	assert_non_null(strstr(panel, "value=\"applicationsmenu\""));
	assert_non_null(strstr(panel, "value=\"tasklist\""));
	/* The lean desktop's panel has no tray (plugin 4), the full one's has. */
	assert_null(strstr(panel, "value=\"systray\""));
	assert_null(strstr(panel, "<value type=\"int\" value=\"4\"/>"));
	assert_non_null(strstr(panel, "value=\"clock\""));
	assert_non_null(strstr(panel, "<property name=\"plugin-21\" type=\"string\" "
				      "value=\"launcher\">"));
	assert_non_null(strstr(panel, "<property name=\"plugin-22\" type=\"string\" "
				      "value=\"launcher\">"));
	assert_null(strstr(panel, "plugin-23"));
	free(panel);
	/* GTK's look without an XSETTINGS daemon. */
	char *ini = st_read(dir, "xdg/gtk-3.0/settings.ini");
	assert_non_null(ini);
	assert_non_null(strstr(ini, "\ngtk-theme-name=Adwaita\n"));
	assert_non_null(strstr(ini, "\ngtk-font-name=DejaVu Sans 10\n"));
	free(ini);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	seed_write_panel(m, &d, true);
	assert_int_equal(fclose(m), 0);
	assert_non_null(
		strstr(text, "<property name=\"plugin-4\" type=\"string\" value=\"systray\">"));
	assert_non_null(strstr(text, "<value type=\"int\" value=\"4\"/>"));
	free(text);

	char *term = st_read(dir, "xdg/" SEED_PANEL_DIR "/launcher-21/botdesk-terminal.desktop");
	assert_non_null(term);
	assert_non_null(strstr(term, "\nExec=/usr/bin/xfce4-terminal\n"));
	free(term);
	char *browser = st_read(dir, "xdg/" SEED_PANEL_DIR "/launcher-22/botdesk-browser.desktop");
	assert_non_null(browser);
	assert_non_null(strstr(browser, "\nExec=/opt/b/browser \"--profile=a b\"\n"));
	free(browser);

	for (size_t i = 0; seed_masked_autostarts[i]; i++) {
		char name[256];
		snprintf(name, sizeof(name), "xdg/autostart/%s.desktop", seed_masked_autostarts[i]);
		char *t = st_read(dir, name);
		assert_non_null(t);
		assert_non_null(strstr(t, "\nHidden=true\n"));
		free(t);
	}
	dock_free(&d);
	unit_rm_rf(dir);
}

/* What the user changed since stays: only absent files are written. A planted symlink is
 * neither followed nor replaced. */
static void test_seed_keeps_existing(void **state)
{
	char *dir = unit_mkdtemp();
	char home[8192];
	snprintf(home, sizeof(home), "%s/xdg", dir);
	char cmd[16384];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/" SEED_XFCONF_DIR "'", home);
	assert_int_equal(system(cmd), 0);
	st_write(dir, "xdg/" SEED_XFCONF_DIR "/xfwm4.xml", "mine\n", 0600);
	st_write(dir, "target", "untouched\n", 0600);
	char link[16384];
	snprintf(link, sizeof(link), "%s/" SEED_XFCONF_DIR "/xsettings.xml", home);
	assert_int_equal(symlink(st_path(dir, "target"), link), 0);

	struct seed_opts o = {.profile = "p", .dock = NULL};
	struct error err = {0};
	assert_int_equal(seed_config(home, &o, &err), 0);
	char *t = st_read(dir, "xdg/" SEED_XFCONF_DIR "/xfwm4.xml");
	assert_string_equal(t, "mine\n");
	free(t);
	t = st_read(dir, "target");
	assert_string_equal(t, "untouched\n");
	free(t);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* No dock without programs: one panel only. */
	t = st_read(dir, "xdg/" SEED_XFCONF_DIR "/xfce4-panel.xml");
	assert_null(strstr(t, "panel-2"));
	free(t);
	unit_rm_rf(dir);
}

static void test_seed_twice_is_stable(void **state)
{
	char *dir = unit_mkdtemp();
	char home[8192];
	snprintf(home, sizeof(home), "%s/xdg", dir);
	struct seed_opts o = {.profile = "p", .dock = NULL};
	struct error err = {0};
	assert_int_equal(seed_config(home, &o, &err), 0);
	char *first = st_read(dir, "xdg/" SEED_XFCONF_DIR "/xfce4-desktop.xml");
	assert_int_equal(seed_config(home, &o, &err), 0);
	char *second = st_read(dir, "xdg/" SEED_XFCONF_DIR "/xfce4-desktop.xml");
	assert_string_equal(first, second);
	free(first);
	free(second);
	unit_rm_rf(dir);
}

/* The dock holds only programs found on PATH, and the browser only when its program is. */
static void test_dock_only_present_programs(void **state)
{
	char *dir = unit_mkdtemp();
	st_write(dir, "xfce4-terminal", "#!/bin/sh\n", 0755);
	st_write(dir, "mousepad", "#!/bin/sh\n", 0644); /* not executable: absent */
	st_write(dir, "mybrowser", "#!/bin/sh\n", 0755);
	struct dock d;
	assert_int_equal(dock_resolve(dir, "mybrowser --incognito", &d), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.items[0].id, "terminal");
	assert_string_equal(d.items[0].argv.v[0], st_path(dir, "xfce4-terminal"));
	assert_string_equal(d.items[1].id, "browser");
	assert_string_equal(d.items[1].argv.v[0], st_path(dir, "mybrowser"));
	assert_string_equal(d.items[1].argv.v[1], "--incognito");
	assert_null(d.items[1].argv.v[2]);
	dock_free(&d);

	assert_int_equal(dock_resolve(dir, "no-such-browser", &d), 0);
	assert_int_equal(d.n, 1);
	dock_free(&d);
	unit_rm_rf(dir);
}

/* The binding the system file defines, and the file up to its end as xfwm4's defaults, which the
 * seeded copy keeps as they are. */
#define ALT_F4_CLOSE \
	"      <property name=\"&lt;Alt&gt;F4\" type=\"string\" value=\"close_window_key\"/>\n"
#define SHORTCUTS_DEFAULTS                                              \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                  \
	"<channel name=\"xfce4-keyboard-shortcuts\" version=\"1.0\">\n" \
	"  <property name=\"xfwm4\" type=\"empty\">\n"                  \
	"    <property name=\"default\" type=\"empty\">\n" ALT_F4_CLOSE "    </property>\n"

/* The shortcuts: each provider's defaults copied as its custom block, marked override, and the
 * providers listed, so that neither xfwm4 nor xfsettingsd writes them at the first start. */
static void test_shortcuts_from_system(void **state)
{
	static const char sys[] = SHORTCUTS_DEFAULTS "  </property>\n"
						     "</channel>\n";
	static const char want[] = SHORTCUTS_DEFAULTS
		"    <property name=\"custom\" type=\"empty\">\n"
		"      <property name=\"override\" type=\"bool\" value=\"true\"/>\n" ALT_F4_CLOSE
		"    </property>\n"
		"  </property>\n"
		"  <property name=\"providers\" type=\"array\">\n"
		"    <value type=\"string\" value=\"xfwm4\"/>\n"
		"    <value type=\"string\" value=\"commands\"/>\n"
		"  </property>\n"
		"</channel>\n";
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(seedkeys_from_system(sys, strlen(sys), &out, &len), 0);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(out, want, len);
	free(out);
	/* Anything laid out otherwise is left to the providers. */
	assert_int_equal(seedkeys_from_system(want, strlen(want), &out, &len), -EPROTO);
	static const char unclosed[] = "<channel>\n"
				       "    <property name=\"default\" type=\"empty\">\n"
				       "</channel>\n";
	assert_int_equal(seedkeys_from_system(unclosed, strlen(unclosed), &out, &len), -EPROTO);
	static const char none[] = "<channel name=\"x\">\n</channel>\n";
	assert_int_equal(seedkeys_from_system(none, strlen(none), &out, &len), -EPROTO);
	assert_int_equal(seedkeys_from_system(sys, strlen(sys) - 11, &out, &len), -EPROTO);
}

static unsigned occurrences(const char *hay, const char *needle)
{
	unsigned n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
		n++;
	}
	return n;
}

/* A new profile's xfwm4.xml holds xfwm4's defaults, so xfwm4 writes none at its first start. */
static void test_xfwm4_defaults(void **state)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);
	assert_non_null(f);
	seed_write_xfwm4(f, "p");
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(t, "<property name=\"button_layout\" type=\"string\" "
				  "value=\"O|SHMC\"/>"));
	assert_non_null(strstr(t, "<property name=\"click_to_focus\" type=\"bool\" "
				  "value=\"true\"/>"));
	/* Ours once each: not repeated among the defaults. */
	assert_int_equal(occurrences(t, "name=\"focus_new\""), 1);
	assert_int_equal(occurrences(t, "name=\"theme\""), 1);
	assert_non_null(strstr(t, "  </property>\n</channel>\n"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_escaping),
		cmocka_unit_test(test_xfwm4_odd_profile),
		cmocka_unit_test(test_exec_quoting),
		cmocka_unit_test(test_seed_tree),
		cmocka_unit_test(test_seed_keeps_existing),
		cmocka_unit_test(test_seed_twice_is_stable),
		cmocka_unit_test(test_dock_only_present_programs),
		cmocka_unit_test(test_shortcuts_from_system),
		cmocka_unit_test(test_xfwm4_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
