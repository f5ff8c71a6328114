#define _GNU_SOURCE
#include "CSystemSupport.h"
#include <errno.h>

#if defined(__GLIBC__)
#include <malloc.h>

int pagescript_release_free_memory(void) {
    return malloc_trim(0);
}
#else
int pagescript_release_free_memory(void) {
    return 0;
}
#endif

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int pagescript_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

int pagescript_pidfd_open(int pid) {
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int pagescript_pidfd_getfd(int pidfd, int fd) {
#if defined(SYS_pidfd_getfd)
    return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
#else
int pagescript_become_subreaper(void) {
    errno = ENOSYS;
    return -1;
}

int pagescript_pidfd_open(int pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}

int pagescript_pidfd_getfd(int pidfd, int fd) {
    (void)pidfd;
    (void)fd;
    errno = ENOSYS;
    return -1;
}
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#include <spawn.h>

int pagescript_spawn_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}
#else
int pagescript_spawn_close_from(void *actions, int lowest) {
    (void)actions;
    (void)lowest;
    return ENOSYS;
}
#endif
