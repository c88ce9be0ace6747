/* What the helper would do for this caller on this host: which package manager, whether the
 * caller may use it, and the exact command line. Nothing here reads what the runner sent. */
#include <stdio.h>
#include <sys/stat.h>

#include "helper.h"
#include "policy.h"
#include "util.h"

/* A package manager we run as root must be a root-owned regular executable nobody else can
 * rewrite; anything else at the fixed path is not ours to trust. */
static bool trusted_binary(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		return false;
	}
	return S_ISREG(st.st_mode) && st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 &&
	       (st.st_mode & S_IXUSR);
}

enum proto_manager decide_manager(const struct helper_settings *hs, const char **ret_path)
{
	bool apt = trusted_binary(hs->apt_path), dnf = trusted_binary(hs->dnf_path);
	if (hs->forced_manager >= 0) {
		apt = apt && hs->forced_manager == PROTO_MANAGER_APT;
		dnf = dnf && hs->forced_manager == PROTO_MANAGER_DNF;
	}
	if (apt) {
		*ret_path = hs->apt_path;
		return PROTO_MANAGER_APT;
	}
	if (dnf) {
		*ret_path = hs->dnf_path;
		return PROTO_MANAGER_DNF;
	}
	*ret_path = NULL;
	return PROTO_MANAGER_NONE;
}

int decide_permitted(uid_t ruid, gid_t rgid, gid_t helper_gid)
{
	if (ruid == 0) {
		return 0;
	}
	/* The group that owns the helper is the policy (installed root:botdesk 4750, as dbus's
	 * launch helper is): the kernel already refused exec to everybody else, and this check
	 * keeps that true when the mode was loosened. Group 0 grants nothing. */
	if (helper_gid == 0) {
		return -EPERM;
	}
	if (rgid == helper_gid) {
		return 0;
	}
	int n = getgroups(0, NULL);
	if (n < 0) {
		return negative_errno();
	}
	_cleanup_free_ gid_t *groups = calloc((size_t)n + 1, sizeof(gid_t));
	if (!groups) {
		return -ENOMEM;
	}
	n = getgroups(n, groups);
	if (n < 0) {
		return negative_errno();
	}
	for (int i = 0; i < n; i++) {
		if (groups[i] == helper_gid) {
			return 0;
		}
	}
	return -EPERM;
}

enum policy_set decide_set(enum proto_op op)
{
	if (proto_op_fonts(op)) {
		return POLICY_SET_FONTS;
	}
	return proto_op_web(op) ? POLICY_SET_WEB : POLICY_SET_DESKTOP;
}

int decide_argv(const struct helper_settings *hs, enum proto_manager m, const char *path,
		enum policy_set set, bool update, const char *argv[32], char lock_opt[64])
{
	size_t n = 0;
	argv[n++] = path;
	if (m == PROTO_MANAGER_APT) {
		/* Every option is fixed: no caller-chosen -o (a DPkg::Pre-Invoke would be root code
		 * execution). Conffile prompts take the default or keep the old file; the dpkg lock
		 * is waited for, but only so long. APT::Status-Fd gives the runner a percentage. */
		snprintf(lock_opt, 64, "DPkg::Lock::Timeout=%u", hs->dpkg_lock_timeout_s);
		static const char *const common[] = {
			"-q",
			"-o",
			NULL,
			"-o",
			"Dpkg::Options::=--force-confdef",
			"-o",
			"Dpkg::Options::=--force-confold",
			"-o",
			"APT::Status-Fd=1",
		};
		for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
			argv[n++] = common[i] ? common[i] : lock_opt;
		}
		if (update) {
			argv[n++] = "update";
		} else {
			/* --no-remove: an install that would remove a package (a conflict) stops
			 * before it changes anything. */
			argv[n++] = "-y";
			argv[n++] = "--no-install-recommends";
			argv[n++] = "--no-remove";
			argv[n++] = "install";
		}
	} else if (m == PROTO_MANAGER_DNF && !update) {
		/* Without --skip-unavailable a missing name fails the whole transaction. */
		argv[n++] = "-y";
		argv[n++] = "--setopt=install_weak_deps=False";
		argv[n++] = "install";
	} else {
		return -EINVAL;
	}
	if (!update) {
		const char *const *pkgs =
			policy_sets[set][m == PROTO_MANAGER_APT ? POLICY_APT : POLICY_DNF];
		for (size_t i = 0; pkgs[i]; i++) {
			if (n >= 31) {
				return -E2BIG;
			}
			argv[n++] = pkgs[i];
		}
	}
	argv[n] = NULL;
	return 0;
}

int decide_command_line(const char *const *argv, char *buf, size_t size)
{
	size_t used = 0;
	for (size_t i = 0; argv[i]; i++) {
		int k = snprintf(buf + used, size - used, "%s%s", i ? " " : "", argv[i]);
		if (k < 0 || (size_t)k >= size - used) {
			return -ENAMETOOLONG;
		}
		used += (size_t)k;
	}
	return 0;
}
