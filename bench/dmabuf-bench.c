// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of CPU cache maintenance and DMA_BUF_IOCTL_SYNC, on the base and
 * on the patched kernel, for buffers of the system heap.
 *
 * Runs each scenario, buffer size and mode through the importer module of
 * bench/module (loaded from the program's directory), with its non-coherent
 * and coherent faux devices. Modes: "legacy", importers as today (map and
 * unmap per device job, idle importers keep their mapping, SYNC for the CPU),
 * on every kernel; "explicit", importers opted in to explicit device access
 * (mapped once, device accesses bracketed, device-to-device hand-offs on a
 * job's fence), where the kernel has it.
 *
 * Per run: one frame to warm up; COUNTED_FRAMES frames traced, counting the
 * maintenance of the non-coherent device on the DMA API events; then
 * TIMED_REPEATS times a number of frames untraced, timed, of which the
 * fastest counts (QEMU's timing only suffers from the host). The simulated
 * devices touch no data and the CPU one byte per page: the time is that of
 * the hand-offs. Results are "# bench:" lines, read by bench/results.py.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/dma-buf.h>
#include <linux/dma-heap.h>

#include "kselftest.h"
#include "dmabuf-bench.h"
#include "trace-count.h"

#define MODULE_FILE	"dmabuf-bench-importer.ko"
#define IMPORTER	"/dev/dmabuf_bench"
#define HEAP		"/dev/dma_heap/system"
#define NC_DEVICE	"dmabuf-bench-nc"
#define DEVICES		"dmabuf-bench-"	/* the importer's devices, by name */
#define PAGE		4096UL
#define KIB		1024UL

#define COUNTED_FRAMES	4
#define TIMED_REPEATS	5
#define TIMED_NS	100000000ULL	/* per repeat, about */
#define MIN_TIMED	3
#define MAX_TIMED	100000
#define BRACKETS	10	/* CPU brackets per frame with idle devices */
#define MAX_IMPORTERS	4

#define NC		0
#define COHERENT	DMABUF_BENCH_COHERENT
#define BIDI		DMABUF_BENCH_BIDIRECTIONAL
#define TO_DEV		DMABUF_BENCH_TO_DEVICE
#define FROM_DEV	DMABUF_BENCH_FROM_DEVICE

static const size_t sizes[] = {
	64 * KIB, 256 * KIB, 1024 * KIB, 4096 * KIB, 16384 * KIB, 65536 * KIB,
};

enum mode { LEGACY, EXPLICIT, MODES };
static const char * const mode_names[] = { "legacy", "explicit" };

/* One scenario at one size in one mode. */
struct run {
	const char *name;
	enum mode mode;
	size_t size;
	bool failed;
	int importer;
	int buf;
	unsigned char *map;
	unsigned char checksum;	/* of what the CPU read */
	unsigned int id[MAX_IMPORTERS];
};

struct scenario {
	const char *name;
	const char *what;
	void (*setup)(struct run *r);
	void (*frame)(struct run *r);
	/* Maintenance a frame needs at least: operations, whole buffers. */
	unsigned int min_ops;
	unsigned int min_buffers;
	bool legacy_only;	/* no importer to opt in, or a legacy one */
};

static __printf(2, 3) void fail(struct run *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksft_print_msg("%s %zu %s: %s\n", r->name, r->size, mode_names[r->mode], msg);
	r->failed = true;
}

static void do_ioctl(struct run *r, int fd, unsigned long cmd, void *arg,
		     const char *what)
{
	int ret;

	if (r->failed)
		return;
	do {
		ret = ioctl(fd, cmd, arg) ? errno : 0;
	} while (ret == EINTR || ret == EAGAIN);
	if (ret)
		fail(r, "%s: %s", what, strerror(ret));
}

/* The importer's devices */

/* An importer of @flags; explicit ones are mapped once, for good. */
static unsigned int importer(struct run *r, unsigned int flags, bool keep_mapped,
			     unsigned int map_dir)
{
	struct dmabuf_bench_attach arg = { .fd = r->buf, .flags = flags };
	struct dmabuf_bench_access map = { .dir = map_dir };

	if (r->mode == EXPLICIT)
		arg.flags |= DMABUF_BENCH_EXPLICIT;
	do_ioctl(r, r->importer, DMABUF_BENCH_IOCTL_ATTACH, &arg, "attach");
	map.id = arg.id;
	if (r->mode == EXPLICIT || keep_mapped)
		do_ioctl(r, r->importer, DMABUF_BENCH_IOCTL_MAP, &map, "map");
	return arg.id;
}

static void device_access(struct run *r, unsigned long cmd, unsigned int id,
			  unsigned int dir, const char *what)
{
	struct dmabuf_bench_access arg = { .id = id, .dir = dir };

	do_ioctl(r, r->importer, cmd, &arg, what);
}

/* A device job: legacy importers map for it, explicit ones bracket it. */
static void device_job(struct run *r, unsigned int id, unsigned int dir)
{
	if (r->mode == EXPLICIT) {
		device_access(r, DMABUF_BENCH_IOCTL_BEGIN, id, dir, "begin");
		device_access(r, DMABUF_BENCH_IOCTL_END, id, dir, "end");
		return;
	}
	device_access(r, DMABUF_BENCH_IOCTL_MAP, id, dir, "map");
	do_ioctl(r, r->importer, DMABUF_BENCH_IOCTL_UNMAP, &id, "unmap");
}

static void hand_over(struct run *r, unsigned int from, unsigned int from_dir,
		      unsigned int to, unsigned int to_dir)
{
	struct dmabuf_bench_transfer arg = {
		.from = from, .from_dir = from_dir, .to = to, .to_dir = to_dir,
	};

	do_ioctl(r, r->importer, DMABUF_BENCH_IOCTL_TRANSFER, &arg, "transfer");
}

/* The CPU */

static void cpu_sync(struct run *r, __u64 flags)
{
	struct dma_buf_sync sync = { .flags = flags };

	do_ioctl(r, r->buf, DMA_BUF_IOCTL_SYNC, &sync, "DMA_BUF_IOCTL_SYNC");
}

static void cpu_write(struct run *r)
{
	size_t i;

	cpu_sync(r, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE);
	for (i = 0; i < r->size; i += PAGE)
		r->map[i] = i / PAGE;
	cpu_sync(r, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
}

static void cpu_read(struct run *r)
{
	size_t i;

	cpu_sync(r, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ);
	for (i = 0; i < r->size; i += PAGE)
		r->checksum += r->map[i];
	cpu_sync(r, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
}

/* Scenarios: P1-P6 of the heap issue, and SYNC with nothing to do. */

static void one_nc(struct run *r)
{
	r->id[0] = importer(r, NC, false, BIDI);
}

static void p1_frame(struct run *r)
{
	cpu_write(r);
	device_job(r, r->id[0], TO_DEV);
}

static void p2_frame(struct run *r)
{
	device_job(r, r->id[0], FROM_DEV);
	cpu_read(r);
}

static void chain_setup(struct run *r, unsigned int b_flags)
{
	r->id[0] = importer(r, NC, false, BIDI);
	r->id[1] = importer(r, b_flags, false, BIDI);
	r->id[2] = importer(r, NC, false, BIDI);
}

static void p3_setup(struct run *r)
{
	chain_setup(r, NC);
}

static void p5_setup(struct run *r)
{
	chain_setup(r, COHERENT);
}

/* A writes, B reads and writes, C reads; explicit: hand-offs on fences. */
static void chain_frame(struct run *r)
{
	if (r->mode == LEGACY) {
		device_job(r, r->id[0], FROM_DEV);
		device_job(r, r->id[1], BIDI);
		device_job(r, r->id[2], TO_DEV);
		return;
	}
	device_access(r, DMABUF_BENCH_IOCTL_BEGIN, r->id[0], FROM_DEV, "begin");
	hand_over(r, r->id[0], FROM_DEV, r->id[1], BIDI);
	hand_over(r, r->id[1], BIDI, r->id[2], TO_DEV);
	device_access(r, DMABUF_BENCH_IOCTL_END, r->id[2], TO_DEV, "end");
}

static void idle_importers(struct run *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		r->id[i] = importer(r, NC, true, BIDI);
}

static void three_idle(struct run *r)
{
	idle_importers(r, 3);
}

static void p4_frame(struct run *r)
{
	unsigned int i;
	size_t p;

	for (i = 0; i < BRACKETS; i++) {
		cpu_sync(r, DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW);
		for (p = 0; p < r->size; p += PAGE)
			r->map[p] += i;
		cpu_sync(r, DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW);
	}
}

/* A legacy importer that keeps its mapping: the device reads at will. */
static void p6_setup(struct run *r)
{
	r->id[0] = importer(r, NC, true, TO_DEV);
}

static void p6_frame(struct run *r)
{
	cpu_write(r);
}

static void no_importer(struct run *r)
{
}

static void one_idle(struct run *r)
{
	idle_importers(r, 1);
}

static void four_idle(struct run *r)
{
	idle_importers(r, 4);
}

static void sync_frame(struct run *r)
{
	cpu_sync(r, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ);
	cpu_sync(r, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
}

#define SCENARIO(_name, _what, _setup, _frame, _ops, _buffers, _legacy_only) \
	{ .name = _name, .what = _what, .setup = _setup, .frame = _frame, \
	  .min_ops = _ops, .min_buffers = _buffers, .legacy_only = _legacy_only }

static const struct scenario scenarios[] = {
	SCENARIO("p1-upload", "CPU writes, nc device reads",
		 one_nc, p1_frame, 1, 1, false),
	SCENARIO("p2-readback", "nc device writes, CPU reads",
		 one_nc, p2_frame, 1, 1, false),
	SCENARIO("p3-device-chain", "nc A writes, nc B reads and writes, nc C reads",
		 p3_setup, chain_frame, 0, 0, false),
	SCENARIO("p4-idle-devices", "10 CPU RW brackets, 3 idle mapped nc devices",
		 three_idle, p4_frame, 0, 0, false),
	SCENARIO("p5-coherent-in-chain", "P3 with a coherent B",
		 p5_setup, chain_frame, 2, 2, false),
	SCENARIO("p6-legacy-upload", "P1, the nc device keeps a legacy mapping",
		 p6_setup, p6_frame, 1, 1, true),
	SCENARIO("sync-0", "SYNC START/END READ round trip, no attachment",
		 no_importer, sync_frame, 0, 0, true),
	SCENARIO("sync-1", "the same, 1 idle mapped nc device",
		 one_idle, sync_frame, 0, 0, false),
	SCENARIO("sync-4", "the same, 4 idle mapped nc devices",
		 four_idle, sync_frame, 0, 0, false),
};

/* Running them */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void frames(struct run *r, const struct scenario *s, unsigned int n)
{
	while (n-- && !r->failed)
		s->frame(r);
}

static unsigned long long timed_frames(struct run *r, const struct scenario *s,
				       unsigned int n)
{
	unsigned long long start = now_ns();

	frames(r, s, n);
	return now_ns() - start;
}

static int compare_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

static void alloc_buffer(struct run *r)
{
	struct dma_heap_allocation_data data = {
		.len = r->size, .fd_flags = O_RDWR | O_CLOEXEC,
	};
	int heap = open(HEAP, O_RDONLY | O_CLOEXEC);
	void *map;

	if (heap < 0) {
		fail(r, "open " HEAP ": %s", strerror(errno));
		return;
	}
	do_ioctl(r, heap, DMA_HEAP_IOCTL_ALLOC, &data, "allocating");
	close(heap);
	if (r->failed)
		return;
	r->buf = data.fd;
	map = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, r->buf, 0);
	if (map == MAP_FAILED)
		fail(r, "mmap: %s", strerror(errno));
	else
		r->map = map;
}

/* One "# bench:" line, for bench/results.py. */
static void print_result(const char *kernel, const struct run *r,
			 const struct maint *m, unsigned int timed, double ns)
{
	printf("# bench: kernel=%s mode=%s scenario=%s size=%zu frames=%u",
	       kernel, mode_names[r->mode], r->name, r->size, COUNTED_FRAMES);
	printf(" cleans=%lu invalidates=%lu empty_syncs=%lu bytes=%lu",
	       m->cleans, m->invalidates, m->empty_syncs, m->bytes);
	printf(" calls=%lu sequence=%016llx", m->calls, m->sequence);
	printf(" timed_frames=%u ns_per_frame=%.0f\n", timed, ns);
}

static void run_scenario(const char *kernel, const struct scenario *s,
			 enum mode mode, size_t size)
{
	struct run r = {
		.name = s->name, .mode = mode, .size = size, .importer = -1, .buf = -1,
	};
	unsigned long long ns[TIMED_REPEATS], one;
	const char *error;
	struct maint m;
	unsigned int n, i;

	alloc_buffer(&r);
	r.importer = open(IMPORTER, O_RDWR | O_CLOEXEC);
	if (r.importer < 0)
		fail(&r, "open " IMPORTER ": %s", strerror(errno));
	s->setup(&r);
	frames(&r, s, 1);

	if (!r.failed && !trace_start())
		fail(&r, "cannot start tracing");
	frames(&r, s, COUNTED_FRAMES);
	if (!trace_stop())
		fail(&r, "cannot stop tracing");
	error = r.failed ? NULL : trace_count(NC_DEVICE, DEVICES, size, &m);
	if (error)
		fail(&r, "%s", error);

	one = timed_frames(&r, s, 1);
	n = one ? TIMED_NS / one : MAX_TIMED;
	n = n < MIN_TIMED ? MIN_TIMED : n > MAX_TIMED ? MAX_TIMED : n;
	for (i = 0; i < TIMED_REPEATS; i++)
		ns[i] = timed_frames(&r, s, n);
	qsort(ns, TIMED_REPEATS, sizeof(ns[0]), compare_ull);

	if (!r.failed)
		print_result(kernel, &r, &m, n, (double)ns[0] / n);
	if (r.importer >= 0)
		close(r.importer);
	if (r.map)
		munmap(r.map, size);
	if (r.buf >= 0)
		close(r.buf);
	ksft_test_result(!r.failed, "%s %zu KiB %s\n", s->name, size / KIB, mode_names[mode]);
}

/* Load the importer from the program's directory; the reason why not, or NULL. */
static const char *load_importer(void)
{
	int fd = open(MODULE_FILE, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return "no " MODULE_FILE " in the current directory";
	ret = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	if (ret && ret != EEXIST)
		return "cannot load " MODULE_FILE " (needs CONFIG_MODULES)";
	return NULL;
}

static const char *kernel_info(struct dmabuf_bench_info *info)
{
	int fd = open(IMPORTER, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return "cannot open " IMPORTER;
	ret = ioctl(fd, DMABUF_BENCH_IOCTL_INFO, info);
	close(fd);
	return ret ? "DMABUF_BENCH_IOCTL_INFO failed" : NULL;
}

/*
 * The kernel, as its dma-buf core maintains buffers: "base" without explicit
 * access; "baseline" with the DMA API as it is, before the series' optional
 * layer, which adds the sync_by_phys parameter; with it, "portable" when it
 * is off, each mapping maintained as the DMA API pairs syncs, and "patched"
 * otherwise.
 */
static const char *kernel_name(const struct dmabuf_bench_info *info)
{
	FILE *f = fopen("/sys/module/dma_buf_access/parameters/sync_by_phys", "r");
	int c;

	if (!info->explicit_access)
		return "base";
	if (!f)
		return "baseline";
	c = fgetc(f);
	fclose(f);
	return c == 'N' ? "portable" : "patched";
}

int main(void)
{
	struct dmabuf_bench_info info;
	unsigned int s, z, mode, modes;
	const char *reason, *kernel;

	ksft_print_header();
	reason = load_importer();
	if (!reason)
		reason = kernel_info(&info);
	if (!reason && access(HEAP, R_OK))
		reason = "no " HEAP;
	if (!reason)
		reason = trace_setup();
	if (reason)
		ksft_exit_fail_msg("%s\n", reason);

	kernel = kernel_name(&info);
	modes = info.explicit_access ? MODES : 1;
	printf("# sizeof: kernel=%s dma_buf=%u dma_buf_attachment=%u", kernel,
	       info.dma_buf, info.attachment);
	printf(" dma_buf_access=%u dma_buf_attachment_access=%u\n", info.access,
	       info.attachment_access);
	for (s = 0; s < ARRAY_SIZE(scenarios); s++)
		ksft_print_msg("scenario: name=%s min_ops=%u min_buffers=%u what=%s\n",
			       scenarios[s].name, scenarios[s].min_ops,
			       scenarios[s].min_buffers, scenarios[s].what);

	for (s = 0, z = 0; s < ARRAY_SIZE(scenarios); s++)
		z += scenarios[s].legacy_only ? 1 : modes;
	ksft_set_plan(z * ARRAY_SIZE(sizes));
	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		for (s = 0; s < ARRAY_SIZE(scenarios); s++) {
			for (mode = 0; mode < (scenarios[s].legacy_only ? 1 : modes); mode++)
				run_scenario(kernel, &scenarios[s], mode, sizes[z]);
		}
	}
	ksft_finished();
}
