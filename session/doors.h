/* The desktop's two doors and the gate behind them. Xvnc serves RFB on a private socket
 * (xvnc.sock, 0600) that only botdesk-gate connects to; the session binds the doors viewers
 * use, rfb.sock (the controller's, 0600) and view.sock (the watchers', 0600, or 0660 and the
 * view group's), and hands them to the gate as fds 3 and 4, as it hands the X sockets to Xvnc:
 * they exist, with their modes, before anything can connect, and no name is ever unbound while
 * the desktop runs. */
#pragma once

#include "error.h"

struct run;

/* Binds the doors and starts the gate, supervised as an essential part of the desktop. Xvnc
 * must accept clients already. */
int doors_start_gate(struct run *run, struct error *err);

/* Removes what the doors and the gate left in the state directory (rfb.sock is the session's
 * teardown's own). */
void doors_remove(const struct run *run);
