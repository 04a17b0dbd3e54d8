/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "guard.h"
#include "datagen.h"
#include "err.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sig {
	size_t off;
	const char *magic;
	size_t len;
	const char *what;
};

/* Signatures at fixed offsets from the start (from the formats'
 * specifications, as blkid knows them).  ext, MBR, GPT partition types and
 * ZFS need more than a magic number and are checked below. */
static const struct sig sigs[] = {
	{ 0, "XFSB", 4, "an XFS file system" },
	{ 65600, "_BHRfS_M", 8, "a btrfs file system" },
	{ 0, "LABELONE", 8, "an LVM physical volume" },
	{ 512, "LABELONE", 8, "an LVM physical volume" },
	{ 1024, "LABELONE", 8, "an LVM physical volume" },
	{ 1536, "LABELONE", 8, "an LVM physical volume" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.2)" },
	{ 0, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.1)" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS encrypted volume" },
	{ 0, "SKUL\xba\xbe", 6, "a LUKS encrypted volume" },
	{ 3, "NTFS    ", 8, "an NTFS file system" },
	{ 3, "EXFAT   ", 8, "an exFAT file system" },
	{ 3, "-FVE-FS-", 8, "a BitLocker encrypted volume" },
	{ 3, "ReFS\0\0\0\0", 8, "a ReFS file system" },
	{ 82, "FAT32   ", 8, "a FAT32 file system" },
	{ 54, "FAT1", 4, "a FAT file system" },
	{ 4086, "SWAPSPACE2", 10, "a Linux swap area" },
	{ 4086, "SWAP-SPACE", 10, "a Linux swap area" },
	{ 32769, "CD001", 5, "an ISO 9660 image" },
	{ 1048576, "\x0d\xd0\x01\xc0", 4, "a VMware VMFS datastore" },
	{ 65536 + 52, "ReIsEr", 6, "a ReiserFS file system" },
	{ 8192 + 1372, "\x54\x19\x01\x00", 4, "a UFS file system" },
	{ 65536 + 1372, "\x19\x01\x54\x19", 4, "a UFS2 file system" },
	{ 1024, "H+\0\x04", 4, "an HFS+ file system" },
	{ 32, "NXSB", 4, "an APFS container" },
	{ 1024, "\x10\x20\xf5\xf2", 4, "an F2FS file system" },
	{ 32768, "JFS1", 4, "a JFS file system" },
	{ 0, "hsqs", 4, "a squashfs image" },
	{ 0, "bluestore block device", 22, "a Ceph BlueStore device" },
	{ 4096 + 24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81",
	  16, "a bcache device" },
	{ 0, "VMDK", 4, "a VMware disk image" },
	{ 0, "KDMV", 4, "a VMware disk image" },
	{ 0, "QFI\xfb", 4, "a qcow2 disk image" },
};

static uint16_t le16(const unsigned char *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static int all_zero(const unsigned char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

/* An ext2/3/4 superblock at 1024: the magic and fields that must be sane,
 * so random data (nasbench's own) does not pass for one by chance. */
static int has_ext(const unsigned char *b, size_t len)
{
	const unsigned char *sb = b + 1024;

	if (len < 2048 || le16(sb + 56) != 0xef53)
		return 0;
	return le32(sb + 0) && le32(sb + 4) &&        /* inodes, blocks */
	       le32(sb + 24) <= 6 &&                   /* log2(block) - 10 */
	       le32(sb + 32) && le32(sb + 40) &&       /* per group */
	       le32(sb + 76) <= 1;                     /* revision */
}

/* ZFS labels carry an uberblock array at 128 KiB with magic 0x00bab10c;
 * L0 and L1 start at 0 and 256 KiB, L2 and L3 at 512 and 256 KiB from the
 * end. */
static int has_zfs(const unsigned char *b, size_t len, size_t label)
{
	const uint64_t magic = 0x00bab10cULL;
	uint64_t v;

	for (size_t off = label + 128 * 1024;
	     off + 8 <= len && off < label + 256 * 1024; off += 1024) {
		memcpy(&v, b + off, 8);
		if (v == magic || __builtin_bswap64(v) == magic)
			return 1;
	}
	return 0;
}

static const char *mbr_type(unsigned type)
{
	switch (type) {
	case 0x07: return "NTFS/exFAT";
	case 0x0b: case 0x0c: return "FAT32";
	case 0x82: return "Linux swap";
	case 0x83: return "Linux";
	case 0x8e: return "Linux LVM";
	case 0xa5: return "FreeBSD";
	case 0xbf: return "Solaris/ZFS";
	case 0xee: return NULL;            /* protective: the GPT says more */
	case 0xfb: return "VMware VMFS";
	case 0xfc: return "VMware swap";
	case 0xfd: return "Linux RAID";
	default: return "";
	}
}

/* A DOS partition table: the boot signature, four entries whose status is
 * 0x00 or 0x80, and at least one used.  Names the first known type. */
static int has_mbr(const unsigned char *b, size_t len, char *what, size_t wlen)
{
	const char *name = NULL;
	int used = 0;

	if (len < 512 || b[510] != 0x55 || b[511] != 0xaa)
		return 0;
	for (int i = 0; i < 4; i++) {
		const unsigned char *e = b + 446 + 16 * i;

		if (e[0] != 0x00 && e[0] != 0x80)
			return 0;
		if (e[4]) {
			used++;
			if (!name || !*name)
				name = mbr_type(e[4]);
		}
	}
	if (!used)
		return 0;
	if (name && *name)
		snprintf(what, wlen, "an MBR partition table (a %s partition)", name);
	else
		snprintf(what, wlen, "an MBR partition table");
	return 1;
}

/* GPT partition type GUIDs, as stored on disk (mixed endian). */
static const struct { unsigned char guid[16]; const char *name; } gpt_types[] = {
	{ { 0x2a, 0xe0, 0x31, 0xaa, 0x0f, 0x40, 0xdb, 0x11,
	    0x95, 0x90, 0x00, 0x0c, 0x29, 0x11, 0xd1, 0xb8 }, "VMware VMFS" },
	{ { 0xba, 0x7c, 0x6e, 0x51, 0xcf, 0x6e, 0xd6, 0x11,
	    0x8f, 0xf8, 0x00, 0x02, 0x2d, 0x09, 0x71, 0x2b }, "FreeBSD ZFS" },
	{ { 0xc3, 0x8c, 0x89, 0x6a, 0xd2, 0x1d, 0xb2, 0x11,
	    0x99, 0xa6, 0x08, 0x00, 0x20, 0x73, 0x66, 0x31 }, "Solaris/illumos ZFS" },
	{ { 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
	    0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 }, "Linux file system" },
	{ { 0x79, 0xd3, 0xd6, 0xe6, 0x07, 0xf5, 0xc2, 0x44,
	    0xa2, 0x3c, 0x23, 0x8f, 0x2a, 0x3d, 0xf9, 0x28 }, "Linux LVM" },
	{ { 0x0f, 0x88, 0x9d, 0xa1, 0xfc, 0x05, 0x3b, 0x4d,
	    0xa0, 0x06, 0x74, 0x3f, 0x0f, 0x84, 0x91, 0x1e }, "Linux RAID" },
	{ { 0xa2, 0xa0, 0xd0, 0xeb, 0xe5, 0xb9, 0x33, 0x44,
	    0x87, 0xc0, 0x68, 0xb6, 0xb7, 0x26, 0x99, 0xc7 }, "Windows data" },
	{ { 0xb6, 0x7c, 0x6e, 0x51, 0xcf, 0x6e, 0xd6, 0x11,
	    0x8f, 0xf8, 0x00, 0x02, 0x2d, 0x09, 0x71, 0x2b }, "FreeBSD UFS" },
};

/* "EFI PART" at LBA 1 (512- or 4096-byte sectors); names the first
 * partition type it knows from the entries at LBA 2. */
static int has_gpt(const unsigned char *b, size_t len, char *what, size_t wlen)
{
	static const size_t sector[] = { 512, 4096 };

	for (int s = 0; s < 2; s++) {
		size_t hdr = sector[s], ents;
		uint32_t n, esz;

		if (hdr + 92 > len || memcmp(b + hdr, "EFI PART", 8))
			continue;
		snprintf(what, wlen, "a GPT partition table");
		ents = hdr * 2;
		n = le32(b + hdr + 80);
		esz = le32(b + hdr + 84);
		if (esz < 128 || esz > 4096)
			return 1;
		for (uint32_t i = 0; i < n && i < 128 && ents + (i + 1) * esz <= len;
		     i++) {
			const unsigned char *e = b + ents + i * esz;

			for (size_t k = 0; k < sizeof(gpt_types) / sizeof(gpt_types[0]);
			     k++)
				if (!memcmp(e, gpt_types[k].guid, 16)) {
					snprintf(what, wlen, "a GPT partition table (a "
						 "%s partition)", gpt_types[k].name);
					return 1;
				}
		}
		return 1;
	}
	return 0;
}

static int nasbench_data(const unsigned char *buf, size_t len)
{
	uint64_t magic;

	if (len < 8)
		return 0;
	memcpy(&magic, buf, 8);
	return magic == NB_BLOCK_MAGIC;
}

/* What the first LEN bytes hold, into WHAT; 0 when nothing. */
static int identify(const unsigned char *buf, size_t len, char *what,
		    size_t wlen)
{
	if (has_gpt(buf, len, what, wlen) || has_mbr(buf, len, what, wlen))
		return 1;
	if (has_ext(buf, len)) {
		snprintf(what, wlen, "an ext2/3/4 file system");
		return 1;
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigs[i].off + sigs[i].len <= len &&
		    !memcmp(buf + sigs[i].off, sigs[i].magic, sigs[i].len)) {
			snprintf(what, wlen, "%s", sigs[i].what);
			return 1;
		}
	if (has_zfs(buf, len, 0) || has_zfs(buf, len, 256 * 1024)) {
		snprintf(what, wlen, "a ZFS pool member");
		return 1;
	}
	if (nasbench_data(buf, len) || all_zero(buf, len))
		return 0;
	snprintf(what, wlen, "data nasbench did not write");
	return 1;
}

const char *nb_guard_identify(const unsigned char *buf, size_t len)
{
	static __thread char what[128];

	return identify(buf, len, what, sizeof(what)) ? what : NULL;
}

const char *nb_guard_identify_tail(const unsigned char *buf, size_t len,
				   uint64_t size)
{
	uint64_t start = size - len;    /* the offset of BUF on the target */
	uint64_t md090 = (size & ~(uint64_t)65535) - 65536;
	uint64_t md10 = ((size - 8192) & ~(uint64_t)4095);
	unsigned char magic[4] = { 0xfc, 0x4e, 0x2b, 0xa9 };

	if (len > size)
		return NULL;
	if (size >= 131072 && md090 >= start && md090 + 4 <= size &&
	    !memcmp(buf + (md090 - start), magic, 4))
		return "an md RAID member (v0.90)";
	if (size >= 8192 && md10 >= start && md10 + 4 <= size &&
	    !memcmp(buf + (md10 - start), magic, 4))
		return "an md RAID member (v1.0)";
	uint64_t aligned = size & ~(uint64_t)(256 * 1024 - 1);

	for (uint64_t l = aligned - 512 * 1024; aligned >= 512 * 1024 && l < aligned;
	     l += 256 * 1024)
		if (l >= start && has_zfs(buf, len, (size_t)(l - start)))
			return "a ZFS pool member";
	return NULL;
}

/* LEN bytes at OFF of F read into a new buffer (*N of them); NULL with
 * the error set.  T's capacity is SIZE while it reads: a runner keeps its
 * reads inside the capacity, and the whole device is larger than the
 * window the workloads use. */
static unsigned char *probe(struct nb_target *t, struct nb_file *f,
			    uint64_t size, uint64_t off, uint64_t len, int64_t *n)
{
	unsigned char *buf = nb_io_alloc(len);
	uint64_t window = t->capacity;

	if (!buf) {
		*n = nb_err(-ENOMEM, "out of memory");
		return NULL;
	}
	t->capacity = size;
	*n = nb_target_pio(t, f, NB_OP_READ, buf, (uint32_t)len, off, 0);
	t->capacity = window;
	if (*n < 0) {
		nb_err_prefix("target '%s': cannot read its blocks to check for "
			      "data", t->cfg->name);
		free(buf);
		return NULL;
	}
	return buf;
}

static int refuse(struct nb_target *t, const char *what, const char *where)
{
	return nb_err(-EPERM, "target '%s' (%s) holds %s%s: writing would "
		      "destroy it; if that is intended, set 'destroy-data = yes' "
		      "in its [target] section or pass --destroy-data",
		      t->cfg->name, t->desc, what, where);
}

/* LEN rounded down to whole blocks of T, and to at most MAX. */
static uint64_t blocks(const struct nb_target *t, uint64_t len, uint64_t max)
{
	if (len > max)
		len = max;
	if (t->block_size > 1)
		len -= len % t->block_size;
	return len;
}

/* What the first bytes of F (SIZE bytes) hold, into WHAT; 1 when
 * something, 0 when nothing, -errno. */
static int judge_start(struct nb_target *t, struct nb_file *f, uint64_t size,
		       char *what, size_t wlen)
{
	uint64_t len;
	unsigned char *buf;
	int64_t n;
	int found;

	len = blocks(t, size, NB_GUARD_PROBE);
	if (!len)
		return 0;
	buf = probe(t, f, size, 0, len, &n);
	if (!buf)
		return (int)n;
	found = identify(buf, (size_t)n, what, wlen);
	free(buf);
	return found;
}

/* What the end of the whole (SIZE bytes) holds: md 0.90/1.0 and ZFS's
 * last labels.  Its name (static), NULL, or an error in *RC. */
static const char *judge_end(struct nb_target *t, struct nb_file *whole,
			     uint64_t size, int *rc)
{
	uint64_t tail = blocks(t, NB_GUARD_TAIL, NB_GUARD_TAIL);
	unsigned char *buf;
	const char *w;
	int64_t n;

	*rc = 0;
	if (size < 2 * NB_GUARD_PROBE)
		return NULL;
	buf = probe(t, whole, size, size - tail, tail, &n);
	if (!buf) {
		*rc = (int)n;
		return NULL;
	}
	w = n == (int64_t)tail ? nb_guard_identify_tail(buf, (size_t)n, size) : NULL;
	free(buf);
	return w;
}

int nb_guard_holds(struct nb_target *t, struct nb_file *f, char *what,
		   size_t wlen)
{
	const char *w;
	int rc;

	rc = judge_start(t, f, t->capacity, what, wlen);
	if (rc)
		return rc;
	w = judge_end(t, f, t->capacity, &rc);
	if (rc || !w)
		return rc;
	snprintf(what, wlen, "%s at its end", w);
	return 1;
}

int nb_guard_check(struct nb_target *t, const struct nb_guard_view *v)
{
	char what[128], where[96];
	const char *w;
	int rc;

	if (t->cfg->destroy_data)
		return 0;
	if (v->busy)
		return refuse(t, v->busy, "");
	rc = judge_start(t, v->whole, v->size, what, sizeof(what));
	if (rc)
		return rc < 0 ? rc : refuse(t, what, "");
	w = judge_end(t, v->whole, v->size, &rc);
	if (rc || w)
		return rc ? rc : refuse(t, w, " at its end");
	if (!v->offset)
		return 0;
	/* a window further in: what it starts with is its own */
	rc = judge_start(t, v->win, v->len, what, sizeof(what));
	if (rc <= 0)
		return rc;
	snprintf(where, sizeof(where), " at offset %llu, where its window starts",
		 (unsigned long long)v->offset);
	return refuse(t, what, where);
}
