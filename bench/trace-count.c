// SPDX-License-Identifier: GPL-2.0
/*
 * Counting the CPU cache maintenance the DMA API does for one device, from
 * its dma_map_sg, dma_unmap_sg and dma_sync_sg_for_{device,cpu} trace events.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "trace-count.h"

#define TRACEFS		"/sys/kernel/tracing"
#define BUFFER_KB	"4096"

static const char * const trace_events[] = {
	"dma/dma_sync_sg_for_device",
	"dma/dma_sync_sg_for_cpu",
	"dma/dma_map_sg",
	"dma/dma_unmap_sg",
};

static bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok;
}

/* Turn the events on, tracing off; the reason why not, or NULL. */
const char *trace_setup(void)
{
	char path[256];
	size_t i;

	if (access(TRACEFS "/trace", W_OK))
		return "no tracefs at " TRACEFS;
	if (!write_file(TRACEFS "/tracing_on", "0") ||
	    !write_file(TRACEFS "/buffer_size_kb", BUFFER_KB))
		return "cannot set up the trace buffer";
	for (i = 0; i < ARRAY_SIZE(trace_events); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/%s/enable", trace_events[i]);
		if (!write_file(path, "1"))
			return "cannot enable the DMA API trace events";
	}
	return NULL;
}

/* Forget what was traced, and trace from now on. */
bool trace_start(void)
{
	return write_file(TRACEFS "/trace", "") && write_file(TRACEFS "/tracing_on", "1");
}

bool trace_stop(void)
{
	return write_file(TRACEFS "/tracing_on", "0");
}

/* The sum of the array "sizes={0x1000,0x2000}" of an event, or 0. */
static unsigned long sum_sizes(const char *args)
{
	const char *p = strstr(args, "sizes={");
	unsigned long sum = 0;
	char *end;

	if (!p)
		return 0;
	for (p += strlen("sizes={"); *p && *p != '}'; p = end + (*end == ',')) {
		sum += strtoul(p, &end, 0);
		if (end == p)
			break;
	}
	return sum;
}

/*
 * A map or unmap covers the whole mapping; dma_unmap_sg prints no sizes, and
 * dma_map_sg only the first 128 segments.
 */
static unsigned long event_bytes(const char *args, size_t mapping_size)
{
	unsigned long sizes = sum_sizes(args);

	return sizes && !strstr(args, "[TRUNCATED]") ? sizes : mapping_size;
}

/* The value of " @key=value" in @args, up to the next space, in @buf. */
static const char *arg(const char *args, const char *key, char *buf, size_t len)
{
	const char *p = strstr(args, key);
	size_t n = 0;

	if (p) {
		p += strlen(key);
		n = strcspn(p, " \n");
		if (n >= len)
			n = len - 1;
		memcpy(buf, p, n);
	}
	buf[n] = '\0';
	return buf;
}

/* FNV-1a, 64 bits: a sequence's hash, extended by one more call. */
static unsigned long long fnv1a(unsigned long long hash, const char *s)
{
	if (!hash)
		hash = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		hash = (hash ^ (unsigned char)*s) * 0x100000001b3ULL;
	return hash;
}

/*
 * Add a DMA API call of benchmark device @device to the sequence in *m,
 * without what differs between boots: addresses.
 */
static void sequence_event(struct maint *m, const char *event, const char *device,
			   const char *args, size_t mapping_size)
{
	char dir[256], attrs[256], call[1024];

	snprintf(call, sizeof(call), "%s %s dir=%s attrs=%s bytes=%lu;", event, device,
		 arg(args, " dir=", dir, sizeof(dir)),
		 arg(args, " attrs=", attrs, sizeof(attrs)),
		 event_bytes(args, mapping_size));
	m->sequence = fnv1a(m->sequence, call);
	m->calls++;
}

static void count_event(struct maint *m, const char *event, const char *args,
			size_t mapping_size)
{
	bool to_device = strstr(args, " dir=TO_DEVICE ");
	bool skip_sync = strstr(args, "SKIP_CPU_SYNC");

	if (!strcmp(event, "dma_sync_sg_for_device") ||
	    (!strcmp(event, "dma_map_sg") && !skip_sync)) {
		m->cleans++;
		m->bytes += event_bytes(args, mapping_size);
	} else if (!strcmp(event, "dma_sync_sg_for_cpu") && to_device) {
		m->empty_syncs++;
	} else if (!strcmp(event, "dma_sync_sg_for_cpu") ||
		   (!strcmp(event, "dma_unmap_sg") && !skip_sync && !to_device)) {
		m->invalidates++;
		m->bytes += event_bytes(args, mapping_size);
	}
}

/*
 * Count in *m what was traced for @device since trace_start(), and the
 * sequence of calls of every device whose name starts with @devices; the
 * buffer they map is @mapping_size bytes. Returns NULL, or why the count is
 * wrong: the trace cannot be read, or it lost events.
 */
const char *trace_count(const char *device, const char *devices, size_t mapping_size,
			struct maint *m)
{
	unsigned long in_buffer, written;
	bool header = false;
	size_t len = strlen(device);
	static char line[65536];
	char event[64], name[64];
	const char *p;
	FILE *f;

	memset(m, 0, sizeof(*m));
	f = fopen(TRACEFS "/trace", "re");
	if (!f)
		return "cannot read " TRACEFS "/trace";
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
				   &in_buffer, &written) == 2)
				header = true;
			continue;
		}
		/* "task-pid [cpu] flags timestamp: event: device args" */
		p = strchr(line, ']');
		p = p ? strstr(p, ": ") : NULL;
		if (!p || sscanf(p + 2, "%63[^:]", event) != 1)
			continue;
		p += 2 + strlen(event) + 2;
		if (!strncmp(p, device, len) && p[len] == ' ')
			count_event(m, event, p + len, mapping_size);
		if (!strncmp(p, devices, strlen(devices)) && sscanf(p, "%63s", name) == 1)
			sequence_event(m, event, name, p + strlen(name), mapping_size);
	}
	fclose(f);
	if (!header)
		return "no entries-in-buffer/entries-written line in the trace";
	return in_buffer == written ? NULL : "the trace buffer lost events";
}
