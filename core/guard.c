#include "guard.h"
#include "datagen.h"
#include "engine.h"
#include "err.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sig {
	size_t off;
	const char *magic;
	size_t len;
	const char *what;
};

/* Signatures at fixed offsets (from the formats' specifications, as blkid
 * knows them). */
static const struct sig sigs[] = {
	{ 512, "EFI PART", 8, "a GPT partition table" },
	{ 1080, "\x53\xef", 2, "an ext2/3/4 file system" },
	{ 0, "XFSB", 4, "an XFS file system" },
	{ 65600, "_BHRfS_M", 8, "a btrfs file system" },
	{ 512, "LABELONE", 8, "an LVM physical volume" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.2)" },
	{ 0, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.1)" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS encrypted volume" },
	{ 3, "NTFS    ", 8, "an NTFS file system" },
	{ 82, "FAT32   ", 8, "a FAT32 file system" },
	{ 54, "FAT1", 4, "a FAT file system" },
	{ 4086, "SWAPSPACE2", 10, "a Linux swap area" },
	{ 32769, "CD001", 5, "an ISO 9660 image" },
	{ 1048576, "\x0d\xd0\x01\xc0", 4, "a VMware VMFS datastore" },
	{ 65536 + 52, "ReIsEr", 6, "a ReiserFS file system" },
	{ 8192, "\x19\x01\x54\x19", 4, "a UFS file system" },
};

static int all_zero(const unsigned char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

/* ZFS labels carry an uberblock array at 128 KiB with magic 0x00bab10c. */
static int has_zfs(const unsigned char *b, size_t len)
{
	const uint64_t magic = 0x00bab10cULL;
	uint64_t v;

	for (size_t off = 128 * 1024; off + 8 <= len && off < 256 * 1024;
	     off += 1024) {
		memcpy(&v, b + off, 8);
		if (v == magic || __builtin_bswap64(v) == magic)
			return 1;
	}
	return 0;
}

static int has_mbr(const unsigned char *b, size_t len)
{
	if (len < 512 || b[510] != 0x55 || b[511] != 0xaa)
		return 0;
	/* a partition entry with a type byte set */
	for (int i = 0; i < 4; i++)
		if (b[446 + 16 * i + 4])
			return 1;
	return 0;
}

const char *nb_guard_identify(const unsigned char *buf, size_t len)
{
	uint64_t magic;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigs[i].off + sigs[i].len <= len &&
		    !memcmp(buf + sigs[i].off, sigs[i].magic, sigs[i].len))
			return sigs[i].what;
	if (has_zfs(buf, len))
		return "a ZFS pool member";
	if (has_mbr(buf, len))
		return "an MBR partition table";
	if (len >= 8) {
		memcpy(&magic, buf, 8);
		if (magic == NB_BLOCK_MAGIC)
			return NULL;
	}
	if (all_zero(buf, len < 65536 ? len : 65536))
		return NULL;
	return "data nasbench did not write";
}

int nb_guard_check(struct nb_target *t, struct nb_file *f)
{
	uint64_t len = NB_GUARD_PROBE;
	unsigned char *buf;
	const char *what;
	int64_t n;

	if (t->cfg->destroy_data)
		return 0;
	if (t->capacity && len > t->capacity)
		len = t->capacity;
	if (t->block_size > 1)
		len -= len % t->block_size;
	buf = nb_io_alloc(len);
	if (!buf)
		return nb_err_set("out of memory"), -ENOMEM;
	n = nb_target_pio(t, f, NB_OP_READ, buf, (uint32_t)len, 0, 0);
	if (n < 0) {
		free(buf);
		return nb_err_prefix("target '%s': cannot read its first blocks to "
				     "check for data", t->cfg->name), (int)n;
	}
	what = nb_guard_identify(buf, (size_t)n);
	free(buf);
	if (!what)
		return 0;
	nb_err_set("target '%s' (%s) holds %s: writing would destroy it; if that "
		   "is intended, set 'destroy-data = yes' in its [target] section "
		   "or pass --destroy-data", t->cfg->name, t->desc, what);
	return -EPERM;
}
