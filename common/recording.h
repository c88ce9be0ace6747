/* The flight recorder's files: the one contract between botdesk-record (which writes them), the
 * runner (`botdesk record list|show|stop`, the exec note) and the session (which starts the
 * recorder for `record = always`). Everything lives in the profile's private directory:
 *
 *     recorder             "<pid> <starttime> <id>\n" while a recorder runs (write-then-rename)
 *     recorder.lock        flock'ed by the running recorder: one per desktop
 *     recordings/          0700
 *       <id>.rfb           0600: the header below, then records of whole RFB server messages
 *       <id>.meta          0600, write-then-rename: start_ms, end_ms (0 while recording),
 *                          width, height (the screen when the recording began)
 *       <id>.events        0600, appended: one JSON line per lease change or exec start
 *
 * The stream holds only FramebufferUpdate messages, in the pixel format below (what the recorder
 * asks Xvnc for), so a reader needs no negotiation. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORDER_FILE "recorder"
#define RECORDER_LOCK "recorder.lock"
#define RECORDINGS_DIR "recordings"
/* export's captions: this name, in a directory of its own (ffmpeg reads it from there). */
#define RECORD_CAPTIONS_NAME "captions.srt"

/* An id is the UTC second the recording began, "YYYYMMDD-HHMMSS", and "-N" when a second
 * recording began in the same second. */
#define RECORDING_ID_MAX 32

/* The environment the session hands its recorder for `record = always` (common/launcher.h's
 * style): the setting's value and its size limit. */
#define LAUNCHER_ENV_RECORD "BOTDESK_RECORD"
#define LAUNCHER_ENV_RECORD_MAX_MB "BOTDESK_RECORD_MAX_MB"
#define RECORD_MAX_MB_DEFAULT 1024
#define RECORD_MAX_MB_LIMIT (1024 * 1024)

/* The .rfb file: REC_HEADER_SIZE bytes of header, then records of REC_RECORD_HEAD bytes
 * (big-endian u32 ms since start, u32 length) and the message. */
#define REC_MAGIC "BDREC001"
#define REC_HEADER_SIZE 24 /* magic 8, u64 start unix ms, u16 width, u16 height, u32 zero */
#define REC_RECORD_HEAD 8
/* The largest message stored or read: a full 8192x8192 Raw update and its headers. */
#define REC_MESSAGE_MAX (264u * 1024 * 1024)

/* The pixel format asked of Xvnc: 32 bits, depth 24, little-endian true colour, red at bit 16,
 * green at 8, blue at 0 (in memory B, G, R, X: ffmpeg's "bgr0"). */
/* The largest screen a recording may describe (the desktop's own bound). */
#define REC_SIZE_MAX 8192
#define REC_BPP 32
#define REC_DEPTH 24

struct rec_header {
	uint64_t start_ms; /* unix ms */
	unsigned width, height;
};

void rec_header_encode(const struct rec_header *h, uint8_t out[REC_HEADER_SIZE]);
/* -EINVAL for another magic or a size outside the desktop's bounds. */
int rec_header_decode(const uint8_t in[REC_HEADER_SIZE], struct rec_header *ret);

struct rec_meta {
	uint64_t start_ms,
		end_ms; /* unix ms; end 0 while the recorder runs (or if it was killed) */
	unsigned width, height;
};

/* The text of a .meta file, and back (-EINVAL for anything but exactly its keys). */
int rec_meta_format(const struct rec_meta *m, char *buf, size_t size);
int rec_meta_parse(const char *text, struct rec_meta *ret);
/* <id>.meta under the recordings directory's fd. */
int rec_meta_read_at(int dirfd, const char *id, struct rec_meta *ret);
int rec_meta_write_at(int dirfd, const char *id, const struct rec_meta *m);

/* An id as the recorder makes them: digits, one '-' after the date, an optional "-N". Anything
 * else (a path, "..") is refused before it names a file. */
bool rec_id_valid(const char *id);
/* "<id>.<ext>" into buf; -ENAMETOOLONG when it does not fit. */
int rec_file_name(const char *id, const char *ext, char *buf, size_t size);

/* The recordings in the recordings directory dirfd that have a file "<id>.<ext>" ("meta",
 * "rfb"), in name order, which is the order they began; one malloc'ed array of *ret_n. */
struct rec_id {
	char s[RECORDING_ID_MAX + 1];
};
int rec_list_ids(int dirfd, const char *ext, struct rec_id **ret, size_t *ret_n);

/* The running recorder's file. */
struct rec_running {
	int pid;
	uint64_t starttime;
	char id[RECORDING_ID_MAX + 1];
};
int rec_running_parse(const char *text, struct rec_running *ret);
int rec_running_read_at(int profile_dirfd, struct rec_running *ret);

/* Appends one line (ending in '\n') to <id>.events under the recordings directory's fd, in one
 * write (O_APPEND: the runner and the recorder may both append). */
int rec_events_append_at(int dirfd, const char *id, const char *line);
