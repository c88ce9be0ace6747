/* The launcher contract's environment (BOTDESK_*), read and validated once. Nothing else in the
 * session reads the environment: every module gets what it needs from this struct. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "launcher.h"

/* The longest path a sockaddr_un holds, terminator included. */
#define CONTRACT_SOCKET_PATH_MAX 108

struct session_config {
	const char *profile;     /* BOTDESK_PROFILE */
	unsigned display;        /* BOTDESK_DISPLAY_NUM */
	const char *socket_path; /* BOTDESK_SOCKET: the RFB unix socket */
	const char *xauth_path;  /* BOTDESK_XAUTH */
	const char *env_path;    /* BOTDESK_ENV_FILE */
	const char *config_home; /* BOTDESK_CONFIG_HOME: the profile's XDG_CONFIG_HOME */
	unsigned width, height;  /* BOTDESK_GEOMETRY */
	const char *x_lock_dir;  /* BOTDESK_X_LOCK_DIR: the X directory (common/launcher.h) */
	const char *browser;     /* BOTDESK_BROWSER, NULL when unset */
	const char *search_path; /* PATH */
	const char *pass_env;    /* BOTDESK_PASS_ENV, NULL when unset */
	bool full;               /* BOTDESK_DESKTOP_PROFILE=full: the old component set */
	/* Derived from BOTDESK_SOCKET: the profile's directory, and Xvnc's private socket. */
	char state_dir[CONTRACT_SOCKET_PATH_MAX];
	char xvnc_socket_path[CONTRACT_SOCKET_PATH_MAX];
	char view_socket_path[CONTRACT_SOCKET_PATH_MAX]; /* BOTDESK_VIEW_SOCKET, or beside */
	/* Derived from BOTDESK_X_LOCK_DIR: where the display's path socket goes. */
	char x_socket_dir[CONTRACT_SOCKET_PATH_MAX];
	gid_t view_gid;        /* BOTDESK_VIEW_GID: the group that may watch */
	bool view_group;       /* ... when set: view.sock is then 0660 and that group's */
	uint64_t idle_stop_ms; /* BOTDESK_IDLE_STOP_MS: 0 never stops an unused desktop */
	uint64_t wait_ms;      /* BOTDESK_WAIT_MS: what is left of the start's deadline; 0 unset */
	int notify_fd;         /* BOTDESK_NOTIFY_FD: the start's handshake pipe; -1 unset */
	/* BOTDESK_RECORD=always: the flight recorder's size limit (BOTDESK_RECORD_MAX_MB, in MB);
	 * 0: no recorder (common/recording.h). */
	uint64_t record_max_mb;
};

/* Reads the contract from getenv_fn (getenv, or a table in tests). With seed_only, only what
 * seeding needs is required (BOTDESK_CONFIG_HOME). */
int contract_load(const char *(*getenv_fn)(const char *name), bool seed_only,
		  struct session_config *ret, struct error *err);

/* The cache and data homes the session derives from the config home (malloc'ed). */
int contract_cache_home(const struct session_config *c, char **ret);
int contract_data_home(const struct session_config *c, char **ret);
