// SPDX-License-Identifier: GPL-2.0
static pid_t target_pid(int c)
{
	return c < 0 ? 0 : kids[c] > 0 ? kids[c] : -ESRCH;
}
