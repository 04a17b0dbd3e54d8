/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/datagen.h"
#include "../../core/guard.h"

#define LEN NB_GUARD_PROBE

static unsigned char *zeroed(void)
{
	unsigned char *b = calloc(1, LEN);

	assert_non_null(b);
	return b;
}

/* A buffer of zeroes with MAGIC at OFF is identified as WHAT. */
static void expect_at(size_t off, const void *magic, size_t len,
		      const char *what)
{
	unsigned char *b = zeroed();

	memcpy(b + off, magic, len);
	assert_non_null(nb_guard_identify(b, LEN));
	assert_string_equal(nb_guard_identify(b, LEN), what);
	free(b);
}

static void signatures(void **state)
{
	(void)state;
	expect_at(0, "XFSB", 4, "an XFS file system");
	expect_at(65600, "_BHRfS_M", 8, "a btrfs file system");
	expect_at(512, "LABELONE", 8, "an LVM physical volume");
	expect_at(1536, "LABELONE", 8, "an LVM physical volume");
	expect_at(4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.2)");
	expect_at(0, "\xfc\x4e\x2b\xa9", 4, "an md RAID member (v1.1)");
	expect_at(0, "LUKS\xba\xbe", 6, "a LUKS encrypted volume");
	expect_at(3, "NTFS    ", 8, "an NTFS file system");
	expect_at(3, "EXFAT   ", 8, "an exFAT file system");
	expect_at(3, "-FVE-FS-", 8, "a BitLocker encrypted volume");
	expect_at(82, "FAT32   ", 8, "a FAT32 file system");
	expect_at(54, "FAT16", 5, "a FAT file system");
	expect_at(4086, "SWAPSPACE2", 10, "a Linux swap area");
	expect_at(32769, "CD001", 5, "an ISO 9660 image");
	expect_at(1048576, "\x0d\xd0\x01\xc0", 4, "a VMware VMFS datastore");
	expect_at(65536 + 52, "ReIsEr2Fs", 9, "a ReiserFS file system");
	expect_at(8192 + 1372, "\x54\x19\x01\x00", 4, "a UFS file system");
	expect_at(65536 + 1372, "\x19\x01\x54\x19", 4, "a UFS2 file system");
	expect_at(32, "NXSB", 4, "an APFS container");
	expect_at(1024, "\x10\x20\xf5\xf2", 4, "an F2FS file system");
	expect_at(0, "bluestore block device", 22, "a Ceph BlueStore device");
	expect_at(0, "QFI\xfb", 4, "a qcow2 disk image");
}

static void zfs(void **state)
{
	unsigned char *b = zeroed();
	uint64_t magic = 0x00bab10cULL;

	(void)state;
	/* an uberblock of label L1 (at 256 KiB), ashift 12 slot */
	memcpy(b + 256 * 1024 + 128 * 1024 + 4096 * 3, &magic, 8);
	assert_string_equal(nb_guard_identify(b, LEN), "a ZFS pool member");
	free(b);
	b = zeroed();
	magic = __builtin_bswap64(magic);       /* a big-endian pool */
	memcpy(b + 128 * 1024, &magic, 8);
	assert_string_equal(nb_guard_identify(b, LEN), "a ZFS pool member");
	free(b);
}

static void mbr(void **state)
{
	unsigned char *b = zeroed();

	(void)state;
	b[510] = 0x55;
	b[511] = 0xaa;
	/* boot signature but no partition: e.g. a blank boot sector */
	b[0] = 0xeb;
	assert_string_equal(nb_guard_identify(b, LEN), "data nasbench did not write");
	b[446 + 16 + 4] = 0xfb;
	assert_string_equal(nb_guard_identify(b, LEN),
			    "an MBR partition table (a VMware VMFS partition)");
	b[446 + 16 + 4] = 0x83;
	assert_string_equal(nb_guard_identify(b, LEN),
			    "an MBR partition table (a Linux partition)");
	b[446 + 16 + 4] = 0x42;
	assert_string_equal(nb_guard_identify(b, LEN), "an MBR partition table");
	free(b);
}

static void gpt_at(size_t sector, const unsigned char *guid, const char *what)
{
	unsigned char *b = zeroed();
	uint32_t n = 128, esz = 128;

	b[510] = 0x55;
	b[511] = 0xaa;
	b[446 + 4] = 0xee;                      /* protective MBR */
	memcpy(b + sector, "EFI PART", 8);
	memcpy(b + sector + 80, &n, 4);
	memcpy(b + sector + 84, &esz, 4);
	if (guid)
		memcpy(b + 2 * sector + esz, guid, 16);   /* the second entry */
	assert_string_equal(nb_guard_identify(b, LEN), what);
	free(b);
}

static void gpt(void **state)
{
	static const unsigned char vmfs[16] = {
		0x2a, 0xe0, 0x31, 0xaa, 0x0f, 0x40, 0xdb, 0x11,
		0x95, 0x90, 0x00, 0x0c, 0x29, 0x11, 0xd1, 0xb8 };
	static const unsigned char fbsd_zfs[16] = {
		0xba, 0x7c, 0x6e, 0x51, 0xcf, 0x6e, 0xd6, 0x11,
		0x8f, 0xf8, 0x00, 0x02, 0x2d, 0x09, 0x71, 0x2b };

	(void)state;
	gpt_at(512, NULL, "a GPT partition table");
	gpt_at(512, vmfs, "a GPT partition table (a VMware VMFS partition)");
	/* a 4Kn LUN keeps its GPT header at 4096 */
	gpt_at(4096, fbsd_zfs, "a GPT partition table (a FreeBSD ZFS partition)");
}

static void ext_needs_a_sane_superblock(void **state)
{
	unsigned char *b = zeroed();
	uint32_t v;

	(void)state;
	b[1080] = 0x53;
	b[1081] = 0xef;
	/* the magic alone (2 bytes: 1 in 65536 random blocks) is not enough */
	assert_string_equal(nb_guard_identify(b, LEN), "data nasbench did not write");
	v = 8192; memcpy(b + 1024, &v, 4);      /* inodes */
	v = 32768; memcpy(b + 1028, &v, 4);     /* blocks */
	v = 2; memcpy(b + 1024 + 24, &v, 4);    /* 4 KiB blocks */
	v = 32768; memcpy(b + 1024 + 32, &v, 4);
	v = 8192; memcpy(b + 1024 + 40, &v, 4);
	v = 1; memcpy(b + 1024 + 76, &v, 4);
	assert_string_equal(nb_guard_identify(b, LEN), "an ext2/3/4 file system");
	free(b);
}

/* Images made by the real tools. */
static unsigned char *image(const char *cmd_fmt)
{
	char dir[] = "/tmp/nb-guard.XXXXXX", cmd[512], path[64];
	unsigned char *b = zeroed();
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/img", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 32M %s && ", path);
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), cmd_fmt, path);
	strncat(cmd, " >/dev/null 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(b, 1, LEN, f), LEN);
	fclose(f);
	unlink(path);
	rmdir(dir);
	return b;
}

static void real_images(void **state)
{
	unsigned char *b;

	(void)state;
	b = image("PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F %s");
	assert_string_equal(nb_guard_identify(b, LEN), "an ext2/3/4 file system");
	free(b);
	b = image("PATH=$PATH:/usr/sbin:/sbin mkswap %s");
	assert_string_equal(nb_guard_identify(b, LEN), "a Linux swap area");
	free(b);
}

static void zeroes_and_own_data(void **state)
{
	unsigned char *b = zeroed();
	struct nb_rng r;

	(void)state;
	assert_null(nb_guard_identify(b, LEN));
	/* a little anything in the first MiB is someone's data */
	b[700000] = 1;
	assert_string_equal(nb_guard_identify(b, LEN), "data nasbench did not write");
	/* what nasbench writes (random, stamped every 4 KiB) passes, for many
	 * seeds: no signature check may trip over random bytes */
	for (uint64_t seed = 1; seed <= 300; seed++) {
		nb_rng_seed(&r, seed);
		nb_datagen_fill(&r, b, LEN);
		nb_datagen_stamp(b, LEN, 0, seed);
		assert_null(nb_guard_identify(b, LEN));
	}
	/* and so do its self-describing verification blocks */
	for (size_t off = 0; off + 65536 <= LEN; off += 65536)
		nb_block_fill(b + off, 65536, off, 42, 1);
	assert_null(nb_guard_identify(b, LEN));
	free(b);
}

static void tail(void **state)
{
	const size_t len = NB_GUARD_TAIL;
	uint64_t size = 100ULL << 20;          /* 100 MiB, not 256K-aligned */
	unsigned char *b = calloc(1, len);
	uint64_t start = size - len, off, magic = 0x00bab10cULL;

	(void)state;
	size += 12345 * 512;
	start = size - len;
	assert_null(nb_guard_identify_tail(b, len, size));
	off = (size & ~65535ULL) - 65536;       /* md 0.90 */
	memcpy(b + (off - start), "\xfc\x4e\x2b\xa9", 4);
	assert_string_equal(nb_guard_identify_tail(b, len, size),
			    "an md RAID member (v0.90)");
	memset(b, 0, len);
	off = (size - 8192) & ~4095ULL;         /* md 1.0 */
	memcpy(b + (off - start), "\xfc\x4e\x2b\xa9", 4);
	assert_string_equal(nb_guard_identify_tail(b, len, size),
			    "an md RAID member (v1.0)");
	memset(b, 0, len);
	off = (size & ~(256 * 1024ULL - 1)) - 256 * 1024 + 128 * 1024; /* L3 */
	memcpy(b + (off - start), &magic, 8);
	assert_string_equal(nb_guard_identify_tail(b, len, size),
			    "a ZFS pool member");
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signatures),
		cmocka_unit_test(zfs),
		cmocka_unit_test(mbr),
		cmocka_unit_test(gpt),
		cmocka_unit_test(ext_needs_a_sane_superblock),
		cmocka_unit_test(real_images),
		cmocka_unit_test(zeroes_and_own_data),
		cmocka_unit_test(tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
