// SPDX-License-Identifier: GPL-2.0
/*
 * Stack traces: which lines start one, which lines are frames, which
 * frames are generic helpers rather than the code that went wrong, and
 * how a report format's stack_spec picks its guilty frame.
 *
 * Frame lines look like
 *   x86_64:  " dump_stack+0x1db/0x2d0" or " [<ffffffff81234567>] foo+0x1/0x2"
 *   arm64:   " foo+0x1c/0x40" after "Call trace:", "pc : foo+0x1c/0x40"
 *   arm:     "[<c0101234>] (foo) from [<c0105678>] (bar+0x10/0x20)"
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

const char *const mmf_stack_starts[] = {
	"Call (?:T|t)race",
	"Allocated:",
	"Allocated by task [0-9]+:",
	"Freed:",
	"Freed by task [0-9]+:",
	/* kmemleak's "backtrace:", not lockdep's "stack backtrace:" */
	"[^k] backtrace(?: \\(crc [[:xdigit:]]*\\))?:",
	"Backtrace:",
	"Uninit was stored to memory at",
	NULL,
};

static const char *const frame_res[] = {
	"^ *(?:{{PC}} ){0,2}{{FUNC}}",
	/* arm: both frames, the callee's is not printed elsewhere */
	"^ *{{PC}} \\(([a-zA-Z0-9_.]+)\\) from {{PC}} \\({{FUNC}}",
	NULL,
};

/* Fault injection stacks get mixed into reports; seeing one spoils it. */
static const char corrupted_frame[] =
	"^(?: \\[<?(?:0x)?[0-9a-f]+>?\\])? should_fail(?:slab)?(?:\\.[a-z0-9.]+)?\\+0x";

/*
 * Frames that are never the culprit: the function that reported, checked,
 * allocated, locked, copied or printed on behalf of its caller.
 */
static const char skip_helpers[] =
	/* sanitizers and their checks */
	"__sanitizer|__asan|kasan|hwasan|__msan|kmsan|kcsan_setup_watchpoint|"
	"check_memory_region|check_heap_object|check_object|read_word_at_a_time|"
	"(?:read|write)_once_.*nocheck|print_address_description|"
	/* reporting, WARN/BUG/panic machinery, stack dumps */
	"panic|invalid_op|report_bug|fixup_bug|print_report|print_usage_bug|"
	"do_error|_trap$|do_trap|show_stack|dump_stack|walk_stack|dump_backtrace|"
	"warn_slowpath|warn_alloc|warn_bogus|__warn|print_tainted|^get_taint$|"
	"__fortify_report|assertfail|stack_trace_consume_entry|arch_stack_walk|"
	"stack_trace_save|"
	/* page, slab and string allocators */
	"alloc_page|k?v?(?:m|z|c)alloc|krealloc|kmem_cache|allocate_slab|"
	"__alloc_frozen_pages_noprof|folio_(?:alloc|unlock)|filemap_alloc_folio|"
	"__filemap_get_folio|find_or_create_page|do_read_cache_folio|"
	"read_cache_page|pagecache_get_page|grab_cache_page_write_begin|slab_|"
	"^kv?free$|kfree_skb|memdup|strdup|strndup|"
	/* debug objects */
	"debug_object|timer_is_static_object|work_is_static_object|"
	/* locking and lockdep */
	"__might_fault|print_unlock|imbalance_bug|lockdep|bh_enable|bh_disable|"
	"perf_trace|lock_acquire|lock_release|lock_class|mark_lock|"
	"(?:reacquire|mark)_held_locks|raw_spin_rq|spin_lock|spin_trylock|"
	"spin_unlock|read_lock|read_trylock|write_lock|write_trylock|read_unlock|"
	"write_unlock|^down$|down_read|down_write|down_trylock|up_read|up_write|"
	"^mutex_|^__mutex_|^rt_mutex_|owner_on_cpu|osq_lock|osq_unlock|"
	"(?:trace|lockdep)_(?:hard|soft)irq|^(?:un)?lock_page|"
	/* atomics, bit ops, refcount and kref */
	"atomic(?:64)?_(?:dec|inc|read|set|or|xor|and|add|sub|fetch|xchg|cmpxchg|try)|"
	"(?:set|clear|change|test)_bit|__wake_up|^refcount_|^kref_|ref_tracker|"
	"seqprop_assert|"
	/* memory and string helpers, user copies */
	"memcpy|memcmp|memset|memchr|memmove|strcmp|strncmp|strcpy|strlcpy|"
	"strncpy|strscpy|strlen|strstr|strnstr|strnlen|strchr|copy_to_user|"
	"copy_from_user|copy_to_iter|copy_from_iter|copy_page_to_iter|"
	"copy_page_from_iter|copy_folio_to_iter|^copyin$|^copyout$|put_user|"
	"get_user|might_fault|might_sleep|__might_resched|extract_(?:user|iter)_to_sg|"
	/* list debugging, trees, hashes, xarray */
	"list_add|list_del|list_replace|list_move|list_splice|^rb_|^__rb_|"
	"^klist_|rhashtable_lookup|xas_(?:start|load|find)|"
	/* printk and formatting */
	"_indirect_thunk_|string|pointer|snprintf|scnprintf|kasprintf|kvasprintf|"
	"printk|va_format|dev_info|dev_notice|dev_warn|dev_err|dev_alert|"
	"dev_crit|dev_emerg|hex_dump_to_buffer|print_hex_dump|"
	/* timers, workqueues, waiting */
	"del_timer|flush_work|__cancel_work_timer|cancel_work_sync|"
	"try_to_grab_pending|flush_workqueue|drain_workqueue|destroy_workqueue|"
	"queue_work|insert_work|__queue_delayed_work|queue_delayed_work_on|"
	"lock_timer_base|__timer_delete_sync|sk_stop_timer_sync|__mod_timer|"
	"finish_wait|kthread_stop|^complete$|wait_for_completion|"
	/* device model teardown */
	"kobject_|add_uevent_var|get_device_parent|device_add|device_del|"
	"device_unregister|device_destroy|device_release|devres_release_all|"
	"hwrng_unregister|i2c_del_adapter|__unregister_client|"
	"device_for_each_child|rollback_registered|unregister_netdev|"
	"sysfs_remove|device_remove_file|tty_unregister_device|^put_device$|"
	"ida_free|dummy_urb_enqueue|usb_kill_urb|usb_kill_anchored_urbs|"
	"usb_control_msg|usb_hcd_submit_urb|usb_submit_urb|"
	/* MMIO, port I/O, checksums */
	"readb$|readw$|readl$|readq$|writeb$|writew$|writel$|writeq$|logic_in|"
	"logic_out|^crc[0-9]+|crc_itu_t|"
	/* inode, dentry and buffer head helpers, page cache truncation */
	"^iput$|^iput_final$|^ihold$|drop_nlink|fast_dput|dput|^mark_buffer_dirty|"
	"find_lock_entries|truncate_inode_pages_range|cleanup_srcu_struct|"
	/* powerpc and arm64 exception entry */
	"program_check_exception|program_check_common|"
	"do_(?:kernel|translation)_fault|do_mem_abort|el1_abort|"
	"el1h_64_sync(?:_handler)?|__phys_addr";

/* Entry points that dispatch to the code that actually loops. */
static const char stall_anchors[] =
	"process_one_work|do_syscall_|do_fast_syscall_|sysenter_dispatch|"
	"tracesys_phase2|el0_svc_handler|invoke_syscall|ret_fast_syscall|"
	"netif_receive_skb|do_softirq|call_timer_fn|_run_timers|"
	"run_timer_softirq|hrtimer_run|run_ksoftirqd|smpboot_thread_fn|"
	"^kthread$|start_secondary|cpu_startup_entry|ret_from_fork|"
	/* file operations, worth telling apart */
	"vfs_write|vfs_read|vfs_iter_read|vfs_iter_write|do_iter_read|"
	"do_iter_write|call_read_iter|call_write_iter|new_sync_read|"
	"new_sync_write|vfs_ioctl|ksys_ioctl|compat_ioctl|compat_sys_ioctl|"
	"blkdev_driver_ioctl|blkdev_ioctl|do_iter_readv_writev|^call_mmap|"
	"mmap_region|do_mmap|do_dentry_open|vfs_open|"
	/* socket operations */
	"^sock_sendmsg|^sock_recvmsg|^sock_release|^__sock_release|^setsockopt$|"
	"kernel_setsockopt|sock_common_setsockopt|^listen$|kernel_listen|"
	"sk_common_release|^sock_mmap|^accept$|kernel_accept|^sock_do_ioctl|"
	"^sock_ioctl|^compat_sock_ioctl|^nfnetlink_rcv_msg|^rtnetlink_rcv_msg|"
	"^netlink_dump|^(?:sys_)?(?:socketpair|connect|ioctl)|"
	/* page faults, return to user space, IPIs, tasklets */
	"__do_fault|do_page_fault|^page_fault$|__fput|task_work_run|"
	"exit_to_usermode|smp_call_function|tasklet_action|tasklet_hi_action";

/* Syscall wrappers differ between arches and versions: strip them. */
const char *const mmf_syscall_prefixes[] = {
	"SYSC_", "SyS_", "sys_", "__x64_", "__ia32_", "__arm64_", "____sys_",
	"___sys_", "__sys_", "__se_", "__se_sys_", "__do_sys_", "compat_SYSC_",
	"compat_SyS_", "ksys_", NULL,
};

static bool match_any(const char *const *res, const char *text, size_t from, size_t to)
{
	for (; *res; res++)
		if (mmf_rx_find(*res, text, from, to, NULL))
			return true;
	return false;
}

bool mmf_is_stack_start(const char *text, size_t from, size_t to)
{
	return match_any(mmf_stack_starts, text, from, to);
}

bool mmf_is_frame_line(const char *text, size_t from, size_t to)
{
	return match_any(frame_res, text, from, to);
}

static char *canonical_frame(const char *raw)
{
	const char *best = raw;

	for (const char *const *p = mmf_syscall_prefixes; *p; p++) {
		size_t n = strlen(*p);

		if (!strncmp(raw, *p, n) && strlen(raw + n) < strlen(best))
			best = raw + n;
	}
	return mmf_xstrdup(best);
}

struct raw_frames {
	char **v;
	size_t n, cap;
};

static void raw_push(struct raw_frames *rf, char *s)
{
	if (rf->n == rf->cap) {
		rf->cap = rf->cap ? rf->cap * 2 : 16;
		rf->v = mmf_xrealloc(rf->v, rf->cap * sizeof(*rf->v));
	}
	rf->v[rf->n++] = s;
}

static void raw_clear(struct raw_frames *rf)
{
	for (size_t i = 0; i < rf->n; i++)
		free(rf->v[i]);
	rf->n = 0;
}

static bool is_skipped(const struct stack_spec *spec, const char *name)
{
	size_t n = strlen(name);

	return mmf_rx_find(skip_helpers, name, 0, n, NULL) ||
	       (spec->skip && mmf_rx_find(spec->skip, name, 0, n, NULL));
}

/* Every capture of m is a frame name; keep those that are not helpers. */
static void add_captures(const struct stack_spec *spec, struct raw_frames *rf,
			 const char *text, const struct rx_match *m)
{
	for (int i = 0; i < m->ncap; i++) {
		char *name;

		if (m->cso[i] < 0)
			continue;
		name = mmf_xmalloc(m->ceo[i] - m->cso[i] + 1);
		memcpy(name, text + m->cso[i], m->ceo[i] - m->cso[i]);
		name[m->ceo[i] - m->cso[i]] = '\0';
		if (is_skipped(spec, name))
			free(name);
		else
			raw_push(rf, name);
	}
}

/* Hung tasks: group waits on RCU and rtnl, otherwise skip wait helpers. */
static long pick_hang(char **canon, size_t n, const char **name)
{
	static const struct {
		const char *anchor, *bucket;
	} buckets[] = {
		{ "rtnl_lock", NULL },
		{ "synchronize_rcu", "synchronize_rcu" },
		{ "synchronize_srcu", "synchronize_rcu" },
		{ "synchronize_net", "synchronize_rcu" },
		{ "synchronize_sched", "synchronize_rcu" },
	};
	static const char *const waits[] = {
		"sched", "_lock", "_slowlock", "down", "rwsem", "completion",
		"kthread", "wait", "synchronize", "context_switch", "__switch_to",
		"cancel_delayed_work", "rcu_barrier",
	};
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < ARRAY_SIZE(buckets); j++)
			if (strstr(canon[i], buckets[j].anchor)) {
				*name = buckets[j].bucket ? buckets[j].bucket : canon[i];
				return i;
			}
	for (i = 0; i < n; i++) {
		for (j = 0; j < ARRAY_SIZE(waits); j++)
			if (strstr(canon[i], waits[j]))
				break;
		if (j == ARRAY_SIZE(waits)) {
			*name = canon[i];
			return i;
		}
	}
	return -1;
}

/*
 * Stalls loop across several functions, so the top frame is random; the
 * frame just above a known dispatcher is stable.
 */
static long pick_stall(char **canon, size_t n, const char **name)
{
	for (size_t i = 0; i < n; i++) {
		if (!mmf_rx_find(stall_anchors, canon[i], 0, strlen(canon[i]), NULL))
			continue;
		if (strstr(canon[i], "smp_call_function")) {
			*name = "smp_call_function";
			return i;
		}
		*name = canon[i ? i - 1 : 0];
		return i ? i - 1 : 0;
	}
	return -1;
}

/* Turn the frames collected for one STACK part into one guilty frame. */
static void pick_frame(const struct stack_spec *spec, struct raw_frames *rf,
		       struct frame_list *fl)
{
	char **canon = mmf_xcalloc(rf->n, sizeof(*canon));
	const char *name = NULL;
	long idx = -1;

	for (size_t i = 0; i < rf->n; i++)
		canon[i] = canonical_frame(rf->v[i]);
	if (rf->n && spec->pick == PICK_FIRST) {
		name = canon[0];
		idx = 0;
	} else if (rf->n && spec->pick == PICK_STALL) {
		idx = pick_stall(canon, rf->n, &name);
	} else if (rf->n) {
		idx = pick_hang(canon, rf->n, &name);
	}
	fl->raw = mmf_xrealloc(fl->raw, (fl->n + 1) * sizeof(*fl->raw));
	fl->canon = mmf_xrealloc(fl->canon, (fl->n + 1) * sizeof(*fl->canon));
	if (idx < 0) {
		fl->raw[fl->n] = mmf_xstrdup("corrupted");
		fl->canon[fl->n] = mmf_xstrdup("corrupted");
		fl->ok = false;
	} else {
		fl->raw[fl->n] = mmf_xstrdup(rf->v[idx]);
		fl->canon[fl->n] = mmf_xstrdup(name);
	}
	fl->n++;
	for (size_t i = 0; i < rf->n; i++)
		free(canon[i]);
	free(canon);
	raw_clear(rf);
}

struct line_iter {
	const char *text;
	size_t pos, to;
};

static bool next_line(struct line_iter *it, size_t *from, size_t *to)
{
	const char *nl;

	if (it->pos > it->to)
		return false;
	nl = memchr(it->text + it->pos, '\n', it->to - it->pos);
	*from = it->pos;
	*to = nl ? (size_t)(nl - it->text) : it->to;
	it->pos = *to + 1;
	return true;
}

static bool match_frame(const char *text, size_t from, size_t to, struct rx_match *m)
{
	for (const char *const *re = frame_res; *re; re++)
		if (mmf_rx_find(*re, text, from, to, m))
			return true;
	return false;
}

static void walk_parts(const struct stack_spec *spec, const char *const *parts,
		       const char *text, size_t from, size_t to, struct frame_list *fl)
{
	struct line_iter it = { text, from, to };
	struct raw_frames rf = { 0 };
	int np = 0, nstacks = 0;
	struct rx_match m;
	size_t ls, le;

	while (parts[np])
		np++;
	fl->ok = true;
	for (int pi = 0;; pi++) {
		bool stack = pi < np && !strcmp(parts[pi], STACK);

		if (pi == np || (stack && nstacks))
			pick_frame(spec, &rf, fl);
		if (pi == np)
			break;
		if (stack)
			nstacks++;
		while (next_line(&it, &ls, &le)) {
			if (mmf_rx_find(corrupted_frame, text, ls, le, NULL)) {
				fl->ok = false;
				break;
			}
			if (!stack) {
				if (!mmf_rx_find(parts[pi], text, ls, le, &m))
					continue;
				add_captures(spec, &rf, text, &m);
				break;
			}
			if (mmf_is_stack_start(text, ls, le))
				break;
			/* The part after a stack may end it, e.g. "Uninit was created at:". */
			if (pi + 1 < np && mmf_rx_find(parts[pi + 1], text, ls, le, &m)) {
				add_captures(spec, &rf, text, &m);
				pi++;
				break;
			}
			if (match_frame(text, ls, le, &m))
				add_captures(spec, &rf, text, &m);
		}
	}
	raw_clear(&rf);
	free(rf.v);
}

void mmf_extract_frames(const struct stack_spec *spec, const char *text,
		    size_t from, size_t to, struct frame_list *fl)
{
	memset(fl, 0, sizeof(*fl));
	walk_parts(spec, spec->parts, text, from, to, fl);
	if (fl->ok || !spec->parts2[0])
		return;
	mmf_frame_list_free(fl);
	walk_parts(spec, spec->parts2, text, from, to, fl);
}

void mmf_frame_list_free(struct frame_list *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->raw[i]);
		free(fl->canon[i]);
	}
	free(fl->raw);
	free(fl->canon);
	memset(fl, 0, sizeof(*fl));
}
