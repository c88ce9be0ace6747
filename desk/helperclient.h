/* Runs botdesk-helper for one request and collects its answer (common/proto.h is the wire). */
#pragma once

#include <stdint.h>

#include "proto.h"

/* The helper's answer to one request. */
struct helperclient_outcome {
	enum proto_outcome outcome;
	enum proto_manager manager;
	int32_t detail;
	int wait_status; /* the helper's exit, as waitpid() reports it */
};

typedef void (*helperclient_line_fn)(const char *line, void *userdata);

/* Runs the helper at path with the socket on fd 3, sends op, hands every output line to on_line
 * and fills ret from the final result (or from the exit status when none came). -EACCES or
 * -ENOENT when the helper cannot be executed. */
int helperclient_call(const char *path, enum proto_op op, helperclient_line_fn on_line,
		      void *userdata, struct helperclient_outcome *ret);
