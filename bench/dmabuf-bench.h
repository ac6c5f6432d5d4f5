/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * uAPI of the dma-buf benchmark's importer, /dev/dmabuf_bench, an
 * out-of-tree module (bench/module) shared with the benchmark program. For
 * the benchmark only: it is not stable.
 */
#ifndef _DMABUF_BENCH_H
#define _DMABUF_BENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Attach for the DMA-coherent faux device, not the non-coherent one. */
#define DMABUF_BENCH_COHERENT		0x1
/* Opt in to explicit device access (patched kernels only). */
#define DMABUF_BENCH_EXPLICIT		0x2

/* Attachments per open file. */
#define DMABUF_BENCH_MAX_ATTACHMENTS	8

/* Directions, the values of enum dma_data_direction. */
#define DMABUF_BENCH_BIDIRECTIONAL	0
#define DMABUF_BENCH_TO_DEVICE		1
#define DMABUF_BENCH_FROM_DEVICE	2

/**
 * struct dmabuf_bench_info - what the kernel the module was built for has
 * @explicit_access: 1 if it has explicit device access, 0 if not
 * @dma_buf: sizeof(struct dma_buf)
 * @attachment: sizeof(struct dma_buf_attachment)
 * @access: sizeof(struct dma_buf_access), embedded in struct dma_buf; 0
 *	without explicit device access
 * @attachment_access: sizeof(struct dma_buf_attachment_access), embedded
 *	in struct dma_buf_attachment; 0 without explicit device access
 */
struct dmabuf_bench_info {
	__u32 explicit_access;
	__u32 dma_buf;
	__u32 attachment;
	__u32 access;
	__u32 attachment_access;
};

/**
 * struct dmabuf_bench_attach - attach to a dma-buf, without mapping it
 * @fd: the dma-buf
 * @flags: DMABUF_BENCH_COHERENT, DMABUF_BENCH_EXPLICIT
 * @id: returns the attachment, for the other ioctls
 */
struct dmabuf_bench_attach {
	__s32 fd;
	__u32 flags;
	__u32 id;
};

/**
 * struct dmabuf_bench_access - map, or begin or end a device access
 * @id: the attachment
 * @dir: the direction of the mapping or access
 */
struct dmabuf_bench_access {
	__u32 id;
	__u32 dir;
};

/**
 * struct dmabuf_bench_transfer - hand over from one device to another on
 *	the (signalled) fence of a device job, and wait until it is done
 * @from: the attachment whose device access ends
 * @from_dir: the direction of that access
 * @to: the attachment whose device access begins
 * @to_dir: the direction of that access
 */
struct dmabuf_bench_transfer {
	__u32 from;
	__u32 from_dir;
	__u32 to;
	__u32 to_dir;
};

#define DMABUF_BENCH_BASE		'B'
#define DMABUF_BENCH_IOCTL_INFO		_IOR(DMABUF_BENCH_BASE, 0, struct dmabuf_bench_info)
#define DMABUF_BENCH_IOCTL_ATTACH	_IOWR(DMABUF_BENCH_BASE, 1, struct dmabuf_bench_attach)
#define DMABUF_BENCH_IOCTL_DETACH	_IOW(DMABUF_BENCH_BASE, 2, __u32)
#define DMABUF_BENCH_IOCTL_MAP		_IOW(DMABUF_BENCH_BASE, 3, struct dmabuf_bench_access)
#define DMABUF_BENCH_IOCTL_UNMAP	_IOW(DMABUF_BENCH_BASE, 4, __u32)
#define DMABUF_BENCH_IOCTL_BEGIN	_IOW(DMABUF_BENCH_BASE, 5, struct dmabuf_bench_access)
#define DMABUF_BENCH_IOCTL_END		_IOW(DMABUF_BENCH_BASE, 6, struct dmabuf_bench_access)
#define DMABUF_BENCH_IOCTL_TRANSFER	_IOW(DMABUF_BENCH_BASE, 7, struct dmabuf_bench_transfer)

#endif /* _DMABUF_BENCH_H */
