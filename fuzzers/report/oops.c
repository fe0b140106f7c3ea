// SPDX-License-Identifier: GPL-2.0
/*
 * The oopses table: every kind of report the parser knows, one row per
 * format. A console line containing a kind's header (and matching its
 * line_re, and none of its ignore patterns) starts a report of that kind.
 * Then the kind's formats are tried on the report text: the one whose
 * title regex matches first (earliest in the text, then earliest in the
 * table) gives the title. See struct oops_fmt in internal.h and
 * CONTRIBUTING.md ("Adding a report format") for how to add a row.
 *
 * Titles follow syzkaller's conventions so that they can be compared with
 * syzbot's: "<what> in <guilty frame>", and the same words for the same
 * kind of bug whatever the arch prints.
 */
#include "report/internal.h"

/* The faulting instruction: x86 "RIP: 0010:foo+0x1/0x2", arm64 "pc : foo+0x1/0x2". */
#define RIP_FRAME							\
	"(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:{{PC}} +){0,2}{{FUNC}}|"	\
	"(?:[0-9]+:)?0x[0-9a-f]+|(?:[0-9]+:)?{{PC}} +\\[< *\\(null\\)>\\] +\\(null\\)|" \
	"[0-9]+: +\\(null\\))"
#define CALL_TRACE "(?:Call (?:T|t)race:)|(?:Backtrace:)"

static const struct stack_spec rip_then_trace = {
	.parts = { RIP_FRAME, CALL_TRACE, STACK },
};
static const struct stack_spec rip_only = {
	.parts = { RIP_FRAME },
};
static const struct stack_spec call_trace = {
	.parts = { CALL_TRACE, STACK },
};

#define TRACE_SKIPPING(skip_re) (&(const struct stack_spec){		\
	.parts = { CALL_TRACE, STACK }, .skip = skip_re })

/* WARN() traps; the stack starts after the trap frame, or after "Call Trace:". */
#define WARN_STACK(skip_re) (&(const struct stack_spec){		\
	.parts = { "(?:" RIP_FRAME "|--- interrupt: [0-9]+ at {{FUNC}})", STACK }, \
	.parts2 = { CALL_TRACE, STACK },				\
	.skip = skip_re })

#define KASAN_BAD_FREE \
	"BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in {{FUNC}}"
#define KFENCE_FRAME "BUG: KFENCE: (?:[-a-z ]+) in {{FUNC}}"
#define KMSAN_ORIGIN "(?:Local variable .* created at:|Uninit was created at:)"
#define LOCK_AT "at: (?:{{PC}} +)?{{FUNC}}"

static const struct oops_fmt mmfuzz_corruption[] = {
	{ .title = "(DATA CORRUPTION:.*)", .fmt = "%1", .flags = OOPS_NO_STACK | OOPS_FREE_TEXT },
	{ NULL },
};

static const struct oops_fmt mmfuzz_accounting[] = {
	{ .title = "(ACCOUNTING:.*)", .fmt = "%1", .flags = OOPS_NO_STACK | OOPS_FREE_TEXT },
	{ NULL },
};

static const struct oops_fmt bug_fmts[] = {
	{
		.title = "BUG: KASAN:",
		.report = {
			"BUG: KASAN: ([-a-z]+) in {{FUNC}}",
			"(Read|Write) (?:of size|at addr) (?:[0-9a-f]+)",
		},
		.fmt = "KASAN: %1 %3 in %4",
		.alt = { "bad-access in %4" },
		.stack = &(const struct stack_spec){
			.parts = { "BUG: KASAN: (?:[-a-z]+) in {{FUNC}}", CALL_TRACE, STACK },
			/* hardware tag faults go through the arm64 fault handlers */
			.skip = "kernel_fault|tag_check|mem_abort|^el1_|^el1h_",
		},
	},
	{
		.title = "BUG: KASAN:",
		.report = { KASAN_BAD_FREE },
		.fmt = "KASAN: invalid-free in %2",
		.alt = { "invalid-free in %2" },
		.stack = &(const struct stack_spec){
			.parts = { KASAN_BAD_FREE, CALL_TRACE, STACK },
			.skip = "slab_|kfree|vunmap|vfree",
		},
	},
	{
		/* old KASAN */
		.title = "BUG: KASAN: ([-a-z]+) on address",
		.report = {
			"BUG: KASAN: ([-a-z]+) on address",
			"(Read|Write) of size ([0-9]+)",
		},
		.fmt = "KASAN: %1 %2",
	},
	{ .title = "BUG: KASAN: (.*)", .fmt = "KASAN: %1", .flags = OOPS_CORRUPTED },
	{
		.title = "BUG: KMSAN: kernel-usb-infoleak",
		.report = { "BUG: KMSAN: kernel-usb-infoleak in {{FUNC}}" },
		.fmt = "KMSAN: kernel-usb-infoleak in %2",
		.alt = { "KMSAN origin in %3" },
		.stack = &(const struct stack_spec){
			.parts = { STACK, KMSAN_ORIGIN, STACK },
			.skip = "alloc_skb|usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|"
				"usb_interrupt_msg|usb_control_msg",
		},
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: KMSAN:",
		.report = { "BUG: KMSAN: ([-a-z]+) in {{FUNC}}" },
		.fmt = "KMSAN: %1 in %3",
		.alt = { "bad-access in %3" },
		.stack = &(const struct stack_spec){
			.parts = { STACK, KMSAN_ORIGIN, STACK },
			/* generic crypto code is where uninit data is used, not made */
			.skip = "alloc_skb|netlink_ack|netlink_rcv_skb|_encrypt$|"
				"^(?:crypto|cipher|drbg|rng)_",
		},
		.flags = OOPS_NO_STACK,
	},
	{
		/* The kernel names both functions, sorted: one title per pair,
		 * without the compiler's .constprop/.isra suffixes.
		 */
		.title = "BUG: KCSAN: data-race in [^ ]+ / ",
		.report = { "BUG: KCSAN: data-race in ([a-zA-Z0-9_]+)[^ ]* / ([a-zA-Z0-9_]+)" },
		.fmt = "KCSAN: data-race in %1 / %2",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: KCSAN:",
		.report = { "BUG: KCSAN: (.*)" },
		.fmt = "KCSAN: %1",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: KFENCE: (use-after-free|out-of-bounds) (read|write) in {{FUNC}}",
		.fmt = "KFENCE: %1 %2 in %4",
		.alt = { "bad-access in %4" },
		.stack = &(const struct stack_spec){ .parts = { KFENCE_FRAME, STACK } },
	},
	{
		.title = "BUG: KFENCE: invalid free in {{FUNC}}",
		.fmt = "KFENCE: invalid free in %2",
		.alt = { "invalid-free in %2" },
		.stack = &(const struct stack_spec){ .parts = { KFENCE_FRAME, STACK } },
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: KFENCE: invalid (read|write) in {{FUNC}}",
		.fmt = "KFENCE: invalid %1 in %3",
		.alt = { "bad-access in %3" },
		.stack = &(const struct stack_spec){ .parts = { KFENCE_FRAME, STACK } },
	},
	{
		.title = "BUG: KFENCE: memory corruption in {{FUNC}}",
		.fmt = "KFENCE: memory corruption in %2",
		.stack = &(const struct stack_spec){ .parts = { KFENCE_FRAME, STACK } },
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: (?:unable to handle kernel paging request|"
			 "unable to handle page fault for address|"
			 "Unable to handle kernel data access)",
		.fmt = "BUG: unable to handle kernel paging request in %1",
		.alt = { "bad-access in %1" },
		.stack = &rip_then_trace,
	},
	{
		.title = "BUG: (?:unable to handle kernel NULL pointer dereference|"
			 "kernel NULL pointer dereference|Kernel NULL pointer dereference)",
		.fmt = "BUG: unable to handle kernel NULL pointer dereference in %1",
		.alt = { "bad-access in %1" },
		.stack = &rip_then_trace,
	},
	{
		/* the second half of the header is a separate printk, maybe lost */
		.title = "BUG: (?:unable to handle kernel|Unable to handle kernel)",
		.fmt = "BUG: unable to handle kernel",
		.flags = OOPS_CORRUPTED,
	},
	{
		.title = "BUG: (spinlock|rwlock) (lockup suspected|already unlocked|recursion|"
			 "cpu recursion|bad magic|wrong owner|wrong CPU|trylock failure on UP)",
		.fmt = "BUG: %1 %2 in %3",
		.stack = TRACE_SKIPPING("spin_|_lock|_unlock"),
	},
	{
		.title = "BUG: soft lockup",
		.fmt = "BUG: soft lockup in %1",
		.alt = { "stall in %1" },
		.stack = &(const struct stack_spec){
			.parts = { RIP_FRAME, CALL_TRACE, STACK },
			.pick = PICK_STALL,
		},
	},
	{
		.title = "BUG: .*still has locks held!",
		.report = { "BUG: .*still has locks held!", "{{PC}} +{{FUNC}}" },
		.fmt = "BUG: still has locks held in %1",
	},
	{
		.title = "BUG: scheduling while atomic",
		.fmt = "BUG: scheduling while atomic in %1",
		.stack = TRACE_SKIPPING("schedule"),
	},
	{
		.title = "BUG: lock held when returning to user space",
		.report = {
			"BUG: lock held when returning to user space",
			"leaving the kernel with locks still held",
			LOCK_AT,
		},
		.fmt = "BUG: lock held when returning to user space in %1",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: bad unlock balance detected!",
		.fmt = "BUG: bad unlock balance in %1",
		.stack = &(const struct stack_spec){
			.parts = { "{{PC}} +{{FUNC}}", CALL_TRACE, STACK },
		},
	},
	{
		.title = "BUG: held lock freed!",
		.report = { "BUG: held lock freed!", "{{PC}} +{{FUNC}}" },
		.fmt = "BUG: held lock freed in %1",
	},
	/* mm teardown checks: printed once at exit, no useful stack */
	{ .title = "BUG: Bad rss-counter state", .fmt = "BUG: Bad rss-counter state",
	  .flags = OOPS_NO_STACK },
	{ .title = "BUG: non-zero nr_ptes on freeing mm",
	  .fmt = "BUG: non-zero nr_ptes on freeing mm", .flags = OOPS_NO_STACK },
	{ .title = "BUG: non-zero nr_pmds on freeing mm",
	  .fmt = "BUG: non-zero nr_pmds on freeing mm", .flags = OOPS_NO_STACK },
	{ .title = "BUG: non-zero pgtables_bytes on freeing mm",
	  .fmt = "BUG: non-zero pgtables_bytes on freeing mm", .flags = OOPS_NO_STACK },
	{
		/* fs type and block device would only split duplicates */
		.title = "BUG: Dentry .* still in use",
		.report = { "BUG: Dentry .* still in use \\([0-9]+\\) \\[(unmount) of ([^]]+)\\]" },
		.fmt = "BUG: Dentry still in use in %1",
		.alt = { "BUG: Dentry still in use [%1 of %2]" },
	},
	{
		/*
		 * With page_owner the page's allocation stack names the code
		 * that leaked or corrupted it; without it fall back to where
		 * the bad page was noticed.
		 */
		.title = "BUG: Bad page (state|cache)",
		.fmt = "BUG: Bad page %1 in %2",
		.stack = &(const struct stack_spec){
			.parts = { "page last allocated", STACK },
			.parts2 = { CALL_TRACE, STACK },
			.skip = "(?:free|put|get|update|release)_page|free_unref|^_*folio|"
				"truncate_inode_pages|page_frag_free|alloc|vmap|page_owner|"
				"bad_page|page_is_bad|page_expected_state|check_new_page|"
				"free_pages_prepare|free_pcp|free_one_page|free_frozen_pages",
		},
	},
	{
		/* zap_pte_range() vs copy_pte_range() are different bugs */
		.title = "BUG: Bad page map",
		.fmt = "BUG: Bad page map in %1",
		.alt = { "BUG: Bad page map" },
		.flags = OOPS_ALT_IF_NO_STACK,
		.stack = TRACE_SKIPPING("print_bad_pte|print_bad_page_map|vm_normal_page|"
					"vm_normal_folio"),
	},
	{ .title = "BUG: workqueue lockup", .fmt = "BUG: workqueue lockup",
	  .flags = OOPS_NO_STACK },
	{
		.title = "BUG: sleeping function called from invalid context at (.*)",
		.fmt = "BUG: sleeping function called from invalid context in %2",
		.stack = &call_trace,
	},
	{
		.title = "BUG: using ([a-z_]+)\\(\\) in preemptible",
		.fmt = "BUG: using %1() in preemptible code in %2",
		.stack = TRACE_SKIPPING("dump_stack|preemption|preempt|debug_|processor_id|"
					"this_cpu"),
	},
	{
		.title = "BUG: workqueue leaked lock or atomic",
		.report = {
			"BUG: workqueue leaked lock or atomic",
			"last function: ([a-zA-Z0-9_]+)$",
		},
		.fmt = "BUG: workqueue leaked lock or atomic in %1",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "BUG: memory leak",
		.fmt = "memory leak in %1",
		.stack = &(const struct stack_spec){
			.parts = { "backtrace(?: \\(crc [[:xdigit:]]*\\))?:", STACK },
			.skip = "kmemleak|mmap|kmem|slab|alloc|create_object|idr_get|"
				"list_lru_init|kasprintf|kvasprintf|pcpu_create|strdup|"
				"strndup|memdup",
		},
	},
	{
		.title = "BUG: .*stack guard page was hit at",
		.fmt = "BUG: stack guard page was hit in %1",
		.alt = { "stack-overflow in %1" },
		.stack = &(const struct stack_spec){
			.parts = { RIP_FRAME, CALL_TRACE, STACK },
			.pick = PICK_STALL,
		},
	},
	{
		/* arm's wording of amd64's lockdep "WARNING: ... lock_" */
		.title = "BUG: Invalid wait context",
		.fmt = "WARNING: locking bug in %1",
		.stack = TRACE_SKIPPING("lock_sock|release_sock"),
	},
	{ .title = "BUG:[ \t]*$", .fmt = "BUG: corrupted", .flags = OOPS_CORRUPTED },
	{ NULL },
};

static const struct oops_fmt warning_fmts[] = {
	{
		.title = "WARNING: .*lib/debugobjects\\.c.* (?:debug_print|debug_check|at)",
		.fmt = "WARNING: ODEBUG bug in %1",
		/* and the users of debug objects */
		.stack = WARN_STACK("debug_|rcu|hrtimer_|timer_|work_|percpu_|vunmap|"
				    "vfree|__free_|debug_check|kobject_"),
	},
	{
		.title = "WARNING: .*mm/usercopy\\.c.* (?:usercopy_warn|at)",
		.fmt = "WARNING: bad usercopy in %1",
		.stack = WARN_STACK("usercopy|__check"),
	},
	{
		.title = "WARNING: .*lib/kobject\\.c.* (?:kobject_|at)",
		.fmt = "WARNING: kobject bug in %1",
		.stack = WARN_STACK("kobject_"),
	},
	{
		.title = "WARNING: .*fs/proc/generic\\.c.* (?:proc_register|at)",
		.fmt = "WARNING: proc registration bug in %1",
		.stack = WARN_STACK("proc_"),
	},
	{
		.title = "WARNING: .*lib/refcount\\.c.* (?:refcount_|at)",
		.fmt = "WARNING: refcount bug in %1",
		.stack = WARN_STACK("refcount|kobject_"),
	},
	{
		.title = "WARNING: .*kernel/locking/lockdep\\.c.*lock_",
		.fmt = "WARNING: locking bug in %1",
		.stack = WARN_STACK("lock_sock|release_sock"),
	},
	{
		.title = "WARNING: .*still has locks held!",
		.report = { "WARNING: .*still has locks held!", "at: {{FUNC}}" },
		.fmt = "WARNING: still has locks held in %1",
	},
	{
		.title = "WARNING: Nested lock was not taken",
		.fmt = "WARNING: nested lock was not taken in %1",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: lock held when returning to user space",
		.report = {
			"WARNING: lock held when returning to user space",
			"leaving the kernel with locks still held",
			LOCK_AT,
		},
		.fmt = "WARNING: lock held when returning to user space in %1",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "WARNING: .*mm/.*\\.c.* k?.?malloc",
		.fmt = "WARNING: kmalloc bug in %1",
		.stack = WARN_STACK("kmalloc|krealloc|slab|kmem"),
	},
	{
		.title = "WARNING: .*mm/vmalloc.c.*__vmalloc_node",
		.fmt = "WARNING: zero-size vmalloc in %1",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: .* usb_submit_urb",
		.fmt = "WARNING in %1/usb_submit_urb",
		.stack = WARN_STACK("usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|"
				    "usb_interrupt_msg|usb_control_msg"),
	},
	{
		/* since 6.19: "WARNING: mm/foo.c:12 at 0x0, CPU#1: comm/123" */
		.title = "WARNING: {{SRC}} at 0x[0-9]+, CPU#[0-9]+",
		.fmt = "WARNING in %2",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: .* at {{SRC}} {{FUNC}}",
		.fmt = "WARNING in %3",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: {{SRC}} at {{FUNC}}",
		.fmt = "WARNING in %3",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: \\[.*\\] {{SRC}} at {{FUNC}}.*",
		.fmt = "WARNING in %3",
		.stack = WARN_STACK(NULL),
	},
	{
		.title = "WARNING: possible circular locking dependency detected",
		.report = {
			"WARNING: possible circular locking dependency detected",
			"is trying to acquire lock",
		},
		.fmt = "possible deadlock in %1",
		.stack = &(const struct stack_spec){
			.parts = { LOCK_AT, LOCK_AT, STACK },
			/* these take locks on behalf of work items */
			.skip = "process_one_work|flush_workqueue|drain_workqueue|"
				"destroy_workqueue",
		},
	},
	{
		.title = "WARNING: possible irq lock inversion dependency detected",
		.report = {
			"WARNING: possible irq lock inversion dependency detected",
			"just changed the state of lock",
			LOCK_AT,
		},
		.fmt = "possible deadlock in %1",
	},
	{
		.title = "WARNING: .*-safe -> .*-unsafe lock order detected",
		.fmt = "possible deadlock in %1",
		.stack = &(const struct stack_spec){
			.parts = { "which became (?:.*) at:", STACK },
		},
	},
	{
		.title = "WARNING: possible recursive locking detected",
		.report = {
			"WARNING: possible recursive locking detected",
			"is trying to acquire lock",
			LOCK_AT,
		},
		.fmt = "possible deadlock in %1",
	},
	{
		.title = "WARNING: inconsistent lock state",
		.report = {
			"WARNING: inconsistent lock state",
			"takes",
			LOCK_AT,
		},
		.fmt = "inconsistent lock state in %2",
		.stack = &call_trace,
	},
	{
		.title = "WARNING: suspicious RCU usage",
		.report = { "WARNING: suspicious RCU usage", "{{SRC}}" },
		.fmt = "WARNING: suspicious RCU usage in %2",
		.stack = TRACE_SKIPPING("rcu|kmem|slab"),
	},
	{
		.title = "WARNING: kernel stack regs at [0-9a-f]+ in [^ ]* has bad '([^']+)' value",
		.fmt = "WARNING: kernel stack regs has bad '%1' value",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "WARNING: kernel stack frame pointer at [0-9a-f]+ in [^ ]* has bad value",
		.fmt = "WARNING: kernel stack frame pointer has bad value",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "WARNING: bad unlock balance detected!",
		.fmt = "WARNING: bad unlock balance in %1",
		.stack = &(const struct stack_spec){
			.parts = { "{{PC}} +{{FUNC}}", CALL_TRACE, STACK },
		},
	},
	{
		.title = "WARNING: held lock freed!",
		.report = { "WARNING: held lock freed!", "at:(?: {{PC}})? +{{FUNC}}" },
		.fmt = "WARNING: held lock freed in %1",
	},
	{
		.title = "WARNING: kernel stack regs .* has bad 'bp' value",
		.fmt = "WARNING: kernel stack regs has bad value",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "WARNING: kernel stack frame pointer .* has bad value",
		.fmt = "WARNING: kernel stack regs has bad value",
		.flags = OOPS_NO_STACK,
	},
	{ .title = "WARNING:[ \t]*$", .fmt = "WARNING: corrupted", .flags = OOPS_CORRUPTED },
	{ NULL },
};

/* lockdep before 4.15 said "INFO: ... ]" */
#define OLD_LOCKDEP(header, second)					\
	{								\
		.title = header,					\
		.report = {						\
			header " \\]", second,			\
			"at: {{PC}} +{{FUNC}}",				\
		},							\
		.fmt = "possible deadlock in %1",			\
	}

static const struct oops_fmt info_fmts[] = {
	OLD_LOCKDEP("INFO: possible circular locking dependency detected",
		    "is trying to acquire lock"),
	OLD_LOCKDEP("INFO: possible irq lock inversion dependency detected",
		    "just changed the state of lock"),
	OLD_LOCKDEP("INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected",
		    "is trying to acquire"),
	OLD_LOCKDEP("INFO: possible recursive locking detected", "is trying to acquire lock"),
	{
		.title = "INFO: inconsistent lock state",
		.report = {
			"INFO: inconsistent lock state \\]", "takes",
			"at: {{PC}} +{{FUNC}}",
		},
		.fmt = "inconsistent lock state in %1",
	},
	{
		.title = "INFO: rcu_(?:preempt|sched|bh|tasks[_a-z]*) (?:self-)?detected"
			 "(?: expedited)? stall",
		.fmt = "INFO: rcu detected stall in %1",
		.alt = { "stall in %1" },
		.stack = &(const struct stack_spec){
			/* the interrupted code is below the timer interrupt */
			.parts = { "apic_timer_interrupt", RIP_FRAME, STACK },
			.parts2 = { "(?:apic_timer_interrupt|Exception stack|el1h_64_irq)", STACK },
			.skip = "apic_timer_interrupt|rcu",
			.pick = PICK_STALL,
		},
	},
	{
		.title = "INFO: trying to register non-static key",
		.fmt = "INFO: trying to register non-static key in %1",
		.stack = TRACE_SKIPPING("stack|lock|IRQ"),
	},
	{
		.title = "INFO: suspicious RCU usage",
		.report = { "INFO: suspicious RCU usage", "{{SRC}}" },
		.fmt = "INFO: suspicious RCU usage in %2",
		.stack = TRACE_SKIPPING("rcu|kmem|slab"),
	},
	{
		/* a task's name may hold a newline: its comm is whatever it set */
		.title = "INFO: task .*(?:\n.*)? blocked (?:in I/O wait )?for more than [0-9]+ seconds",
		.fmt = "INFO: task hung in %1",
		.alt = { "hang in %1" },
		.stack = &(const struct stack_spec){
			.parts = { CALL_TRACE, STACK },
			.pick = PICK_HANG,
		},
	},
	{
		.title = "INFO: task .* can't die for more than .* seconds",
		.fmt = "INFO: task can't die in %1",
		.alt = { "hang in %1" },
		.stack = TRACE_SKIPPING("schedule"),
	},
	{
		/* what is left of an old-style KASAN report */
		.title = "INFO: (Freed|Allocated) in (.*)",
		.fmt = "INFO: %1 in %2",
		.flags = OOPS_CORRUPTED,
	},
	{ .title = "INFO:[ \t]*$", .fmt = "INFO: corrupted", .flags = OOPS_CORRUPTED },
	{ NULL },
};

static const struct oops_fmt arm_unable_fmts[] = {
	{
		.title = "Unable to handle kernel (paging request|NULL pointer dereference|"
			 "access to user memory)",
		.fmt = "BUG: unable to handle kernel %1 in %2",
		.alt = { "bad-access in %2" },
		.stack = &rip_then_trace,
	},
	{ NULL },
};

static const struct oops_fmt gpf_fmts[] = {
	{
		.title = "general protection fault.*:",
		.fmt = "general protection fault in %1",
		.alt = { "bad-access in %1" },
		.stack = &rip_then_trace,
	},
	{ NULL },
};

static const struct oops_fmt stack_segment_fmts[] = {
	{ .title = "stack segment: ", .fmt = "stack segment fault in %1",
	  .stack = &rip_then_trace },
	{ NULL },
};

static const struct oops_fmt panic_fmts[] = {
	{
		/* the unwinder may fail on a smashed stack: trust the message */
		.title = "Kernel panic - not syncing: stack-protector:",
		.report = { "Kernel panic - not syncing: stack-protector: "
			    "Kernel stack is corrupted in: {{FUNC}}" },
		.fmt = "kernel panic: stack is corrupted in %1",
		.flags = OOPS_NO_STACK,
	},
	{
		.title = "Kernel panic - not syncing: stack-protector:",
		.report = { "Kernel panic - not syncing: stack-protector: "
			    "Kernel stack is corrupted in: [a-f0-9]+" },
		.fmt = "kernel panic: stack is corrupted in %1",
		.stack = TRACE_SKIPPING("stack_chk"),
	},
	{
		.title = "Kernel panic - not syncing: corrupted stack end",
		.report = { "Kernel panic - not syncing: corrupted stack end "
			      "detected inside scheduler" },
		.fmt = "kernel panic: corrupted stack end in %1",
		.alt = { "stack-overflow in %1" },
		.stack = &(const struct stack_spec){
			.parts = { CALL_TRACE, STACK },
			.skip = "schedule|retint_kernel",
			.pick = PICK_STALL,
		},
	},
	{
		.title = "Kernel panic - not syncing: kernel stack overflow",
		.fmt = "kernel stack overflow in %1",
		.alt = { "stack-overflow in %1" },
		.stack = &(const struct stack_spec){
			.parts = { CALL_TRACE, STACK },
			.skip = "bad_stack",
			.pick = PICK_STALL,
		},
	},
	{ .title = "Kernel panic - not syncing: Attempted to kill init!",
	  .fmt = "kernel panic: Attempted to kill init!" },
	{ .title = "Kernel panic - not syncing: Couldn't open N_TTY ldisc for [^ ]+ "
		   "--- error -[0-9]+",
	  .fmt = "kernel panic: Couldn't open N_TTY ldisc" },
	/* these follow a report whose start we missed */
	{ .title = "Kernel panic - not syncing: Fatal exception",
	  .fmt = "kernel panic: Fatal exception", .flags = OOPS_CORRUPTED },
	{ .title = "Kernel panic - not syncing: panic_on_warn set",
	  .fmt = "kernel panic: panic_on_warn set", .flags = OOPS_CORRUPTED },
	{ .title = "Kernel panic - not syncing: hung_task: blocked tasks",
	  .fmt = "kernel panic: hung_task: blocked tasks", .flags = OOPS_CORRUPTED },
	{ .title = "Kernel panic - not syncing: (.*)", .fmt = "kernel panic: %1" },
	{ NULL },
};

static const struct oops_fmt double_fault_fmts[] = {
	{ .title = "PANIC: double fault", .fmt = "PANIC: double fault in %1", .stack = &rip_only },
	{ NULL },
};

static const struct oops_fmt kernel_bug_fmts[] = {
	{
		.title = "kernel BUG at mm/usercopy.c",
		.fmt = "BUG: bad usercopy in %1",
		.stack = TRACE_SKIPPING("usercopy|__check"),
	},
	{
		.title = "kernel BUG at lib/list_debug.c",
		.fmt = "BUG: corrupted list in %1",
		/* often a use-after-free or race underneath */
		.alt = { "bad-access in %1" },
		.stack = &call_trace,
	},
	{
		/* the culprit is whoever set or cleared the entry, not the checker */
		.title = "kernel BUG at mm/page_table_check.c",
		.fmt = "BUG: page table check failed in %1",
		.stack = TRACE_SKIPPING("page_table_check|^set_pte|^set_pmd|^set_pud|"
					"^ptep_|^pmdp_|^pudp_"),
	},
	{
		.title = "kernel BUG at (.*)",
		.fmt = "kernel BUG in %2",
		.stack = &(const struct stack_spec){
			.parts = { RIP_FRAME, CALL_TRACE, STACK },
			/* skb helpers BUG_ON() their callers' mistakes */
			.skip = "^skb_",
		},
	},
	{ NULL },
};

static const struct oops_fmt kernel_bug2_fmts[] = {
	{ .title = "Kernel BUG (.*)", .fmt = "kernel BUG %1" },
	{ NULL },
};

static const struct oops_fmt slub_fmts[] = {
	/* "BUG kmalloc-8 (Tainted: G B): Object already free" */
	{ .title = "BUG [^ ]+ \\([^)]*\\): (.*)", .fmt = "BUG: %1" },
	{ NULL },
};

static const struct oops_fmt divide_fmts[] = {
	{ .title = "divide(?: |_)error: ", .fmt = "divide error in %1", .stack = &rip_only },
	{ NULL },
};

static const struct oops_fmt invalid_op_fmts[] = {
	{ .title = "invalid opcode: ", .fmt = "invalid opcode in %1", .stack = &rip_only },
	{ NULL },
};

static const struct oops_fmt ubsan_fmts[] = {
	{
		.title = "UBSAN:",
		.report = { "UBSAN: Undefined behaviour in" },
		.fmt = "UBSAN: undefined-behaviour in %1",
		.stack = TRACE_SKIPPING("ubsan|overflow"),
	},
	{
		.title = "UBSAN: array-index-out-of-bounds in",
		.fmt = "UBSAN: array-index-out-of-bounds in %1",
		.alt = { "bad-access in %1" },
		.stack = TRACE_SKIPPING("ubsan|overflow"),
	},
	{
		.title = "UBSAN:",
		.report = { "UBSAN: ([^ ]+) in" },
		.fmt = "UBSAN: %1 in %2",
		.stack = TRACE_SKIPPING("ubsan|overflow"),
	},
	{ NULL },
};

static const struct oops_fmt vfs_close_fmts[] = {
	{ .title = "VFS: Close: file count is 0",
	  .fmt = "VFS: Close: file count is zero (use-after-free)", .flags = OOPS_NO_STACK },
	{ NULL },
};

static const struct oops_fmt vfs_busy_fmts[] = {
	{ .title = "VFS: Busy inodes after unmount",
	  .fmt = "VFS: Busy inodes after unmount (use-after-free)", .flags = OOPS_NO_STACK },
	{ NULL },
};

/* arm64 "Internal error: Oops", arm "Unhandled fault" and "Alignment trap" */
static const struct oops_fmt internal_error_fmts[] = {
	{ .title = "Internal error:", .fmt = "Internal error in %1",
	  .alt = { "bad-access in %1" }, .stack = &rip_then_trace },
	{ NULL },
};

static const struct oops_fmt unhandled_fault_fmts[] = {
	{ .title = "Unhandled fault:", .fmt = "Unhandled fault in %1",
	  .alt = { "bad-access in %1" }, .stack = &rip_then_trace },
	{ NULL },
};

static const struct oops_fmt alignment_fmts[] = {
	{ .title = "Alignment trap:", .fmt = "Alignment trap in %1", .stack = &rip_then_trace },
	{ NULL },
};

static const struct oops_fmt trusty_fmts[] = {
	{
		.title = "trusty: panic.* ASSERT FAILED",
		.report = { "trusty: panic \\([^)]*\\):(?: DEBUG)? ASSERT FAILED "
			    "at \\([^)]*\\): (.+)" },
		.fmt = "trusty: ASSERT FAILED: %1",
		.flags = OOPS_NO_STACK,
	},
	{ .title = "trusty: panic.* ASSERT FAILED.*: *([^:]*)$",
	  .fmt = "trusty: ASSERT FAILED: %1", .flags = OOPS_CORRUPTED },
	{
		.title = "trusty: panic",
		.report = { "trusty: panic \\([^)]*\\): (.+)" },
		.fmt = "trusty: panic: %1",
		.flags = OOPS_NO_STACK,
	},
	{ NULL },
};

/* x86's breakpoint trap in the kernel: a stray int3 or live text patching gone wrong */
static const struct oops_fmt int3_fmts[] = {
	{ .title = "int3: ", .fmt = "int3 in %1", .stack = &rip_then_trace },
	{ NULL },
};

/* The decompressor's line: a machine that rebooted without a report first. */
static const struct oops_fmt reboot_fmts[] = {
	{ .title = "^Booting the kernel", .fmt = "unexpected kernel reboot", .flags = OOPS_NO_STACK },
	{ NULL },
};

/* A device's references never dropped: the name (lo, a tunnel) differs, the bug not. */
static const struct oops_fmt netdev_fmts[] = {
	{ .title = "unregister_netdevice: waiting for .* to become free",
	  .fmt = "unregister_netdevice: waiting for DEV to become free", .flags = OOPS_NO_STACK },
	{ NULL },
};

/* Go's runtime dying (a host-side tool sharing the console), as syzbot names it. */
static const struct oops_fmt go_runtime_fmts[] = {
	{ .title = "fatal error:", .fmt = "go runtime error", .flags = OOPS_NO_STACK },
	{ NULL },
};

/* syzkaller's executor, found in logs imported from syzbot */
static const struct oops_fmt syzfail_fmts[] = {
	{ .title = "SYZFAIL:(.*)", .fmt = "SYZFAIL:%1", .flags = OOPS_NO_STACK },
	{ NULL },
};

static const struct oops_fmt syzfatal_fmts[] = {
	{ .title = "SYZFATAL:(.*)", .fmt = "SYZFATAL:%1", .alt = { "SYZFATAL" },
	  .flags = OOPS_NO_STACK },
	{ NULL },
};

const struct oops mmf_oopses[] = {
	/* mmfuzz's own oracles come first: their text is free-form */
	{ "DATA CORRUPTION:", NULL, mmfuzz_corruption, NULL },
	{ "ACCOUNTING:", NULL, mmfuzz_accounting, NULL },
	{
		"BUG:", NULL, bug_fmts, (const char *const[]){
			"ODEBUG:", "Boot_DEBUG:", "xlog_status:", "DEBUG:",
			"BUG: no syscalls can create resource", NULL,
		},
	},
	{
		"WARNING:", NULL, warning_fmts, (const char *const[]){
			"WARNING: /etc/ssh/moduli does not exist, using fixed modulus",
			"WARNING: workqueue cpumask: online intersect > possible intersect",
			"WARNING: [Tt]he mand mount option",
			"WARNING: Unsupported flag value\\(s\\) of 0x%x in DT_FLAGS_1",
			"WARNING: Unprivileged eBPF is enabled with eIBRS",
			"WARNING: fbcon: Driver '.*' missed to adjust virtual screen size",
			"WARNING: See https.* for mitigation options.",
			"WARNING: kernel not compiled with CPU_SRSO",
			"EXT4-[Ff][Ss](?: \\(.*\\))?:",
			"(?i)warning: .* uses (?:deprecated v2 capabilities|wireless extensions)",
			"XFS \\([0-9A-Za-z_]+\\): WARNING",
			NULL,
		},
	},
	{
		"INFO:", NULL, info_fmts, (const char *const[]){
			"INFO: lockdep is turned off",
			"INFO: Stall ended before state dump start",
			"INFO: NMI handler",
			"INFO: recovery required on readonly filesystem",
			"(?:handler|interrupt).*took too long",
			"INFO: sys_.* is not present in /proc/kallsyms",
			"INFO: no syscalls can create resource",
			"rmt_storage:INFO:",
			"_INFO:",
			NULL,
		},
	},
	{ "Unable to handle kernel", NULL, arm_unable_fmts, NULL },
	{
		"general protection fault", NULL, gpf_fmts, (const char *const[]){
			/* user space segfault */
			"general protection fault .* error:[0-9]+ in ", NULL,
		},
	},
	{ "stack segment: ", NULL, stack_segment_fmts, NULL },
	{ "Kernel panic", NULL, panic_fmts, NULL },
	{ "PANIC: double fault", NULL, double_fault_fmts, NULL },
	{ "kernel BUG", NULL, kernel_bug_fmts, NULL },
	{ "Kernel BUG", NULL, kernel_bug2_fmts, NULL },
	{
		/* SLUB debugging: "BUG <cache> (<taint>): <what>" */
		"BUG ", "BUG [^ ]+ \\((?:Not tainted|Tainted: [^)]*)\\): ", slub_fmts,
		(const char *const[]){
			/* old KASAN printed its header this way */
			"\\): kasan: bad access detected", NULL,
		},
	},
	{ "divide error:", NULL, divide_fmts, NULL },
	{ "divide_error:", NULL, divide_fmts, NULL },
	{ "invalid opcode:", NULL, invalid_op_fmts, NULL },
	{ "UBSAN:", NULL, ubsan_fmts, NULL },
	{ "VFS: Close: file count is 0", NULL, vfs_close_fmts, NULL },
	{ "VFS: Busy inodes after unmount", NULL, vfs_busy_fmts, NULL },
	{ "Internal error:", NULL, internal_error_fmts, NULL },
	{ "Unhandled fault:", NULL, unhandled_fault_fmts, NULL },
	{ "Alignment trap:", NULL, alignment_fmts, NULL },
	{ "trusty: panic", NULL, trusty_fmts, NULL },
	{ "int3:", NULL, int3_fmts, NULL },
	{
		"Booting the kernel.", NULL, reboot_fmts, (const char *const[]){
			/* the boot's own line, or the text echoed back as a bad option */
			"Parsing ELF|Decompressing Linux|Unknown parameter '", NULL,
		},
	},
	{ "unregister_netdevice: waiting for", NULL, netdev_fmts, NULL },
	{
		"fatal error:", NULL, go_runtime_fmts, (const char *const[]){
			"ALSA", "fatal error: cannot create timer", NULL,
		},
	},
	{ "SYZFAIL:", NULL, syzfail_fmts, NULL },
	{ "SYZFATAL:", NULL, syzfatal_fmts, NULL },
};

const size_t mmf_nr_oopses = ARRAY_SIZE(mmf_oopses);

const char *const mmf_mid_report[] = {
	"invalid opcode: 0000",
	"Kernel panic - not syncing",
	/* a fault while handling a fault, usually on the same CPU */
	"PANIC: double fault",
	"Internal error:",
	/* printed every 10 s by another task while this one's report goes on */
	"unregister_netdevice: waiting for",
	NULL,
};

const char *const mmf_stack_dumpers[] = {
	"vmalloc: allocation failure:",
	"FAULT_INJECTION: forcing a failure",
	"FAULT_FLAG_ALLOW_RETRY missing",
	NULL,
};
