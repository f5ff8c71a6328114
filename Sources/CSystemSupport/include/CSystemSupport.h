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

/// pidfd_open(2): a descriptor for process `pid` (Linux 5.3 and later). Returns -1 with errno
/// set, ENOSYS where unsupported.
int pagescript_pidfd_open(int pid);

/// pidfd_getfd(2): a copy, in this process, of descriptor `fd` of the process `pidfd` refers to
/// (Linux 5.6 and later; needs ptrace access to that process). Returns -1 with errno set, ENOSYS
/// where unsupported.
int pagescript_pidfd_getfd(int pidfd, int fd);

/// Gives the pages malloc holds free back to the system (glibc's malloc_trim(0), which also
/// releases free pages in the middle of its heaps). Returns 1 when memory was released, 0
/// otherwise, and 0 where unsupported.
int pagescript_release_free_memory(void);

/// Whether a TCP socket listens on `port` of 127.0.0.1 or of every IPv4 address, asked of the
/// kernel's socket diagnostics (netlink `NETLINK_SOCK_DIAG`, listening sockets only), which answers
/// from the table of listening sockets alone, where reading `/proc/net/tcp` walks every bucket of
/// the established table (far more of the kernel's time a read). Returns 1 or 0, and
/// -1 with errno set when the kernel cannot be asked (not Linux, no sock_diag, a sandbox).
int pagescript_tcp_listening_on_loopback(unsigned short port);

#endif
