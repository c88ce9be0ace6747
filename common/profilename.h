/* A profile's name, as every program that receives one checks it (the runner from --profile or
 * BOTDESK_PROFILE, botdesk-mcp from its argv, botdesk-act from the runner's hand-over, the
 * session from its environment): one rule, so a name is never a path and never an option. */
#pragma once

#include <stdbool.h>

#define PROFILE_NAME_MAX 64
/* The rule, for messages: "... is not a valid profile name: use " PROFILE_NAME_RULE. */
#define PROFILE_NAME_RULE "1-64 characters of A-Z a-z 0-9 . _ - not starting with '.'"

/* 1-64 characters of [A-Za-z0-9._-], not starting with '.'. */
bool profile_name_valid(const char *name);
