// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's pieces for the pin calls (csource.c's emitters[] rows
 * name them): the runtime the executor's exec/pins.c and exec/uring.c have,
 * written out, and the results the model assumes. A pipe's content is not
 * checked by the reproducer (it reads and drops it); the pages the pin
 * calls write are, by the reads after them.
 */
#include <errno.h>

#include "oracle/csource_pins.h"
#include "oracle/shadow.h"
#include "util/util.h"

const char mmf_rt_pins_own[] =
	"/* Pipes and ring of this process; a fork child makes its own. */\n"
	"static pid_t pins_owner;\n"
	"static int pipes[2][2];\n"
	"static int ring_fd = -1;\n"
	"static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;\n"
	"\n"
	"static void pins_own(void)\n"
	"{\n"
	"\tif (pins_owner == getpid())\n"
	"\t\treturn;\n"
	"\tpins_owner = getpid();\n"
	"\tfor (int p = 0; p < 2; p++)\n"
	"\t\tpipes[p][0] = pipes[p][1] = -1;\n"
	"\tring_fd = -1;\n"
	"\tpthread_mutex_init(&ring_lock, NULL);\n"
	"}\n";

const char mmf_rt_pipe[] =
	"static long pipe_of(int p)\n"
	"{\n"
	"\tpins_own();\n"
	"\tif (pipes[p][0] < 0) {\n"
	"\t\tif (pipe2(pipes[p], O_CLOEXEC | O_NONBLOCK))\n"
	"\t\t\treturn -errno;\n"
	"\t\tfcntl(pipes[p][1], 1031 /* F_SETPIPE_SZ */, 64 * psz);\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/* vmsplice of up to 64 pages, never SPLICE_F_GIFT; pages spliced. */\n"
	"static __attribute__((unused)) long splice_in(int p, void *addr, int n)\n"
	"{\n"
	"\tstruct iovec iov = { addr, len(n < 64 ? n : 64) };\n"
	"\tlong r = pipe_of(p);\n"
	"\n"
	"\tif (r)\n"
	"\t\treturn r;\n"
	"\tr = sys(syscall(SYS_vmsplice, pipes[p][1], &iov, 1, 0x2 /* SPLICE_F_NONBLOCK */));\n"
	"\treturn r < 0 ? r : r / psz;\n"
	"}\n"
	"\n"
	"/* Read up to n pages back out of pipe p; pages read. */\n"
	"static __attribute__((unused)) long pipe_drain(int p, int n)\n"
	"{\n"
	"\tlong want = len(n < 64 ? n : 64), got = 0, r = pipe_of(p);\n"
	"\tchar *buf;\n"
	"\n"
	"\tif (r)\n"
	"\t\treturn r;\n"
	"\tbuf = malloc(want);\n"
	"\tif (!buf)\n"
	"\t\treturn -ENOMEM;\n"
	"\twhile (got < want && ((r = read(pipes[p][0], buf + got, want - got)) > 0 ||\n"
	"\t\t\t       (r < 0 && errno == EINTR)))\n"
	"\t\tgot += r > 0 ? r : 0;\n"
	"\tfree(buf);\n"
	"\treturn got / psz;\n"
	"}\n";

const char mmf_rt_uring[] =
	"#include <linux/io_uring.h>\n"
	"#include <sys/mman.h>\n"
	"\n"
	"/* A minimal io_uring on raw syscalls, one request at a time. */\n"
	"static unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;\n"
	"static struct io_uring_sqe *sqes;\n"
	"static struct io_uring_cqe *cqes;\n"
	"\n"
	"static long ring_of(void)\n"
	"{\n"
	"\tstruct io_uring_params p = { 0 };\n"
	"\tchar *sq, *cq;\n"
	"\tlong sz;\n"
	"\n"
	"\tpins_own();\n"
	"\tif (ring_fd >= 0)\n"
	"\t\treturn 0;\n"
	"\tring_fd = syscall(425 /* SYS_io_uring_setup */, 4, &p);\n"
	"\tif (ring_fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);\n"
	"\tif (sz < (long)(p.sq_off.array + p.sq_entries * sizeof(unsigned int)))\n"
	"\t\tsz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);\n"
	"\tsq = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd,\n"
	"\t\t  IORING_OFF_SQ_RING);\n"
	"\tcq = p.features & IORING_FEAT_SINGLE_MMAP ? sq :\n"
	"\t     mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd,\n"
	"\t\t  IORING_OFF_CQ_RING);\n"
	"\tsqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,\n"
	"\t\t    MAP_SHARED | MAP_POPULATE, ring_fd, IORING_OFF_SQES);\n"
	"\tif (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)\n"
	"\t\treturn -ENOMEM;\n"
	"\tsq_tail = (unsigned int *)(sq + p.sq_off.tail);\n"
	"\tsq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);\n"
	"\tsq_array = (unsigned int *)(sq + p.sq_off.array);\n"
	"\tcq_head = (unsigned int *)(cq + p.cq_off.head);\n"
	"\tcq_tail = (unsigned int *)(cq + p.cq_off.tail);\n"
	"\tcq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);\n"
	"\tcqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/* Unregister the old buffer, register [addr, addr + len(n)) as buffer 0. */\n"
	"static __attribute__((unused)) long ring_register(void *addr, int n)\n"
	"{\n"
	"\tstruct iovec iov = { addr, len(n) };\n"
	"\tlong r = ring_of();\n"
	"\n"
	"\tif (r)\n"
	"\t\treturn r;\n"
	"\tsyscall(427 /* SYS_io_uring_register */, ring_fd, IORING_UNREGISTER_BUFFERS, NULL, 0);\n"
	"\treturn sys(syscall(427, ring_fd, IORING_REGISTER_BUFFERS, &iov, 1));\n"
	"}\n"
	"\n"
	"/* READ_FIXED (file f into memory) or WRITE_FIXED; pages done. */\n"
	"static __attribute__((unused)) long ring_rw(int write, void *addr, int n, int f, int fpage)\n"
	"{\n"
	"\tstruct io_uring_sqe *sqe;\n"
	"\tunsigned int tail, head;\n"
	"\tlong r = ring_of();\n"
	"\n"
	"\tif (r)\n"
	"\t\treturn r;\n"
	"\tif (files[f] < 0)\n"
	"\t\treturn -EBADF;\n"
	"\tpthread_mutex_lock(&ring_lock);\n"
	"\ttail = *sq_tail;\n"
	"\tsqe = &sqes[tail & *sq_mask];\n"
	"\tmemset(sqe, 0, sizeof(*sqe));\n"
	"\tsqe->opcode = write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;\n"
	"\tsqe->fd = files[f];\n"
	"\tsqe->addr = (uintptr_t)addr;\n"
	"\tsqe->len = len(n);\n"
	"\tsqe->off = len(fpage);\n"
	"\tsq_array[tail & *sq_mask] = tail & *sq_mask;\n"
	"\t__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);\n"
	"\tdo\n"
	"\t\tr = syscall(426 /* SYS_io_uring_enter */, ring_fd, 1, 1, IORING_ENTER_GETEVENTS,\n"
	"\t\t\t    NULL, 0);\n"
	"\twhile (r < 0 && errno == EINTR);\n"
	"\tr = r < 0 ? -errno : -EAGAIN;\n"
	"\thead = *cq_head;\n"
	"\tif (head != __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE)) {\n"
	"\t\tr = cqes[head & *cq_mask].res;\n"
	"\t\t__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);\n"
	"\t}\n"
	"\tpthread_mutex_unlock(&ring_lock);\n"
	"\treturn r < 0 ? r : r / psz;\n"
	"}\n";

const char mmf_rt_dio[] =
	"/* O_DIRECT on file f for one call; pages done. */\n"
	"static __attribute__((unused)) long dio(int write, void *addr, int n, int f, int fpage)\n"
	"{\n"
	"\tint fl;\n"
	"\tlong r;\n"
	"\n"
	"\tif (files[f] < 0)\n"
	"\t\treturn -EBADF;\n"
	"\tfl = fcntl(files[f], F_GETFL);\n"
	"\tif (fl < 0 || fcntl(files[f], F_SETFL, fl | O_DIRECT))\n"
	"\t\treturn -errno;\n"
	"\tr = write ? pwrite(files[f], addr, len(n), len(fpage)) :\n"
	"\t\t    pread(files[f], addr, len(n), len(fpage));\n"
	"\tr = r < 0 ? -errno : r / psz;\n"
	"\tfcntl(files[f], F_SETFL, fl);\n"
	"\treturn r;\n"
	"}\n";

const char mmf_rt_pvm[] =
	"/* process_vm_readv/writev with this process (c < 0) or child c; pages done. */\n"
	"static long pvm(int write, void *local, int c, void *remote, int n)\n"
	"{\n"
	"\tstruct iovec l = { local, len(n) }, rm = { remote, len(n) };\n"
	"\tpid_t pid = c < 0 ? getpid() : kids[c];\n"
	"\tlong r;\n"
	"\n"
	"\tif (c >= 0 && (pid <= 0 || pidfds[c] < 0))\n"
	"\t\treturn -ESRCH;\n"
	"\tr = sys(syscall(write ? SYS_process_vm_writev : SYS_process_vm_readv, pid, &l, 1,\n"
	"\t\t\t&rm, 1, 0));\n"
	"\treturn r < 0 ? r : r / psz;\n"
	"}\n";

static void at(struct strbuf *sb, int idx)
{
	sb_printf(sb, "at(%d, %d)", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES);
}

static int range_of(const struct mmf_stmt *s, int *n)
{
	int idx = 0;

	*n = 0;
	mmf_stmt_range(s, &idx, n);
	return idx;
}

void mmf_cs_vmsplice(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	int n, idx = range_of(s, &n);

	sb_printf(sb, "splice_in(%d, ", (int)s->args[3]);
	at(sb, idx);
	sb_printf(sb, ", %d)", n);
}

void mmf_cs_pipe_read(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "pipe_drain(%d, %d)", (int)s->args[0], (int)s->args[1]);
}

void mmf_cs_uring_register(struct strbuf *sb, const struct mmf_stmt *s, int si,
			   const struct gen *g)
{
	int n, idx = range_of(s, &n);

	sb_puts(sb, "ring_register(");
	at(sb, idx);
	sb_printf(sb, ", %d)", n);
}

/* fn(write, addr, n, file, file_page) */
static void file_io(struct strbuf *sb, const struct mmf_stmt *s, const char *fn, int write)
{
	int n, idx = range_of(s, &n);

	sb_printf(sb, "%s(%d, ", fn, write);
	at(sb, idx);
	sb_printf(sb, ", %d, %d /* f%d */, %d)", n, (int)s->args[3], (int)s->args[3],
		  (int)s->args[4]);
}

void mmf_cs_uring_read(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	file_io(sb, s, "ring_rw", 0);
}

void mmf_cs_uring_write(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	file_io(sb, s, "ring_rw", 1);
}

void mmf_cs_dio_file(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "new_file(%d, %d, sys(open(\"/var/tmp\", O_TMPFILE | O_RDWR | O_CLOEXEC, "
		  "0600)))", (int)s->args[0], (int)s->args[1]);
}

void mmf_cs_dio_read(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	file_io(sb, s, "dio", 0);
}

void mmf_cs_dio_write(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	file_io(sb, s, "dio", 1);
}

static void pvm(struct strbuf *sb, const struct mmf_stmt *s, int write)
{
	int n, idx = range_of(s, &n);
	int r = s->args[4] * MMF_SLOT_PAGES + s->args[5];

	sb_printf(sb, "pvm(%d, ", write);
	at(sb, idx);
	if (s->args[3] == MMF_TARGET_SELF)
		sb_puts(sb, ", -1 /* self */, ");
	else
		sb_printf(sb, ", %d /* c%d */, ", (int)s->args[3] - 1, (int)s->args[3] - 1);
	at(sb, r);
	sb_printf(sb, ", %d)", MIN(n, MMF_ARENA_PAGES - r));
}

void mmf_cs_pvm_readv(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	pvm(sb, s, 0);
}

void mmf_cs_pvm_writev(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	pvm(sb, s, 1);
}

/* Predictions: as far as the model tells; a wrong one only stops checks. */

static bool usable(const struct mmf_shadow *sh, int idx, bool write)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];

	return pg->mapped && !pg->guard && pg->prot != 0 &&
	       (!write || pg->prot == 0xff || (pg->prot & 0x2));
}

/* Leading pages of [idx, idx + n) a GUP of that kind gets. */
static long leading(const struct mmf_shadow *sh, int idx, int n, bool write)
{
	long i = 0;

	while (i < n && usable(sh, idx + i, write))
		i++;
	return i ? i : -EFAULT;
}

static int file_pages(const struct mmf_shadow *sh, int f)
{
	int o = sh->file_obj[f];

	return o < 0 ? -1 : sh->objs[o].npages;
}

long mmf_cs_predict_vmsplice(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx,
			     int n)
{
	const struct mmf_pipe *pp = &sh->pins.pipes[s->args[3] % MMF_NR_PIPES];
	long r = leading(sh, idx, MIN(n, MMF_PIPE_PAGES - pp->nr), false);

	return pp->nr == MMF_PIPE_PAGES ? -EAGAIN : r;
}

long mmf_cs_predict_pipe_read(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx,
			      int n)
{
	return MIN((long)s->args[1], (long)sh->pins.pipes[s->args[0] % MMF_NR_PIPES].nr);
}

long mmf_cs_predict_register(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx,
			     int n)
{
	return leading(sh, idx, n, true) == n ? 0 : -EFAULT;
}

/* Reads stop at the end of the file; writes grow it. */
static long predict_file_io(const struct mmf_shadow *sh, const struct mmf_stmt *s, int n,
			    bool to_memory)
{
	int fp = file_pages(sh, s->args[3]);

	if (fp < 0)
		return -EBADF;
	return to_memory ? MAX(0, MIN(n, fp - (int)s->args[4])) : n;
}

long mmf_cs_predict_fixed(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	const struct mmf_pins *pn = &sh->pins;

	if (file_pages(sh, s->args[3]) < 0)
		return -EBADF;
	if (!pn->ring_n || idx < pn->ring_idx || idx + n > pn->ring_idx + pn->ring_n)
		return -EFAULT;
	return predict_file_io(sh, s, n, s->id == MMF_URING_READ_FIXED);
}

long mmf_cs_predict_dio(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	long r = predict_file_io(sh, s, n, s->id == MMF_DIO_READ);

	if (r <= 0)
		return r;
	return MIN(r, leading(sh, idx, r, s->id == MMF_DIO_READ));
}

long mmf_cs_predict_pvm(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	int r = s->args[4] * MMF_SLOT_PAGES + s->args[5];
	bool to_local = s->id == MMF_PROCESS_VM_READV;
	long a, b;

	n = MIN(n, MMF_ARENA_PAGES - r);
	a = leading(sh, idx, n, to_local);
	if (s->args[3] != MMF_TARGET_SELF || a < 0)
		return a;
	b = leading(sh, r, n, !to_local);
	return b < 0 ? b : MIN(a, b);
}
