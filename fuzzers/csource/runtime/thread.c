// SPDX-License-Identifier: GPL-2.0
static void (*thread_body[MAX_THREADS])(void);

static void *thread_main(void *arg)
{
	void (**body)(void) = arg;

	(*body)();
	return NULL;
}

static long start_thread(void (*body)(void))
{
	int k = nr_threads, e;

	if (k == MAX_THREADS)
		return -EAGAIN;
	thread_body[k] = body;
	e = pthread_create(&threads[k], NULL, thread_main, &thread_body[k]);
	if (e)
		return -e;
	nr_threads++;
	return 0;
}
