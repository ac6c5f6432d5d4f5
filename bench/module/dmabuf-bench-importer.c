// SPDX-License-Identifier: GPL-2.0-only
/*
 * The importer of the dma-buf benchmark (bench/dmabuf-bench.c): an
 * out-of-tree module, built against the unpatched base and against the
 * ownership series alike.
 *
 * It attaches dma-bufs for two faux devices, one DMA-coherent and one not,
 * and maps and unmaps them as importers do today. Where the kernel has
 * explicit device access (<linux/dma-buf-access.h>), it also opts
 * attachments in, brackets device accesses and hands the buffer over from
 * one device to the next on a job's fence. The devices touch no data: the
 * benchmark measures what the hand-offs cost.
 */

#include <linux/device/faux.h>
#include <linux/dma-buf.h>
#include <linux/dma-fence.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "../dmabuf-bench.h"

#ifdef DMABUF_BENCH_EXPLICIT_ACCESS	/* set by Kbuild */
#include <linux/dma-buf-access.h>

static void bench_info_access(struct dmabuf_bench_info *info)
{
	info->explicit_access = 1;
	info->access = sizeof(struct dma_buf_access);
	info->attachment_access = sizeof(struct dma_buf_attachment_access);
}

static int bench_set_explicit_access(struct dma_buf_attachment *attach)
{
	return dma_buf_set_explicit_access(attach);
}

static int bench_begin_device_access(struct dma_buf_attachment *attach,
				     enum dma_data_direction dir)
{
	return dma_buf_begin_device_access(attach, dir);
}

static int bench_end_device_access(struct dma_buf_attachment *attach,
				   enum dma_data_direction dir)
{
	return dma_buf_end_device_access(attach, dir);
}

/* Hand over on the fence of a job that is done, and wait for the hand-off. */
static int bench_transfer_access(struct dma_buf_attachment *from,
				 enum dma_data_direction from_dir,
				 struct dma_buf_attachment *to,
				 enum dma_data_direction to_dir)
{
	struct dma_fence *job, *done;
	long ret;

	job = dma_fence_allocate_private_stub(ktime_get());
	if (!job)
		return -ENOMEM;
	done = dma_buf_transfer_access(from, from_dir, to, to_dir, job);
	dma_fence_put(job);
	if (IS_ERR(done))
		return PTR_ERR(done);
	ret = dma_fence_wait(done, false);
	dma_fence_put(done);
	return ret;
}

#else /* the base kernel: no explicit device access */

static void bench_info_access(struct dmabuf_bench_info *info)
{
}

static int bench_set_explicit_access(struct dma_buf_attachment *attach)
{
	return -EOPNOTSUPP;
}

static int bench_begin_device_access(struct dma_buf_attachment *attach,
				     enum dma_data_direction dir)
{
	return -EOPNOTSUPP;
}

static int bench_end_device_access(struct dma_buf_attachment *attach,
				   enum dma_data_direction dir)
{
	return -EOPNOTSUPP;
}

static int bench_transfer_access(struct dma_buf_attachment *from,
				 enum dma_data_direction from_dir,
				 struct dma_buf_attachment *to,
				 enum dma_data_direction to_dir)
{
	return -EOPNOTSUPP;
}

#endif

struct bench_device {
	const char *name;
	bool coherent;
	struct faux_device *fdev;	/* NULL if this system cannot have it */
	struct device_dma_parameters dma_parms;
};

static struct bench_device bench_devices[] = {
	{ .name = "dmabuf-bench-nc" },
	{ .name = "dmabuf-bench-coherent", .coherent = true },
};

struct bench_attachment {
	struct dma_buf_attachment *attach;	/* NULL if the slot is free */
	struct sg_table *sgt;			/* NULL if not mapped */
	enum dma_data_direction map_dir;
	bool active;				/* an explicit access is open */
	enum dma_data_direction dir;		/* of that access */
};

/* One open file: the attachments of one scenario. */
struct bench_file {
	struct mutex lock;	/* serializes the ioctls */
	struct bench_attachment att[DMABUF_BENCH_MAX_ATTACHMENTS];
};

static struct bench_attachment *bench_attachment(struct bench_file *bf, u32 id)
{
	if (id >= DMABUF_BENCH_MAX_ATTACHMENTS || !bf->att[id].attach)
		return NULL;
	return &bf->att[id];
}

static void bench_unmap(struct bench_attachment *ba)
{
	dma_buf_unmap_attachment_unlocked(ba->attach, ba->sgt, ba->map_dir);
	ba->sgt = NULL;
}

static void bench_detach(struct bench_attachment *ba)
{
	struct dma_buf *dmabuf = ba->attach->dmabuf;

	if (ba->active)
		bench_end_device_access(ba->attach, ba->dir);
	if (ba->sgt)
		bench_unmap(ba);
	dma_buf_detach(dmabuf, ba->attach);
	dma_buf_put(dmabuf);
	ba->attach = NULL;
	ba->active = false;
}

static int bench_info(void __user *uarg)
{
	struct dmabuf_bench_info info = {
		.dma_buf = sizeof(struct dma_buf),
		.attachment = sizeof(struct dma_buf_attachment),
	};

	bench_info_access(&info);
	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static int bench_attach(struct bench_file *bf,
			struct dmabuf_bench_attach __user *uarg)
{
	struct dmabuf_bench_attach arg;
	struct bench_attachment *ba;
	struct bench_device *bdev;
	struct dma_buf *dmabuf;
	int ret;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags & ~(DMABUF_BENCH_COHERENT | DMABUF_BENCH_EXPLICIT))
		return -EINVAL;
	bdev = &bench_devices[!!(arg.flags & DMABUF_BENCH_COHERENT)];
	if (!bdev->fdev)
		return -ENODEV;
	for (arg.id = 0; arg.id < DMABUF_BENCH_MAX_ATTACHMENTS; arg.id++) {
		if (!bf->att[arg.id].attach)
			break;
	}
	if (arg.id == DMABUF_BENCH_MAX_ATTACHMENTS)
		return -ENOSPC;
	ba = &bf->att[arg.id];

	dmabuf = dma_buf_get(arg.fd);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);
	ba->attach = dma_buf_attach(dmabuf, &bdev->fdev->dev);
	if (IS_ERR(ba->attach)) {
		ret = PTR_ERR(ba->attach);
		goto err_put;
	}
	if (arg.flags & DMABUF_BENCH_EXPLICIT) {
		ret = bench_set_explicit_access(ba->attach);
		if (ret)
			goto err_detach;
	}
	if (put_user(arg.id, &uarg->id)) {
		ret = -EFAULT;
		goto err_detach;
	}
	return 0;

err_detach:
	dma_buf_detach(dmabuf, ba->attach);
err_put:
	ba->attach = NULL;
	dma_buf_put(dmabuf);
	return ret;
}

static int bench_map(struct bench_file *bf, struct dmabuf_bench_access *arg)
{
	struct bench_attachment *ba = bench_attachment(bf, arg->id);
	struct sg_table *sgt;

	if (!ba || !valid_dma_direction(arg->dir))
		return -EINVAL;
	if (ba->sgt)
		return -EBUSY;
	sgt = dma_buf_map_attachment_unlocked(ba->attach, arg->dir);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	ba->sgt = sgt;
	ba->map_dir = arg->dir;
	return 0;
}

static int bench_access(struct bench_file *bf, unsigned int cmd,
			struct dmabuf_bench_access *arg)
{
	struct bench_attachment *ba = bench_attachment(bf, arg->id);
	int ret;

	if (!ba)
		return -EINVAL;
	if (cmd == DMABUF_BENCH_IOCTL_BEGIN) {
		ret = bench_begin_device_access(ba->attach, arg->dir);
		if (!ret) {
			ba->active = true;
			ba->dir = arg->dir;
		}
	} else {
		ret = bench_end_device_access(ba->attach, arg->dir);
		if (!ret)
			ba->active = false;
	}
	return ret;
}

static int bench_transfer(struct bench_file *bf,
			  const struct dmabuf_bench_transfer *arg)
{
	struct bench_attachment *from = bench_attachment(bf, arg->from);
	struct bench_attachment *to = bench_attachment(bf, arg->to);
	int ret;

	if (!from || !to)
		return -EINVAL;
	ret = bench_transfer_access(from->attach, arg->from_dir,
				    to->attach, arg->to_dir);
	if (!ret) {
		from->active = false;
		to->active = true;
		to->dir = arg->to_dir;
	}
	return ret;
}

/* The ioctls that take an attachment id and nothing else. */
static int bench_by_id(struct bench_file *bf, unsigned int cmd, u32 __user *uarg)
{
	struct bench_attachment *ba;
	u32 id;

	if (get_user(id, uarg))
		return -EFAULT;
	ba = bench_attachment(bf, id);
	if (!ba)
		return -EINVAL;
	if (cmd == DMABUF_BENCH_IOCTL_DETACH) {
		bench_detach(ba);
		return 0;
	}
	if (!ba->sgt)
		return -EINVAL;
	bench_unmap(ba);
	return 0;
}

static long bench_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct bench_file *bf = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct dmabuf_bench_transfer transfer;
	struct dmabuf_bench_access access;
	long ret;

	switch (cmd) {
	case DMABUF_BENCH_IOCTL_MAP:
	case DMABUF_BENCH_IOCTL_BEGIN:
	case DMABUF_BENCH_IOCTL_END:
		if (copy_from_user(&access, uarg, sizeof(access)))
			return -EFAULT;
		break;
	case DMABUF_BENCH_IOCTL_TRANSFER:
		if (copy_from_user(&transfer, uarg, sizeof(transfer)))
			return -EFAULT;
		break;
	}

	mutex_lock(&bf->lock);
	switch (cmd) {
	case DMABUF_BENCH_IOCTL_INFO:
		ret = bench_info(uarg);
		break;
	case DMABUF_BENCH_IOCTL_ATTACH:
		ret = bench_attach(bf, uarg);
		break;
	case DMABUF_BENCH_IOCTL_DETACH:
	case DMABUF_BENCH_IOCTL_UNMAP:
		ret = bench_by_id(bf, cmd, uarg);
		break;
	case DMABUF_BENCH_IOCTL_MAP:
		ret = bench_map(bf, &access);
		break;
	case DMABUF_BENCH_IOCTL_BEGIN:
	case DMABUF_BENCH_IOCTL_END:
		ret = bench_access(bf, cmd, &access);
		break;
	case DMABUF_BENCH_IOCTL_TRANSFER:
		ret = bench_transfer(bf, &transfer);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&bf->lock);
	return ret;
}

static int bench_open(struct inode *inode, struct file *file)
{
	struct bench_file *bf = kzalloc(sizeof(*bf), GFP_KERNEL);

	if (!bf)
		return -ENOMEM;
	mutex_init(&bf->lock);
	file->private_data = bf;
	return 0;
}

static int bench_release(struct inode *inode, struct file *file)
{
	struct bench_file *bf = file->private_data;
	unsigned int i;

	for (i = 0; i < DMABUF_BENCH_MAX_ATTACHMENTS; i++) {
		if (bf->att[i].attach)
			bench_detach(&bf->att[i]);
	}
	mutex_destroy(&bf->lock);
	kfree(bf);
	return 0;
}

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
	.open = bench_open,
	.release = bench_release,
	.unlocked_ioctl = bench_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice bench_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "dmabuf_bench",
	.fops = &bench_fops,
};

/* A faux device that can reach all memory, in segments of any size. */
static void bench_device_create(struct bench_device *bdev)
{
	struct device *dev;

	bdev->fdev = faux_device_create(bdev->name, NULL, NULL);
	if (!bdev->fdev)
		return;
	dev = &bdev->fdev->dev;
	dev_assign_dma_coherent(dev, bdev->coherent);
	dev->dma_mask = &dev->coherent_dma_mask;
	dev->dma_parms = &bdev->dma_parms;
	dma_set_max_seg_size(dev, UINT_MAX);
	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)) ||
	    dev_is_dma_coherent(dev) != bdev->coherent) {
		/* Attaching for it fails with -ENODEV. */
		faux_device_destroy(bdev->fdev);
		bdev->fdev = NULL;
	}
}

static void bench_devices_destroy(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bench_devices); i++) {
		if (bench_devices[i].fdev)
			faux_device_destroy(bench_devices[i].fdev);
	}
}

static int __init bench_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bench_devices); i++)
		bench_device_create(&bench_devices[i]);
	ret = misc_register(&bench_misc);
	if (ret)
		bench_devices_destroy();
	return ret;
}

static void __exit bench_exit(void)
{
	misc_deregister(&bench_misc);
	bench_devices_destroy();
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_DESCRIPTION("dma-buf importer of the ownership benchmark");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("DMA_BUF");
