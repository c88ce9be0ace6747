/* The screen's size as it is now, published for `botdesk status` as a small file beside the env
 * file: "WxH\n", written whole and renamed into place. A viewer may resize the desktop, and status
 * must tell without opening an X connection of its own (see docs/ARCHITECTURE.md, "Status is
 * cheap"). */
#pragma once

#define SCREENSIZE_FILE "geometry"

/* Publishes w x h in the directory of env_path. */
int screensize_publish(const char *env_path, unsigned w, unsigned h);
/* Removes the file: a size nobody keeps up to date is no size. */
void screensize_remove(const char *env_path);
