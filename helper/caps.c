/* Capabilities, through libcap. The privileged side keeps only what it uses; the package manager
 * gets a bounding set without the capabilities no install needs; the parser child gets none. */
#include <sys/capability.h>
#include <sys/prctl.h>

#include "helper.h"
#include "util.h"

static void cap_freep(cap_t *c)
{
	if (*c) {
		cap_free(*c);
	}
}
#define _cleanup_cap_ _cleanup_(cap_freep)

/* Between start-up and the package manager's exec the privileged side only changes uids and
 * groups (the parser's drop, the switch to full root), trims bounding sets, and signals the
 * package manager's group (whose members may have switched to apt's _apt user). */
static const cap_value_t broker_caps[] = {CAP_SETUID, CAP_SETGID, CAP_SETPCAP, CAP_KILL};

/* What installing packages needs: Docker's default set, under which apt and dnf installs in
 * containers run every day, less CAP_NET_RAW. Everything else (module loading, raw I/O, ptrace,
 * reboot, BPF, perfmon, the clock, MAC and audit administration, sys_admin, ...) is cut, so no
 * maintainer script can use it either. An allowlist, so a capability added to a future kernel is
 * cut too. */
static const cap_value_t install_caps[] = {
	CAP_CHOWN,  CAP_DAC_OVERRIDE, CAP_FSETID,      CAP_FOWNER,  CAP_MKNOD,
	CAP_SETGID, CAP_SETUID,       CAP_SETFCAP,     CAP_SETPCAP, CAP_NET_BIND_SERVICE,
	CAP_KILL,   CAP_SYS_CHROOT,   CAP_AUDIT_WRITE,
};

static bool in(cap_value_t c, const cap_value_t *set, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (set[i] == c) {
			return true;
		}
	}
	return false;
}

int caps_keep_broker(void)
{
	_cleanup_cap_ cap_t c = cap_init();
	if (!c) {
		return negative_errno();
	}
	if (cap_set_flag(c, CAP_PERMITTED, ARRAY_SIZE(broker_caps), broker_caps, CAP_SET) < 0 ||
	    cap_set_flag(c, CAP_EFFECTIVE, ARRAY_SIZE(broker_caps), broker_caps, CAP_SET) < 0 ||
	    cap_set_proc(c) < 0) {
		return negative_errno();
	}
	return 0;
}

static int bound_keep(const cap_value_t *keep, size_t n)
{
	/* cap_max_bits() is what this kernel knows, which may be more than our headers do. */
	cap_value_t max = cap_max_bits();
	for (cap_value_t c = 0; c < max; c++) {
		if (in(c, keep, n)) {
			continue;
		}
		if (cap_drop_bound(c) < 0) {
			return negative_errno();
		}
	}
	/* Trust, but verify: a silently ignored drop would leave the capability to exec. */
	for (cap_value_t c = 0; c < max; c++) {
		if (!in(c, keep, n) && cap_get_bound(c) != 0) {
			return -EPERM;
		}
	}
	if (cap_reset_ambient() < 0) {
		return negative_errno();
	}
	return 0;
}

int caps_bound_install(void)
{
	return bound_keep(install_caps, ARRAY_SIZE(install_caps));
}

int caps_clear_bound(void)
{
	return bound_keep(NULL, 0);
}

int caps_clear_proc(void)
{
	_cleanup_cap_ cap_t c = cap_init();
	if (!c) {
		return negative_errno();
	}
	if (cap_set_proc(c) < 0) {
		return negative_errno();
	}
	return 0;
}

bool caps_proc_empty(void)
{
	_cleanup_cap_ cap_t now = cap_get_proc();
	_cleanup_cap_ cap_t none = cap_init();
	if (!now || !none) {
		return false;
	}
	if (cap_compare(now, none) != 0) {
		return false;
	}
	cap_value_t max = cap_max_bits();
	for (cap_value_t c = 0; c < max; c++) {
		if (cap_get_bound(c) != 0 ||
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c, 0, 0)) {
			return false;
		}
	}
	return true;
}
