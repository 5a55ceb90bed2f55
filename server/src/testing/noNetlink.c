/*
 * The browser's netlink shim: preloaded (LD_PRELOAD) into the Chromium the browser tests
 * drive, it refuses the routing netlink socket (NETLINK_ROUTE) through which Chromium watches
 * the machine's links and addresses, so the browser takes them as never changing.
 *
 * Why: real partitions (the browser tests' own, or any other tests' beside them) add, set down
 * and remove veth links on the host. Chromium, seeing the host's links change, fails what it has in flight
 * with ERR_NETWORK_CHANGED, a failure of the test machine and not of the page. Without the
 * socket Chromium takes its documented path for a machine it cannot watch: always online.
 * Every other socket, and every other netlink family, is the system's own.
 *
 * Built by netlinkShim.ts; loaded by the browser tests (e2e/playwright.config.ts).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/netlink.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol) {
  static int (*system_socket)(int, int, int);
  if (!system_socket) system_socket = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
  if (domain == AF_NETLINK && protocol == NETLINK_ROUTE) {
    errno = EAFNOSUPPORT;
    return -1;
  }
  return system_socket(domain, type, protocol);
}
