// SPDX-License-Identifier: GPL-2.0
/*
 * DMA_BUF_IOCTL_SYNC uAPI test on a buffer of every DMA-BUF heap: valid and
 * invalid flags, unpaired and nested brackets, and sync across munmap, dup(),
 * fork() and threads. Every case also checks that no data was lost.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/dma-buf.h>
#include <linux/dma-heap.h>
#include "kselftest.h"

#define DEVPATH		"/dev/dma_heap"
#define BUF_SIZE	(1024 * 1024)
#define NSLICES		4
#define SLICE_WORDS	(BUF_SIZE / sizeof(uint64_t) / NSLICES)
#define NCYCLES		1000

#define R		DMA_BUF_SYNC_READ
#define W		DMA_BUF_SYNC_WRITE
#define RW		DMA_BUF_SYNC_RW
#define START(dir)	(DMA_BUF_SYNC_START | (dir))
#define END(dir)	(DMA_BUF_SYNC_END | (dir))

static const __u64 sync_dirs[] = { R, W, RW };

struct buf {
	const char *heap;
	const char *tcase;		/* for messages */
	int fd;				/* dma-buf fd the cases use */
	int dupfd;			/* left by the "dup" case */
	uint64_t *map;			/* NULL when not mapped */
	uint64_t seed[NSLICES];		/* pattern each slice must hold */
};

struct tcase {
	const char *name;
	bool (*run)(struct buf *b, const struct tcase *tc);
	__u64 seq[4];			/* run_seq: flags, in order */
	unsigned int nseq;
	__u64 flags;			/* run_bad_flags */
	void *ptr;			/* run_bad_ptr */
	unsigned long cmd;		/* run_bad_cmd */
};

static __printf(2, 3) bool fail(struct buf *b, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksft_print_msg("%s: %s: %s\n", b->heap, b->tcase, msg);
	return false;
}

/* DMA_BUF_IOCTL_SYNC, restarted on EINTR/EAGAIN as documented: 0 or -errno. */
static int dmabuf_sync(int fd, __u64 flags)
{
	struct dma_buf_sync sync = { .flags = flags };
	int ret;

	do {
		ret = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
	} while (ret == -EINTR || ret == -EAGAIN);
	return ret;
}

static bool sync_ok(struct buf *b, int fd, __u64 flags)
{
	int ret = dmabuf_sync(fd, flags);

	if (ret)
		return fail(b, "SYNC %#llx: %s", (unsigned long long)flags, strerror(-ret));
	return true;
}

/* START then END in every direction. */
static bool sync_all_dirs(struct buf *b, int fd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sync_dirs); i++) {
		if (!sync_ok(b, fd, START(sync_dirs[i])) || !sync_ok(b, fd, END(sync_dirs[i])))
			return false;
	}
	return true;
}

/* Word @i of the pattern @seed: a hash, so that any lost write shows. */
static uint64_t pattern(uint64_t seed, size_t i)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + i;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void fill_slice(uint64_t *map, int s, uint64_t seed)
{
	size_t i, end = (s + 1) * SLICE_WORDS;

	for (i = s * SLICE_WORDS; i < end; i++)
		map[i] = pattern(seed, i);
}

/* Byte offset of the first word of slice @s not holding @seed, or -1. */
static long check_slice(const uint64_t *map, int s, uint64_t seed)
{
	size_t i, end = (s + 1) * SLICE_WORDS;

	for (i = s * SLICE_WORDS; i < end; i++) {
		if (map[i] != pattern(seed, i))
			return i * sizeof(*map);
	}
	return -1;
}

/* Write @seed to the whole buffer through @fd's brackets. */
static bool fill_all(struct buf *b, int fd, uint64_t seed)
{
	int s;

	if (!sync_ok(b, fd, START(W)))
		return false;
	for (s = 0; s < NSLICES; s++) {
		fill_slice(b->map, s, seed);
		b->seed[s] = seed;
	}
	return sync_ok(b, fd, END(W));
}

/* Check every slice under a START|READ ... END|READ bracket of @fd. */
static bool check_all(struct buf *b, int fd)
{
	bool ok = true;
	long off;
	int s;

	if (!sync_ok(b, fd, START(R)))
		return false;
	for (s = 0; s < NSLICES; s++) {
		off = check_slice(b->map, s, b->seed[s]);
		if (off >= 0)
			ok = fail(b, "data lost at offset %#lx", off);
	}
	return sync_ok(b, fd, END(R)) && ok;
}

static bool map_buf(struct buf *b)
{
	void *p = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);

	if (p == MAP_FAILED) {
		b->map = NULL;
		return fail(b, "mmap: %s", strerror(errno));
	}
	b->map = p;
	return true;
}

static bool alloc_buf(struct buf *b)
{
	struct dma_heap_allocation_data data = {
		.len = BUF_SIZE,
		.fd_flags = O_RDWR | O_CLOEXEC,
	};
	char path[PATH_MAX];
	int heap_fd, ret;

	ret = snprintf(path, sizeof(path), "%s/%s", DEVPATH, b->heap);
	if (ret < 0 || ret >= (int)sizeof(path))
		return fail(b, "heap path too long");
	heap_fd = open(path, O_RDWR | O_CLOEXEC);
	if (heap_fd < 0)
		return fail(b, "open %s: %s", path, strerror(errno));
	ret = ioctl(heap_fd, DMA_HEAP_IOCTL_ALLOC, &data) ? -errno : 0;
	close(heap_fd);
	if (ret)
		return fail(b, "DMA_HEAP_IOCTL_ALLOC of %d bytes: %s", BUF_SIZE, strerror(-ret));
	b->fd = data.fd;
	return map_buf(b);
}

/* The ioctl must fail with exactly @want. */
static bool expect_errno(struct buf *b, unsigned long cmd, void *arg, int want)
{
	int ret = ioctl(b->fd, cmd, arg);

	if (ret >= 0)
		return fail(b, "ioctl %#lx returned %d, expected %s", cmd, ret, strerror(want));
	if (errno != want)
		return fail(b, "ioctl %#lx: errno %d (%s), expected %d", cmd, errno,
			    strerror(errno), want);
	return true;
}

static bool run_bad_flags(struct buf *b, const struct tcase *tc)
{
	struct dma_buf_sync sync = { .flags = tc->flags };

	return expect_errno(b, DMA_BUF_IOCTL_SYNC, &sync, EINVAL);
}

static bool run_bad_ptr(struct buf *b, const struct tcase *tc)
{
	return expect_errno(b, DMA_BUF_IOCTL_SYNC, tc->ptr, EFAULT);
}

static bool run_bad_cmd(struct buf *b, const struct tcase *tc)
{
	/* Valid memory, in case the kernel wrongly handled the ioctl. */
	uint64_t arg[32] = { 0 };

	return expect_errno(b, tc->cmd, arg, ENOTTY);
}

/* Issue tc->seq in order: all must succeed. */
static bool run_seq(struct buf *b, const struct tcase *tc)
{
	unsigned int i;

	for (i = 0; i < tc->nseq; i++) {
		if (!sync_ok(b, b->fd, tc->seq[i]))
			return false;
	}
	return true;
}

/* The child writes through the inherited fd and mapping, the parent reads. */
static bool run_fork(struct buf *b, const struct tcase *tc __always_unused)
{
	uint64_t seed = ~b->seed[0];
	int s, status;
	pid_t pid;

	fflush(stdout);		/* or the child's exit could repeat our output */
	pid = fork();
	if (pid < 0)
		return fail(b, "fork: %s", strerror(errno));
	if (!pid) {
		if (dmabuf_sync(b->fd, START(W)))
			_exit(1);
		for (s = 0; s < NSLICES; s++)
			fill_slice(b->map, s, seed);
		_exit(dmabuf_sync(b->fd, END(W)) ? 2 : 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return fail(b, "waitpid: %s", strerror(errno));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return fail(b, "child failed, wait status %#x", status);
	for (s = 0; s < NSLICES; s++)
		b->seed[s] = seed;
	return check_all(b, b->fd);
}

struct worker {
	pthread_t thread;
	struct buf *b;
	int slice;
	uint64_t seed;			/* what the slice holds */
	char err[128];
};

static __printf(2, 3) void worker_fail(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
}

/* NCYCLES brackets in rotating directions: verify when reading, rewrite when writing. */
static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	int i, ret;
	__u64 dir;
	long off;

	for (i = 0; i < NCYCLES; i++) {
		dir = sync_dirs[(i + w->slice) % ARRAY_SIZE(sync_dirs)];
		ret = dmabuf_sync(w->b->fd, START(dir));
		if (ret) {
			worker_fail(w, "cycle %d: START %#llx: %s", i,
				    (unsigned long long)dir, strerror(-ret));
			break;
		}
		off = -1;
		if (dir & R)
			off = check_slice(w->b->map, w->slice, w->seed);
		if (off < 0 && (dir & W)) {
			w->seed = w->seed * 6364136223846793005ULL + 1442695040888963407ULL;
			fill_slice(w->b->map, w->slice, w->seed);
		}
		ret = dmabuf_sync(w->b->fd, END(dir));
		if (off >= 0) {
			worker_fail(w, "cycle %d: data lost at offset %#lx", i, off);
			break;
		}
		if (ret) {
			worker_fail(w, "cycle %d: END %#llx: %s", i,
				    (unsigned long long)dir, strerror(-ret));
			break;
		}
	}
	return NULL;
}

static bool run_threads(struct buf *b, const struct tcase *tc __always_unused)
{
	struct worker w[NSLICES];
	bool ok = true;
	int n, ret;

	for (n = 0; n < NSLICES; n++) {
		w[n] = (struct worker){ .b = b, .slice = n, .seed = b->seed[n] };
		ret = pthread_create(&w[n].thread, NULL, worker_fn, &w[n]);
		if (ret) {
			ok = fail(b, "pthread_create: %s", strerror(ret));
			break;
		}
	}
	while (n--) {
		pthread_join(w[n].thread, NULL);
		b->seed[n] = w[n].seed;
		if (w[n].err[0])
			ok = fail(b, "thread %d: %s", n, w[n].err);
	}
	return ok;
}

/* SYNC needs no mapping, and a new mapping shows what the old one wrote. */
static bool run_munmap(struct buf *b, const struct tcase *tc __always_unused)
{
	bool ok;

	if (munmap(b->map, BUF_SIZE))
		return fail(b, "munmap: %s", strerror(errno));
	b->map = NULL;
	ok = sync_all_dirs(b, b->fd);
	return map_buf(b) && check_all(b, b->fd) && ok;
}

/* A dup'ed fd syncs the same buffer: each fd sees what the other wrote. */
static bool run_dup(struct buf *b, const struct tcase *tc __always_unused)
{
	b->dupfd = dup(b->fd);
	if (b->dupfd < 0)
		return fail(b, "dup: %s", strerror(errno));
	return check_all(b, b->dupfd) && fill_all(b, b->dupfd, ~b->seed[0]) &&
	       check_all(b, b->fd);
}

/* The dup keeps the buffer alive and syncable once the original is closed. */
static bool run_close_orig(struct buf *b, const struct tcase *tc __always_unused)
{
	if (b->dupfd < 0)
		return fail(b, "no dup'ed fd");
	close(b->fd);
	b->fd = b->dupfd;
	b->dupfd = -1;
	return sync_all_dirs(b, b->fd) && check_all(b, b->fd);
}

#define SEQ(n, ...)	{ .name = n, .run = run_seq, .seq = { __VA_ARGS__ },		\
			  .nseq = ARRAY_SIZE(((__u64[]){ __VA_ARGS__ })) }
#define VALID(d, dir)	SEQ("start-end-" d, START(dir), END(dir)),			\
			SEQ("end-start-" d, END(dir), START(dir), END(dir))
#define BAD_FLAGS(n, f)	{ .name = n, .run = run_bad_flags, .flags = (f) }
#define BAD_PTR(n, p)	{ .name = n, .run = run_bad_ptr, .ptr = (void *)(p) }
#define BAD_CMD(n, c)	{ .name = n, .run = run_bad_cmd, .cmd = (c) }
#define CASE(n, fn)	{ .name = n, .run = fn }

/* Destructive cases last: they leave a new mapping, then the dup'ed fd. */
static const struct tcase cases[] = {
	VALID("read", R),
	VALID("write", W),
	VALID("rw", RW),
	SEQ("start-twice-end-once", START(RW), START(RW), END(RW)),
	SEQ("end-without-start", END(RW)),
	SEQ("interleaved-dirs", START(R), START(W), END(R), END(W)),
	BAD_FLAGS("flags-zero", 0),
	BAD_FLAGS("start-no-dir", DMA_BUF_SYNC_START),
	BAD_FLAGS("end-no-dir", DMA_BUF_SYNC_END),
	BAD_FLAGS("bit3-read", (1ULL << 3) | R),
	BAD_FLAGS("bit31-write", (1ULL << 31) | W),
	BAD_FLAGS("bit32-rw", (1ULL << 32) | RW),
	BAD_FLAGS("bit63-end-rw", (1ULL << 63) | END(RW)),
	BAD_FLAGS("mask-plus-one-rw", (DMA_BUF_SYNC_VALID_FLAGS_MASK + 1ULL) | RW),
	BAD_FLAGS("all-ones", ~0ULL),
	BAD_PTR("ptr-null", NULL),
	BAD_PTR("ptr-one", 1),
	BAD_CMD("unknown-nr-0x7f", _IOW(DMA_BUF_BASE, 0x7f, __u64)),
	BAD_CMD("sync-wrong-size", _IOW(DMA_BUF_BASE, 0, __u32)),
	BAD_CMD("dma-heap-alloc", DMA_HEAP_IOCTL_ALLOC),
	BAD_CMD("tcgets", TCGETS),
	CASE("fork-child-write", run_fork),
	CASE("threads", run_threads),
	CASE("munmap-remap", run_munmap),
	CASE("dup", run_dup),
	CASE("dup-close-original", run_close_orig),
};

static void test_heap(const char *heap, unsigned int idx)
{
	struct buf b = { .heap = heap, .tcase = "alloc", .fd = -1, .dupfd = -1 };
	bool ready = alloc_buf(&b), ok;
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		b.tcase = cases[c].name;
		if (!ready)
			ok = false;
		else if (!b.map)
			ok = fail(&b, "no mapping left");
		else if (!fill_all(&b, b.fd, idx * ARRAY_SIZE(cases) + c + 1))
			ok = false;
		else
			ok = cases[c].run(&b, &cases[c]);
		/* Failing cases too must leave the data intact. */
		if (ready && b.map)
			ok = check_all(&b, b.fd) && ok;

		if (ok)
			ksft_test_result_pass("%s: %s\n", heap, cases[c].name);
		else
			ksft_test_result_fail("%s: %s\n", heap, cases[c].name);
	}

	if (b.map)
		munmap(b.map, BUF_SIZE);
	if (b.dupfd >= 0)
		close(b.dupfd);
	if (b.fd >= 0)
		close(b.fd);
}

static int heap_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int main(void)
{
	struct dirent **heaps;
	int n, i;

	ksft_print_header();
	n = scandir(DEVPATH, &heaps, heap_filter, alphasort);
	if (n < 0 && errno == ENOENT)
		ksft_exit_skip("no %s\n", DEVPATH);
	if (n < 0)
		ksft_exit_fail_msg("scandir %s: %s\n", DEVPATH, strerror(errno));
	if (!n)
		ksft_exit_skip("no heaps in %s\n", DEVPATH);

	ksft_set_plan(n * ARRAY_SIZE(cases));
	for (i = 0; i < n; i++) {
		test_heap(heaps[i]->d_name, i);
		free(heaps[i]);
	}
	free(heaps);
	ksft_finished();
}
