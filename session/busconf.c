#include "busconf.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "pathjoin.h"
#include "util.h"

int busconf_escape(const char *path, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		bool plain = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
			     (*p >= 'A' && *p <= 'Z') || strchr("-_/.\\*", *p);
		size_t need = plain ? 1 : 3;
		if (n + need >= size) {
			return -ENAMETOOLONG;
		}
		if (plain) {
			buf[n++] = (char)*p;
		} else {
			buf[n++] = '%';
			buf[n++] = hex[*p >> 4];
			buf[n++] = hex[*p & 15];
		}
	}
	if (n >= size) {
		return -ENAMETOOLONG;
	}
	buf[n] = '\0';
	return 0;
}

/* The system's session configuration but for <listen> (which would add the /tmp socket back): its
 * service directories, its drop-ins and its generous limits. */
static const char conf_head[] =
	"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
	" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
	"<!-- written by botdesk-session at each start: the desktop's bus, in its own 0700 directory -->\n"
	"<busconfig>\n"
	"  <type>session</type>\n"
	"  <keep_umask/>\n"
	"  <listen>unix:path=";
static const char conf_tail[] = "</listen>\n"
				"  <auth>EXTERNAL</auth>\n";
/* Between the two: our own service directory first, when there is one (see busconf.h). */
static const char conf_services[] =
	"  <standard_session_servicedirs/>\n"
	"  <policy context=\"default\">\n"
	"    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
	"    <allow eavesdrop=\"true\"/>\n"
	"    <allow own=\"*\"/>\n"
	"  </policy>\n"
	"  <includedir>/usr/share/dbus-1/session.d</includedir>\n"
	"  <includedir>/etc/dbus-1/session.d</includedir>\n"
	"  <include ignore_missing=\"yes\">/etc/dbus-1/session-local.conf</include>\n"
	"  <limit name=\"max_incoming_bytes\">1000000000</limit>\n"
	"  <limit name=\"max_outgoing_bytes\">1000000000</limit>\n"
	"  <limit name=\"max_message_size\">1000000000</limit>\n"
	"  <limit name=\"service_start_timeout\">120000</limit>\n"
	"  <limit name=\"max_completed_connections\">100000</limit>\n"
	"  <limit name=\"max_connections_per_user\">100000</limit>\n"
	"  <limit name=\"max_names_per_connection\">50000</limit>\n"
	"  <limit name=\"max_match_rules_per_connection\">50000</limit>\n"
	"  <limit name=\"max_replies_per_connection\">50000</limit>\n"
	"</busconfig>\n";

static int check_private(const char *dir, struct error *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		return error_set(err, negative_errno(),
				 "cannot open the profile's directory %s: %s", dir,
				 strerror(errno));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		return error_set(
			err, -EPERM,
			"the profile's directory %s belongs to uid %u with mode %04o, but the desktop's bus socket goes there and only its owner may reach it: chmod 0700 %s (botdesk start makes it so)",
			dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), dir);
	}
	return 0;
}

/* Bytes a path may hold to go, unquoted, into the configuration's XML and the service file's
 * Exec line (a shell-like word to dbus-daemon); other paths get no accessibility override. */
static bool plain_path(const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || strchr("-_/.+,:@", *p))) {
			return false;
		}
	}
	return true;
}

const char *busconf_a11y_launcher(void)
{
	static const char *const where[] = {
		"/usr/libexec/at-spi-bus-launcher",
		"/usr/lib/at-spi2-core/at-spi-bus-launcher",
		"/usr/lib/at-spi-bus-launcher",
	};
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		if (access(where[i], X_OK) == 0) {
			return where[i];
		}
	}
	return NULL;
}

/* <state_dir>/BUSCONF_A11Y_DIR/org.a11y.Bus.service: the accessibility bus's launcher, run by
 * the session bus on the first GetAddress with XDG_RUNTIME_DIR pointing at the state directory,
 * so that the bus it starts listens in <state_dir>/at-spi/ (0700, ours), not in a runtime
 * directory every desktop of the user shares (or an abstract socket, without one). 1 when
 * written, 0 when there is nothing to write (no launcher installed, a path we do not quote). */
static int write_a11y_service(const char *state_dir, struct error *err)
{
	const char *launcher = busconf_a11y_launcher();
	if (!launcher || !plain_path(state_dir)) {
		return 0;
	}
	_cleanup_close_ int dfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		return error_set(err, negative_errno(), "cannot open %s: %s", state_dir,
				 strerror(errno));
	}
	if (mkdirat(dfd, BUSCONF_A11Y_DIR, 0700) < 0 && errno != EEXIST) {
		return error_set(err, negative_errno(), "cannot make %s/%s: %s", state_dir,
				 BUSCONF_A11Y_DIR, strerror(errno));
	}
	_cleanup_close_ int sfd =
		openat(dfd, BUSCONF_A11Y_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0) {
		return error_set(err, negative_errno(), "cannot open %s/%s: %s", state_dir,
				 BUSCONF_A11Y_DIR, strerror(errno));
	}
	_cleanup_free_ char *text = NULL;
	int n = asprintf(&text,
			 "# written by botdesk-session: the accessibility bus in this directory\n"
			 "[D-BUS Service]\n"
			 "Name=org.a11y.Bus\n"
			 "Exec=/usr/bin/env XDG_RUNTIME_DIR=%s %s\n",
			 state_dir, launcher);
	if (n < 0) {
		return error_set(err, -ENOMEM, "out of memory");
	}
	int r = write_file_atomic_at(sfd, "org.a11y.Bus.service", text, (size_t)n, 0600);
	if (r < 0) {
		return error_set(err, r, "cannot write %s/%s/org.a11y.Bus.service: %s", state_dir,
				 BUSCONF_A11Y_DIR, strerror(-r));
	}
	return 1;
}

int busconf_write(const char *state_dir, char *ret_path, size_t size, struct error *err)
{
	int r = check_private(state_dir, err);
	if (r < 0) {
		return r;
	}
	char sock[4096], addr[4096 * 3];
	r = path_join(sock, sizeof(sock), state_dir, BUSCONF_SOCKET);
	if (r == 0) {
		r = busconf_escape(sock, addr, sizeof(addr));
	}
	if (r == 0) {
		r = path_join(ret_path, size, state_dir, BUSCONF_FILE);
	}
	if (r < 0) {
		return error_set(err, r, "the bus's paths in %s are too long", state_dir);
	}
	r = write_a11y_service(state_dir, err);
	if (r < 0) {
		return r;
	}
	/* dbus-daemon reads service directories in order, and the first file that names a
	 * service is the one it runs: ours before the system's. */
	_cleanup_free_ char *mine = NULL;
	if (r > 0 && asprintf(&mine, "  <servicedir>%s/%s</servicedir>\n", state_dir,
			      BUSCONF_A11Y_DIR) < 0) {
		return error_set(err, -ENOMEM, "out of memory");
	}
	_cleanup_free_ char *text = NULL;
	int n = asprintf(&text, "%s%s%s%s%s", conf_head, addr, conf_tail, mine ? mine : "",
			 conf_services);
	if (n < 0) {
		return error_set(err, -ENOMEM, "out of memory");
	}
	r = write_file_atomic(ret_path, text, (size_t)n, 0600);
	if (r < 0) {
		return error_set(err, r, "cannot write %s: %s", ret_path, strerror(-r));
	}
	return 0;
}

void busconf_remove(const char *state_dir)
{
	_cleanup_close_ int fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		(void)unlink_at_if_exists(fd, BUSCONF_FILE);
		(void)unlink_at_if_exists(fd, BUSCONF_SOCKET);
		_cleanup_close_ int sfd = openat(fd, BUSCONF_A11Y_DIR,
						 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sfd >= 0) {
			(void)unlink_at_if_exists(sfd, "org.a11y.Bus.service");
		}
		(void)unlinkat(fd, BUSCONF_A11Y_DIR, AT_REMOVEDIR);
		/* The accessibility bus's socket (at-spi/bus_<display>) goes with its bus. */
		_cleanup_close_ int afd =
			openat(fd, "at-spi", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		_cleanup_closedir_ DIR *d = afd >= 0 ? fdopendir(afd) : NULL;
		if (d) {
			afd = -1; /* the DIR owns it now */
		}
		for (struct dirent *e; d && (e = readdir(d));) {
			if (startswith(e->d_name, "bus")) {
				(void)unlinkat(dirfd(d), e->d_name, 0);
			}
		}
		(void)unlinkat(fd, "at-spi", AT_REMOVEDIR);
	}
}
