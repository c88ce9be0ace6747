/* `botdesk doctor`: one screen that tells an admin what this host lacks, and the fix for each. */
#pragma once

#include <stdio.h>

#include "settings.h"

/* Prints the checks to out; returns the number of problems found. */
int doctor_run(const struct settings *s, FILE *out);
