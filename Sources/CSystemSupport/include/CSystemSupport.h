#ifndef CSYSTEMSUPPORT_H
#define CSYSTEMSUPPORT_H

/// Makes this process the reaper of its orphaned descendants (Linux PR_SET_CHILD_SUBREAPER), so
/// that a helper a browser daemonises stays below PageScript and can be stopped with it.
/// Returns 0 on success, -1 with errno set, and -1 with errno ENOSYS where unsupported.
int pagescript_become_subreaper(void);

/// Adds to `actions` (a `posix_spawn_file_actions_t *`) the closing, in the child, of every
/// descriptor from `lowest` up (glibc 2.34 and later: posix_spawn_file_actions_addclosefrom_np).
/// Returns 0 on success, an error number otherwise, ENOSYS where unsupported.
int pagescript_spawn_close_from(void *actions, int lowest);

#endif
