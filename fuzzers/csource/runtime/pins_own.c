// SPDX-License-Identifier: GPL-2.0
/* Pipes and ring of this process; a fork child makes its own. */
static pid_t pins_owner;
static int pipes[2][2];
static int ring_fd = -1;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

static void pins_own(void)
{
	if (pins_owner == getpid())
		return;
	pins_owner = getpid();
	for (int p = 0; p < 2; p++)
		pipes[p][0] = pipes[p][1] = -1;
	ring_fd = -1;
	pthread_mutex_init(&ring_lock, NULL);
}
