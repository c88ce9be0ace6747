/* The flight recorder as the runner sees it (common/recording.h has the files): the list of a
 * profile's recordings, one recording's timeline (the agent's actions from actions.jsonl within
 * its time, and its own events: lease changes, exec starts), the note `exec` leaves, the running
 * recorder, and captions for export. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "recording.h"

struct rec_row {
	char id[RECORDING_ID_MAX + 1];
	uint64_t start_ms;    /* unix ms */
	uint64_t duration_ms; /* so far, while it records */
	uint64_t bytes;       /* of its stream */
	unsigned actions;     /* the agent's actions within it */
	unsigned width, height;
	bool recording; /* its recorder still runs */
};

enum rec_event_kind {
	REC_EV_ACTION, /* a line of actions.jsonl */
	REC_EV_LEASE,  /* take or release */
	REC_EV_EXEC,   /* a program started with botdesk exec */
	REC_EV_INPUT,  /* a human's input through the gate (at most one a second) */
};

struct rec_event {
	uint64_t t_ms; /* unix ms */
	enum rec_event_kind kind;
	char *json; /* the stored line, one JSON object (no newline) */
	char *text; /* a few words for people: "click 300 300", "take: 2FA prompt" */
};

/* The live recorder of the profile, -ENOENT when none runs. */
int recordings_running(const struct profile *p, struct rec_running *ret);

/* Every recording, oldest first (malloc'ed). */
int recordings_list(const struct profile *p, struct rec_row **ret, size_t *ret_n);
/* One recording's row; -ENOENT when there is no such id. */
int recordings_row(const struct profile *p, const char *id, struct rec_row *ret);
/* Its timeline, in time order (malloc'ed; recordings_events_free). */
int recordings_timeline(const struct profile *p, const struct rec_row *row, struct rec_event **ret,
			size_t *ret_n);
void recordings_events_free(struct rec_event *v, size_t n);

/* `botdesk exec PROGRAM` while a recording runs: a line in its events. Nothing otherwise. */
void recordings_note_exec(const struct profile *p, const char *program);

/* The timeline as SubRip captions (each shown for 2 s, or until the next), for export. */
int recordings_write_captions(FILE *f, const struct rec_row *row, const struct rec_event *v,
			      size_t n);

/* s as a JSON string's contents (no quotes) on f. */
void recordings_json_escape(FILE *f, const char *s);
