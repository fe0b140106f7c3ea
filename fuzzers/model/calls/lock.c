// SPDX-License-Identifier: GPL-2.0
/* lock: mlock and its kin, each mostly undone a few statements later. */
#include "model/builder.h"
#include "model/uapi.h"

MMF_FLAG_SET(mmf_mlock2_set, "mlock2", { "MLOCK_ONFAULT", MMF_MLOCK_ONFAULT });

MMF_FLAG_SET(mmf_mlockall_set, "mlockall",
	{ "MCL_CURRENT", 0x1 }, { "MCL_FUTURE", 0x2 }, { "MCL_ONFAULT", 0x4 });

/* VM_LOCKED splits the VMAs at the range's ends. */
MMF_BUILDER(mlock, mmf_gen_default, .apply = mmf_gen_split,
	    .undo = { MMF_MUNLOCK, 3, 75, NULL });
MMF_BUILDER(mlock2, mmf_gen_default, .apply = mmf_gen_split,
	    .undo = { MMF_MUNLOCK, 3, 75, NULL });
MMF_BUILDER(munlock, mmf_gen_default, .apply = mmf_gen_split);

static const struct mmf_bias mlockall_biases[] = {
	{ &mmf_mlockall_set, 80, { "MCL_CURRENT|MCL_FUTURE", "MCL_CURRENT",
		"MCL_CURRENT|MCL_ONFAULT", "MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT" } },
};

MMF_BUILDER(mlockall, mmf_gen_default, MMF_BIASES(mlockall_biases),
	    .undo = { MMF_MUNLOCKALL, 0, 90, NULL });
MMF_BUILD_DEFAULT(munlockall);
