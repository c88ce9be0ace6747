/* The flight recorder for `record = always` (recstart.c). */
#pragma once

struct run;

/* Starts botdesk-record when the contract asks for it; 0 when it did or was not asked. */
int recstart_spawn(struct run *run);
