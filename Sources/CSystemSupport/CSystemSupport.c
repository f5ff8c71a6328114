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
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

int pagescript_tcp_listening_on_loopback(unsigned short port) {
    int descriptor = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (descriptor < 0) { return -1; }
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    message.request.sdiag_family = AF_INET;
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = 1u << 10; /* TCP_LISTEN only: the established table is not walked */
    message.request.id.idiag_sport = htons(port); /* the kernel skips other listeners */
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    if (sendto(descriptor, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        int saved = errno;
        close(descriptor);
        errno = saved;
        return -1;
    }
    int found = 0;
    long buffer[4096]; /* aligned for nlmsghdr */
    for (;;) {
        ssize_t received = recv(descriptor, buffer, sizeof buffer, 0);
        if (received < 0 && errno == EINTR) { continue; }
        if (received <= 0) {
            int saved = received < 0 ? errno : EPROTO;
            close(descriptor);
            errno = saved;
            return -1;
        }
        int remaining = (int)received;
        for (struct nlmsghdr *header = (struct nlmsghdr *)buffer; NLMSG_OK(header, remaining); header = NLMSG_NEXT(header, remaining)) {
            if (header->nlmsg_type == NLMSG_DONE) {
                close(descriptor);
                return found;
            }
            if (header->nlmsg_type == NLMSG_ERROR) {
                struct nlmsgerr *failure = (struct nlmsgerr *)NLMSG_DATA(header);
                close(descriptor);
                errno = failure->error < 0 ? -failure->error : EPROTO;
                return -1;
            }
            if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY) { continue; }
            struct inet_diag_msg *listener = (struct inet_diag_msg *)NLMSG_DATA(header);
            uint32_t address = ntohl(listener->id.idiag_src[0]);
            if (ntohs(listener->id.idiag_sport) == port && (address == INADDR_LOOPBACK || address == INADDR_ANY)) { found = 1; }
        }
    }
}
#else
int pagescript_tcp_listening_on_loopback(unsigned short port) {
    (void)port;
    errno = ENOSYS;
    return -1;
}

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
