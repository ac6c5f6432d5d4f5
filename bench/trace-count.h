/* SPDX-License-Identifier: GPL-2.0 */
/* Counting the CPU cache maintenance the DMA API does, from tracefs. */
#ifndef __DMABUF_BENCH_TRACE_COUNT_H
#define __DMABUF_BENCH_TRACE_COUNT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What the DMA API did to the CPU caches for one device: a sync for the
 * device, or a map without SKIP_CPU_SYNC, cleans; a sync for the CPU, or
 * such an unmap, invalidates, except for a TO_DEVICE mapping, where it does
 * nothing (an empty sync). @calls and @sequence: the DMA API calls of every
 * benchmark device, and a hash of them in order, each as its event, device,
 * direction, attributes and bytes, so that two kernels' sequences compare.
 */
struct maint {
	unsigned long cleans;
	unsigned long invalidates;
	unsigned long empty_syncs;
	unsigned long bytes;
	unsigned long calls;
	unsigned long long sequence;
};

const char *trace_setup(void);
bool trace_start(void);
bool trace_stop(void);
const char *trace_count(const char *device, const char *devices, size_t mapping_size,
			struct maint *m);

#endif /* __DMABUF_BENCH_TRACE_COUNT_H */
