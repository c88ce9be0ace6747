/* botdesk-gate's start: the contract between botdesk-session, which starts and supervises it
 * (session/doors.c), and botdesk-gate (gate/main.c). Both take the descriptors and the option
 * names from here.
 *
 * The session made and bound both doors (their modes and groups are its business); the gate
 * receives them listening, the controller's door (rfb.sock) on GATE_CONTROL_FD and the
 * watchers' (view.sock, or view_dir's) on GATE_VIEW_FD, and refuses to run (exit 2) when either
 * is not a listening socket. Its options, each --NAME VALUE and all required: the profile's
 * state directory (the lease it watches), Xvnc's own socket (upstream, which only the gate
 * dials) and the configured geometry (what a release restores). Its stdout and stderr are the
 * session's log pipe. */
#pragma once

#define GATE_CONTROL_FD 3
#define GATE_VIEW_FD 4

#define GATEARG_STATE "state"
#define GATEARG_UPSTREAM "upstream"
#define GATEARG_GEOMETRY "geometry"
