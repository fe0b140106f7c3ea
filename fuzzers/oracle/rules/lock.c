// SPDX-License-Identifier: GPL-2.0
/* Rules of the lock family: mlock state, and the populate locking does. */
#include <errno.h>

#include "model/uapi.h"
#include "oracle/rules.h"

bool mmf_lock_populates(const struct mmf_stmt *s)
{
	return s->id == MMF_MLOCK || (s->id == MMF_MLOCK2 && !(s->args[3] & MMF_MLOCK_ONFAULT));
}

static void do_lock(struct mmf_shadow *sh, const struct mmf_stmt *s, bool lock, long res)
{
	bool populate = mmf_lock_populates(s);
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	if (res < 0)
		sh->locks_exact = false;
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->mapped || pg->lost)
			continue;
		/* A failed call stops at the first hole, after changing the
		 * VMAs before it.
		 */
		if (res >= 0)
			pg->locked = lock;
		pg->lock_unknown = res < 0;
		if (lock && populate)
			mmf_shadow_maybe_cow(sh, pg);
	}
}

void mmf_rule_mlock(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	do_lock(sh, s, true, res);
}

void mmf_rule_mlock2(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	do_lock(sh, s, true, res);
}

void mmf_rule_munlock(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	do_lock(sh, s, false, res);
}

void mmf_rule_mlockall(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	uint64_t flags = s->args[0];

	sh->locks_exact = false;
	if (res < 0 && res != -ENOMEM)
		return;
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *pg = &sh->pages[i];

		if (!pg->mapped || pg->lost)
			continue;
		if ((flags & MMF_MCL_CURRENT) && res >= 0) {
			pg->locked = 1;
			pg->lock_unknown = 0;
		}
		if ((flags & MMF_MCL_CURRENT) && !(flags & MMF_MCL_ONFAULT))
			mmf_shadow_maybe_cow(sh, pg);
	}
	if (res >= 0)
		sh->mcl_future = flags & MMF_MCL_FUTURE;
}

/* A page of a memfd_secret mapping: always VM_LOCKED, mlock_fixup() skips it. */
static bool secret_page(const struct mmf_shadow *sh, const struct mmf_shadow_page *pg)
{
	int obj = mmf_page_obj(pg);

	for (int f = 0; pg->mapped && obj >= 0 && f < MMF_NR_FILES; f++)
		if (sh->file_obj[f] == obj && sh->file_kind[f] == MMF_FILE_SECRET)
			return true;
	return false;
}

void mmf_rule_munlockall(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	if (res < 0)
		return;
	sh->mcl_future = false;
	sh->locks_exact = true;
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *pg = &sh->pages[i];

		pg->locked = 0;
		pg->lock_unknown = 0;
		/* munlockall leaves secretmem's VMAs locked, and counted as mmap did. */
		if (secret_page(sh, pg)) {
			pg->lock_unknown = 1;
			sh->locks_exact = false;
		}
	}
}

/* mlock(2): "ENOMEM Some of the specified address range does not
 * correspond to mapped pages"
 */
const struct mmf_misuse mmf_lock_misuses[] = {
	{ MMF_MLOCK, ENOMEM, "mlock over an unmapped hole" },
	{ MMF_MLOCK2, ENOMEM, "mlock2 over an unmapped hole" },
	{ MMF_MUNLOCK, ENOMEM, "munlock over an unmapped hole" },
	{ 0 },
};
