/* The installed helper's settings. It reads nothing from outside: every path and bound is a
 * constant here. The test build (tests/helper/settings-test.c) replaces this file, so the files an
 * administrator audits are exactly those the setuid binary compiles (helper/meson.build). */
#include "helper.h"
#include "settings-const.h"
#include "util.h"

int helper_settings_init(struct helper_settings *ret)
{
	*ret = (struct helper_settings){
		.apt_path = "/usr/bin/apt-get",
		.dnf_path = "/usr/bin/dnf",
		.dpkg_query_path = "/usr/bin/dpkg-query",
		.apt_cache_path = "/usr/bin/apt-cache",
		.lock_path = "/run/botdesk-helper.lock",
		.pace_dir = "/run/botdesk-helper",
		.log_path = "/var/log/botdesk-helper.log",
		.apt_lists_dir = "/var/lib/apt/lists",
		.forced_manager = -1,
	};
	helper_settings_bounds(ret);
	return 0;
}
