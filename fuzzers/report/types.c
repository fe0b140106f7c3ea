// SPDX-License-Identifier: GPL-2.0
/*
 * Bug type from the title, so that one table of titles decides both. The
 * type names are syzkaller's; the first prefix that matches wins.
 */
#include <string.h>

#include "report/internal.h"

static const struct {
	const char *prefix, *type;
} title_types[] = {
	/* mmfuzz oracles */
	{ "DATA CORRUPTION:", "DATA_CORRUPTION" },
	{ "ACCOUNTING:", "ACCOUNTING" },

	{ "KFENCE: use-after-free write", "KFENCE-USE-AFTER-FREE-WRITE" },
	{ "KFENCE: use-after-free", "KFENCE-USE-AFTER-FREE-READ" },
	{ "KFENCE: invalid write", "KFENCE-WRITE" },
	{ "KFENCE: out-of-bounds write", "KFENCE-WRITE" },
	{ "KFENCE: invalid read", "KFENCE-READ" },
	{ "KFENCE: out-of-bounds", "KFENCE-READ" },
	{ "KFENCE: memory corruption", "KFENCE-MEMORY-CORRUPTION" },
	{ "KFENCE: invalid free", "KFENCE-INVALID-FREE" },
	{ "KFENCE:", "KFENCE-UNKNOWN" },

	{ "KMSAN: uninit-value", "KMSAN-UNINIT-VALUE" },
	{ "KMSAN: kernel-infoleak-after-free", "KMSAN-USE-AFTER-FREE-READ" },
	{ "KMSAN: kernel-usb-infoleak-after-free", "KMSAN-USE-AFTER-FREE-READ" },
	{ "KMSAN: use-after-free", "KMSAN-USE-AFTER-FREE-READ" },
	{ "KMSAN: kernel-infoleak", "KMSAN-INFO-LEAK" },
	{ "KMSAN: kernel-usb-infoleak", "KMSAN-INFO-LEAK" },
	{ "KMSAN:", "KMSAN-UNKNOWN" },

	{ "KASAN: null-ptr-deref Write", "KASAN-NULL-POINTER-DEREFERENCE-WRITE" },
	{ "KASAN: null-ptr-deref Read", "KASAN-NULL-POINTER-DEREFERENCE-READ" },
	{ "KASAN: double-free", "KASAN-INVALID-FREE" },
	{ "KASAN: invalid-free", "KASAN-INVALID-FREE" },
	{ "KASAN: slab-use-after-free Write", "KASAN-USE-AFTER-FREE-WRITE" },
	{ "KASAN: use-after-free Write", "KASAN-USE-AFTER-FREE-WRITE" },
	{ "KASAN: slab-use-after-free", "KASAN-USE-AFTER-FREE-READ" },
	{ "KASAN: use-after-free", "KASAN-USE-AFTER-FREE-READ" },
	{ "KASAN: global-out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: slab-out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: stack-out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: user-memory-access Write", "KASAN-WRITE" },
	{ "KASAN: vmalloc-out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: wild-memory-access Write", "KASAN-WRITE" },
	{ "KASAN: use-after-scope Write", "KASAN-WRITE" },
	{ "KASAN: alloca-out-of-bounds Write", "KASAN-WRITE" },
	{ "KASAN: invalid-access Write", "KASAN-WRITE" },
	{ "KASAN: global-out-of-bounds", "KASAN-READ" },
	{ "KASAN: out-of-bounds", "KASAN-READ" },
	{ "KASAN: slab-out-of-bounds", "KASAN-READ" },
	{ "KASAN: stack-out-of-bounds", "KASAN-READ" },
	{ "KASAN: user-memory-access", "KASAN-READ" },
	{ "KASAN: vmalloc-out-of-bounds", "KASAN-READ" },
	{ "KASAN: wild-memory-access", "KASAN-READ" },
	{ "KASAN: use-after-scope", "KASAN-READ" },
	{ "KASAN: alloca-out-of-bounds", "KASAN-READ" },
	{ "KASAN: invalid-access", "KASAN-READ" },
	{ "KASAN: unknown-crash", "KASAN-READ" },
	{ "KASAN:", "KASAN-UNKNOWN" },

	{ "BUG: unable to handle kernel NULL pointer dereference", "NULL-POINTER-DEREFERENCE" },
	{ "BUG: unable to handle kernel", "MEMORY_SAFETY_BUG" },
	{ "BUG: corrupted list", "MEMORY_SAFETY_BUG" },
	{ "BUG: page table check failed", "MEMORY_SAFETY_BUG" },
	{ "WARNING: refcount bug", "REFCOUNT_WARNING" },
	{ "UBSAN: array-index-out-of-bounds", "MEMORY_SAFETY_UBSAN" },
	{ "KCSAN: data-race", "KCSAN-DATARACE" },
	{ "KCSAN: assert: race in", "KCSAN-ASSERT" },
	{ "KCSAN:", "KCSAN-UNKNOWN" },

	{ "BUG: bad unlock balance in", "LOCKDEP" },
	{ "BUG: held lock freed in", "LOCKDEP" },
	{ "BUG: rwlock", "LOCKDEP" },
	{ "BUG: spinlock", "LOCKDEP" },
	{ "BUG: still has locks held in", "LOCKDEP" },
	{ "BUG: using", "LOCKDEP" },
	{ "WARNING: bad unlock balance in", "LOCKDEP" },
	{ "WARNING: held lock freed in", "LOCKDEP" },
	{ "WARNING: lock held", "LOCKDEP" },
	{ "WARNING: locking bug in", "LOCKDEP" },
	{ "WARNING: nested lock was not taken in", "LOCKDEP" },
	{ "WARNING: still has locks held in", "LOCKDEP" },
	{ "WARNING: suspicious RCU usage in", "LOCKDEP" },
	{ "inconsistent lock state in", "LOCKDEP" },
	{ "possible deadlock in", "LOCKDEP" },

	{ "BUG: scheduling while atomic in", "ATOMIC_SLEEP" },
	{ "BUG: sleeping function called from invalid context in", "ATOMIC_SLEEP" },
	{ "memory leak in", "LEAK" },
	{ "BUG: bad usercopy in", "BUG" },
	{ "kernel BUG", "BUG" },
	{ "WARNING in", "WARNING" },

	/* printk()s rather than bugs of a known kind */
	{ "BUG: stack guard page was hit in", "UNKNOWN" },
	{ "WARNING: corrupted", "UNKNOWN" },
	{ "WARNING: kernel stack frame pointer has bad value", "UNKNOWN" },
	{ "WARNING: kernel stack regs has bad", "UNKNOWN" },

	{ "BUG: soft lockup in", "HANG" },
	{ "INFO: rcu detected stall in", "HANG" },
	{ "INFO: task can't die in", "HANG" },
	{ "INFO: task hung in", "HANG" },

	{ "Alignment trap in", "DoS" },
	{ "BUG: Object already free", "DoS" },
	{ "Internal error in", "DoS" },
	{ "PANIC: double fault", "DoS" },
	{ "Unhandled fault in", "DoS" },
	{ "VFS: Busy inodes after unmount (use-after-free)", "DoS" },
	{ "VFS: Close: file count is zero (use-after-free)", "DoS" },
	{ "divide error in", "DoS" },
	{ "general protection fault in", "DoS" },
	{ "invalid opcode in", "DoS" },
	{ "kernel panic:", "DoS" },
	{ "kernel stack overflow", "DoS" },
	{ "stack segment fault in", "DoS" },
	{ "trusty:", "DoS" },
	{ "int3 in", "DoS" },
	{ "unregister_netdevice: waiting for", "DoS" },
	{ "go runtime error", "DoS" },
	{ "unexpected kernel reboot", "REBOOT" },

	{ "SYZFAIL", "SYZ_FAILURE" },
	{ "SYZFATAL:", "SYZ_FAILURE" },

	/* whatever else a kind prints */
	{ "WARNING:", "WARNING" },
	{ "BUG:", "UNKNOWN" },
	{ "INFO:", "UNKNOWN" },
	{ "UBSAN:", "UBSAN" },
};

const char *mmf_title_type(const char *title)
{
	for (size_t i = 0; i < ARRAY_SIZE(title_types); i++)
		if (!strncmp(title, title_types[i].prefix, strlen(title_types[i].prefix)))
			return title_types[i].type;
	return "UNKNOWN";
}
