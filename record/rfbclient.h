/* The recorder's side of an RFB connection to the view door: the handshake (3.8, security None,
 * shared), the pixel format and encodings it asks for, and its update requests. The door is the
 * gate's view socket, which never passes input, so nothing here can touch the desktop. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Connects to path and runs the handshake, each read bounded by timeout_ms. Returns the
 * connected socket (O_CLOEXEC, blocking) and the screen's size. */
int rfbclient_open(const char *path, uint64_t timeout_ms, unsigned *ret_w, unsigned *ret_h);
/* FramebufferUpdateRequest for the whole w x h screen. */
int rfbclient_request(int fd, unsigned w, unsigned h, bool incremental);
