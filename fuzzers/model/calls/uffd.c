// SPDX-License-Identifier: GPL-2.0
/*
 * uffd: userfaultfd. The via argument is not a UAPI value: how the executor
 * gets its descriptor (userfaultfd(2) or /dev/userfaultfd). Features are
 * UFFDIO_API's; the event features make the handler thread (exec/uffd.c)
 * drain fork, remap, remove and unmap events.
 */
#include "model/builder.h"

MMF_FLAG_SET(mmf_uffd_via_set, "uffd_via", { "UFFD_SYSCALL", 0 }, { "UFFD_DEV", 1 });

MMF_FLAG_SET(mmf_uffd_features_set, "uffd_features",
	{ "UFFD_FEATURE_EVENT_FORK", 1 << 1 }, { "UFFD_FEATURE_EVENT_REMAP", 1 << 2 },
	{ "UFFD_FEATURE_EVENT_REMOVE", 1 << 3 }, { "UFFD_FEATURE_MISSING_SHMEM", 1 << 5 },
	{ "UFFD_FEATURE_EVENT_UNMAP", 1 << 6 }, { "UFFD_FEATURE_THREAD_ID", 1 << 8 },
	{ "UFFD_FEATURE_MINOR_SHMEM", 1 << 10 }, { "UFFD_FEATURE_WP_HUGETLBFS_SHMEM", 1 << 12 },
	{ "UFFD_FEATURE_WP_UNPOPULATED", 1 << 13 }, { "UFFD_FEATURE_POISON", 1 << 14 },
	{ "UFFD_FEATURE_WP_ASYNC", 1 << 15 }, { "UFFD_FEATURE_MOVE", 1 << 16 });

MMF_FLAG_SET(mmf_uffd_register_set, "uffd_register",
	{ "UFFDIO_REGISTER_MODE_MISSING", 0x1 }, { "UFFDIO_REGISTER_MODE_WP", 0x2 },
	{ "UFFDIO_REGISTER_MODE_MINOR", 0x4 });

MMF_FLAG_SET(mmf_uffd_copy_set, "uffd_copy",
	{ "UFFDIO_COPY_MODE_DONTWAKE", 0x1 }, { "UFFDIO_COPY_MODE_WP", 0x2 });

MMF_FLAG_SET(mmf_uffd_wp_set, "uffd_writeprotect",
	{ "UFFDIO_WRITEPROTECT_MODE_WP", 0x1 }, { "UFFDIO_WRITEPROTECT_MODE_DONTWAKE", 0x2 });

MMF_FLAG_SET(mmf_uffd_continue_set, "uffd_continue",
	{ "UFFDIO_CONTINUE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_CONTINUE_MODE_WP", 0x2 });

/* ZEROPAGE and POISON have only DONTWAKE (bit 0). */
MMF_FLAG_SET(mmf_uffd_dontwake_set, "uffd_dontwake", { "UFFDIO_MODE_DONTWAKE", 0x1 });

MMF_FLAG_SET(mmf_uffd_move_set, "uffd_move",
	{ "UFFDIO_MOVE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES", 0x2 });

static const struct mmf_bias create_biases[] = {
	{ &mmf_uffd_features_set, 70, { "UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_EVENT_REMAP|"
		"UFFD_FEATURE_EVENT_REMOVE|UFFD_FEATURE_EVENT_UNMAP|UFFD_FEATURE_MISSING_SHMEM|"
		"UFFD_FEATURE_WP_HUGETLBFS_SHMEM|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_MISSING_SHMEM|UFFD_FEATURE_MINOR_SHMEM|UFFD_FEATURE_POISON|"
		"UFFD_FEATURE_MOVE", "" } },
};

MMF_BUILDER(uffd_create, mmf_gen_default, MMF_BIASES(create_biases));

/* WP with MISSING: the markers swapoff meets. */
static const struct mmf_bias register_biases[] = {
	{ &mmf_uffd_register_set, 85, { "UFFDIO_REGISTER_MODE_MISSING", "UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MINOR" } },
};

MMF_BUILDER(uffd_register, mmf_gen_default, MMF_BIASES(register_biases),
	    .undo = { MMF_UFFD_UNREGISTER, 3, 50, NULL });
MMF_BUILD_DEFAULT(uffd_unregister);

static const struct mmf_bias copy_biases[] = {
	{ &mmf_uffd_copy_set, 80, { "", "", "UFFDIO_COPY_MODE_WP" } },
};

MMF_BUILDER(uffd_copy, mmf_gen_default, MMF_BIASES(copy_biases));

static const struct mmf_bias dontwake_biases[] = {
	{ &mmf_uffd_dontwake_set, 90, { "" } },
};

MMF_BUILDER(uffd_zeropage, mmf_gen_default, MMF_BIASES(dontwake_biases));

static const struct mmf_bias wp_biases[] = {
	{ &mmf_uffd_wp_set, 85, { "UFFDIO_WRITEPROTECT_MODE_WP",
		"UFFDIO_WRITEPROTECT_MODE_WP", "" } },
};

/* The undo takes the protection away again. */
MMF_BUILDER(uffd_writeprotect, mmf_gen_default, MMF_BIASES(wp_biases),
	    .undo = { MMF_UFFD_WRITEPROTECT, 3, 50, "" });

static const struct mmf_bias continue_biases[] = {
	{ &mmf_uffd_continue_set, 90, { "" } },
};

MMF_BUILDER(uffd_continue, mmf_gen_default, MMF_BIASES(continue_biases));
MMF_BUILDER(uffd_poison, mmf_gen_default, MMF_BIASES(dontwake_biases));

static const struct mmf_bias move_biases[] = {
	{ &mmf_uffd_move_set, 80, { "", "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES" } },
};

MMF_BUILDER(uffd_move, mmf_gen_default, MMF_BIASES(move_biases));
