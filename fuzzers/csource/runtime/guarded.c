// SPDX-License-Identifier: GPL-2.0
/* Apply fn to arena pages [idx, idx + n), stopping at the first fault. */
static long guarded(int idx, int n, void (*fn)(int idx, void *arg), void *arg)
{
	sigjmp_buf jb;
	volatile long done = 0;

	/* No mask save: the handler runs with SA_NODEFER, as in the executor. */
	if (sigsetjmp(jb, 0)) {
		fault_jmp = NULL;
		return done;
	}
	fault_jmp = &jb;
	for (; done < n; done++)
		fn(idx + done, arg);
	fault_jmp = NULL;
	return done;
}
