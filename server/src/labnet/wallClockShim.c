/*
 * The wall clock shim: preloaded (LD_PRELOAD) into one process, it moves that process's wall
 * clock, and only its wall clock, by an offset another process may change while it runs.
 *
 * The offset lives in a file named by RACELAB_CLOCK_FILE: its first 8 bytes, a signed 64-bit
 * little-endian integer, are the total offset in milliseconds (0: the host's clock; 1000: one
 * second ahead). A jump is a write of the new total there; the file is never resized.
 *
 * Moved: clock_gettime(CLOCK_REALTIME and CLOCK_REALTIME_COARSE), gettimeofday() and time().
 * Not moved: the monotonic and boot clocks, so timers and timeouts run as they did; and any
 * other process, the host's clock included.
 *
 * Built and loaded by wallClockShim.ts. libfaketime is not used for this: Debian's
 * redis-server hangs at start-up under it (docs/REAL_FAULTS.md).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MS_PER_S 1000
#define NS_PER_MS 1000000
#define NS_PER_S 1000000000

/*
 * The offset, mapped from the file (MAP_SHARED): a write to the file by any process lands in
 * the same page-cache page, so the next clock read here sees it, with no file read and no
 * system call per read. NULL until the constructor has mapped it: the clock is then the host's.
 */
static const volatile int64_t *offset_ms;

__attribute__((constructor)) static void map_offset(void) {
  const char *file = getenv("RACELAB_CLOCK_FILE");
  if (!file) return;
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  /* A shorter file would fault (SIGBUS) on the first clock read: such a file moves nothing. */
  if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(int64_t)) {
    void *p = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED) offset_ms = p;
  }
  close(fd); /* the mapping outlives the descriptor */
}

/*
 * One aligned 8-byte load per clock read. The kernel may store a write(2) of the 8 bytes in
 * pieces, so a read at that very instant may see old and new bytes mixed: from 0 (a run
 * jumps once, from the host's time), that is a value between the old offset and the new.
 */
static int64_t current_offset_ms(void) { return offset_ms ? __atomic_load_n(offset_ms, __ATOMIC_RELAXED) : 0; }

/*
 * The real clock comes from the kernel by a system call, not from libc's own clock_gettime
 * found with dlsym(RTLD_NEXT): dlsym may allocate, and an allocator that reads the clock
 * (jemalloc, in Debian's redis-server) would call back in here before that lookup is done,
 * the recursion libfaketime breaks by failing the call. The system call needs nothing set up,
 * so every read works, the first one included; it skips the vDSO's faster path, a cost of
 * well under a microsecond per read.
 */
int clock_gettime(clockid_t clock, struct timespec *ts) {
  long result = syscall(SYS_clock_gettime, clock, ts);
  if (result != 0 || (clock != CLOCK_REALTIME && clock != CLOCK_REALTIME_COARSE)) return (int)result;
  int64_t offset = current_offset_ms();
  /* Whole seconds and the rest in ns, each signed; then the ns carried into [0, 1 s). */
  int64_t ns = (int64_t)ts->tv_nsec + (offset % MS_PER_S) * NS_PER_MS;
  ts->tv_sec += offset / MS_PER_S + ns / NS_PER_S;
  ns %= NS_PER_S;
  if (ns < 0) {
    ns += NS_PER_S;
    ts->tv_sec -= 1;
  }
  ts->tv_nsec = ns;
  return 0;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz; /* the time zone argument is obsolete; glibc ignores it too */
  struct timespec ts;
  int result = clock_gettime(CLOCK_REALTIME, &ts);
  if (result == 0) { /* tv is never NULL: glibc declares it so */
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return result;
}

time_t time(time_t *t) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (t) *t = ts.tv_sec;
  return ts.tv_sec;
}
