/* `botdesk record export`: a recording's frames, rebuilt at a fixed rate, piped into Debian's
 * ffmpeg program, which encodes them (VP8 into .webm, H.264 into .mp4). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "recording.h"

#define EXPORT_FPS 10u
/* The captions file's name (in a directory of its own); the output's path is absolute. */
#define EXPORT_CAPTIONS_NAME RECORD_CAPTIONS_NAME

struct export_opts {
	const char *state_dir; /* the profile's directory */
	const char *id;
	const char *output;    /* .webm or .mp4 */
	unsigned max_w, max_h; /* 0: the recording's size */
	const char *captions;  /* NULL, or an SRT file to burn in */
	const char *ffmpeg;    /* the program's path */
	bool progress;         /* a progress line on stderr (a terminal) */
};

int export_run(const struct export_opts *o, struct error *err);
/* The output size: w x h fitted into max (keeping the aspect), even numbers (the encoders'
 * 4:2:0 needs them). Pure. */
void export_fit(unsigned w, unsigned h, unsigned max_w, unsigned max_h, unsigned *ret_w,
		unsigned *ret_h);
