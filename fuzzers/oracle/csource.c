// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer of a program: one standalone file (libc headers only, a
 * raw syscall(2) for every mm call) that runs the program as the executor
 * does, in the same arena with the same pattern words, and checks its reads.
 *
 * What a read expects is worked out here, not at run time: the shadow model
 * runs over the program fed the result each call is predicted to return,
 * and each read carries the values the model then expects of its pages.
 * Which results the model depends on is found by feeding it others and
 * comparing; the reproducer checks those results, and the first call that
 * returns something else turns checking off in its process. A prediction
 * that is wrong can thus hide a bug, never make one up.
 *
 * Threads are simulated as if each ran its whole block when it starts: the
 * race rules leave whatever depends on the interleaving unknown, and one
 * more rule covers what they do not: a file a thread re-creates is unknown
 * to all when its group also forks, as which file the child gets depends
 * on when fork() runs.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/acct.h"
#include "oracle/csource_c.h"
#include "oracle/csource.h"
#include "oracle/csource_uffd.h"
#include "oracle/csource_pins.h"
#include "oracle/shadow.h"
#include "util/util.h"

/* UAPI values the predictions and the emitted code use (see calls.c). */
enum {
	PROT_W = 0x2, SHARE_VALIDATE = 0x3, ML_ONFAULT = 0x1,
	MAP_FIXED_ = 0x10, MAP_ANON_ = 0x20, MAP_NOREPLACE_ = 0x100000,
	MR_MAYMOVE = 0x1, MR_FIXED = 0x2, MR_DONTUNMAP = 0x4,
	A_DONTNEED = 4, A_FREE = 8, A_REMOVE = 9, A_WIPEONFORK = 18, A_COLD = 20,
	A_PAGEOUT = 21, A_GUARD_INSTALL = 102,
	SWAP_PREFER = 0x8000, SWAP_PRIO_MASK = 0x7fff,
};

/* exec/runner.c's arena candidates, in its order: the same arena. */
static const unsigned long long arena_candidates[] = {
	0x200000000000ull, 0x100000000000ull, 0x40000000000ull,
	0x8000000000ull, 0x2000000000ull, 0x400000000ull,
};

/* Any nonce: the tables hold tags and page shifts, the run picks its own. */
#define SIM_NONCE	1

/*
 * The runtime every reproducer carries, then the pieces only the calls a
 * program uses need (the rows of emitters[] name them).
 */
static const char rt_head[] =
	"#define _GNU_SOURCE\n"
	"#include <errno.h>\n"
	"#include <fcntl.h>\n"
	"#include <pthread.h>\n"
	"#include <setjmp.h>\n"
	"#include <signal.h>\n"
	"#include <stdarg.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <sys/syscall.h>\n"
	"#include <sys/uio.h>\n"
	"#include <sys/wait.h>\n"
	"#include <time.h>\n"
	"#include <unistd.h>\n"
	"\n"
	"/* Recent enough to be missing from old headers; the same on every arch. */\n"
	"#ifndef SYS_pidfd_open\n"
	"#define SYS_pidfd_open 434\n"
	"#endif\n"
	"#ifndef SYS_process_madvise\n"
	"#define SYS_process_madvise 440\n"
	"#endif\n"
	"\n"
	"#define SLOT_PAGES\t1024\n"
	"#define ARENA_PAGES\t(8 * SLOT_PAGES)\n"
	"#define NR_FILES\t4\n"
	"#define NR_CHILDREN\t4\n"
	"#define NR_SWAPS\t4\n"
	"#define MAX_THREADS\t4\n"
	"\n"
	"/* How a call's result must match the one the expectations assume. */\n"
	"enum guard {\n"
	"\tGUARD_NONE,\t/* they do not depend on it */\n"
	"\tGUARD_SIGN,\t/* success or failure */\n"
	"\tGUARD_EXACT,\t/* the value: pages done, where mremap put the range */\n"
	"};\n"
	"\n"
	"struct stmt {\n"
	"\tconst char *text;\t/* the call as the program writes it */\n"
	"\tenum guard guard;\n"
	"\tlong want;\t\t/* the result the expectations assume */\n"
	"\tint known_page;\t\t/* a checked arena page after it, -1 none */\n"
	"};\n"
	"\n"
	"/*\n"
	" * Arena pages [page, page + npages) of a read and what each must hold: one\n"
	" * of nvals words, each the pattern a write of tag stored at the arena page\n"
	" * shift pages away (mremap moves content), or zero for tag 0.\n"
	" */\n"
	"struct expect {\n"
	"\tint page, npages, nvals;\n"
	"\tstruct { int tag, shift; } v[4];\n"
	"\tint hist[4];\t\t/* statements that touched the pages, newest first */\n"
	"\tconst char *what;\t/* \"<backing> page after <call>\", for the title */\n"
	"};\n";

static const char rt_common[] =
	"static char *arena;\n"
	"static long psz;\n"
	"static uint32_t nonce;\n"
	"static int verbose;\n"
	"static int corrupt_after = -1;\n"
	"static const char *swaps[NR_SWAPS];\n"
	"static int files[NR_FILES] = { -1, -1, -1, -1 };\n"
	"static pid_t kids[NR_CHILDREN];\n"
	"static int pidfds[NR_CHILDREN] = { -1, -1, -1, -1 };\n"
	"static pthread_t threads[MAX_THREADS];\n"
	"static int nr_threads;\n"
	"static int join_pipe[2] = { -1, -1 };\n"
	"/* A call returned what the expectations did not assume: stop checking. */\n"
	"static volatile sig_atomic_t diverged;\n"
	"static volatile sig_atomic_t corrupted;\n"
	"static __thread sigjmp_buf *fault_jmp;\n"
	"\n"
	"static inline char *page(int idx)\n"
	"{\n"
	"\treturn arena + (long)idx * psz;\n"
	"}\n"
	"\n"
	"static inline char *at(int slot, int pg)\n"
	"{\n"
	"\treturn page(slot * SLOT_PAGES + pg);\n"
	"}\n"
	"\n"
	"static inline long len(int npages)\n"
	"{\n"
	"\treturn (long)npages * psz;\n"
	"}\n"
	"\n"
	"/* syscall(2) fails with -1 and errno; the program's results are -errno. */\n"
	"static inline long sys(long r)\n"
	"{\n"
	"\treturn r == -1 ? -errno : r;\n"
	"}\n"
	"\n"
	"/* The pattern of every 64-bit word of a page that a write of tag filled. */\n"
	"static inline uint64_t word(int tag, int idx)\n"
	"{\n"
	"\tif (!tag)\n"
	"\t\treturn 0;\n"
	"\treturn (uint64_t)((uint32_t)tag << 24 | nonce) << 32 | (uint32_t)(idx + 1);\n"
	"}\n"
	"\n"
	"/* Whole messages in one write(2): lines of threads and children never mix. */\n"
	"static void put(int fd, const char *buf, int n)\n"
	"{\n"
	"\twhile (n > 0) {\n"
	"\t\tssize_t w = write(fd, buf, n);\n"
	"\n"
	"\t\tif (w <= 0)\n"
	"\t\t\treturn;\n"
	"\t\tbuf += w;\n"
	"\t\tn -= w;\n"
	"\t}\n"
	"}\n"
	"\n"
	"static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));\n"
	"static void say(const char *fmt, ...)\n"
	"{\n"
	"\tchar buf[1024];\n"
	"\tva_list ap;\n"
	"\tint n;\n"
	"\n"
	"\tva_start(ap, fmt);\n"
	"\tn = vsnprintf(buf, sizeof(buf), fmt, ap);\n"
	"\tva_end(ap);\n"
	"\tput(2, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);\n"
	"}\n"
	"\n"
	"static void on_fault(int sig)\n"
	"{\n"
	"\tif (fault_jmp)\n"
	"\t\tsiglongjmp(*fault_jmp, 1);\n"
	"\tsignal(sig, SIG_DFL);\n"
	"\traise(sig);\n"
	"}\n"
	"\n"
	"/* join: threads end, children exit (their exit frees their swap entries). */\n"
	"static long join_all(void)\n"
	"{\n"
	"\tint st;\n"
	"\n"
	"\tfor (int t = 0; t < nr_threads; t++)\n"
	"\t\tpthread_join(threads[t], NULL);\n"
	"\tnr_threads = 0;\n"
	"\tif (join_pipe[0] < 0)\n"
	"\t\treturn 0;\n"
	"\tclose(join_pipe[1]);\n"
	"\tfor (int c = 0; c < NR_CHILDREN; c++) {\n"
	"\t\tif (kids[c] > 0 && waitpid(kids[c], &st, 0) == kids[c] &&\n"
	"\t\t    WIFEXITED(st) && WEXITSTATUS(st) == 1)\n"
	"\t\t\tcorrupted = 1;\n"
	"\t\tkids[c] = 0;\n"
	"\t\tif (pidfds[c] >= 0)\n"
	"\t\t\tclose(pidfds[c]);\n"
	"\t\tpidfds[c] = -1;\n"
	"\t}\n"
	"\tclose(join_pipe[0]);\n"
	"\tjoin_pipe[0] = join_pipe[1] = -1;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/*\n"
	" * The executor's arena: the first candidate that is free, far from where\n"
	" * the kernel puts mappings top-down and from the heap, with one guard slot\n"
	" * after it. Only probed: the program's mmaps place themselves in it.\n"
	" */\n"
	"static int arena_init(void)\n"
	"{\n"
	"\tstatic const uintptr_t candidates[] = {\n";

static const char rt_arena_tail[] =
	"\t};\n"
	"\tlong size = len(ARENA_PAGES + SLOT_PAGES);\n"
	"\n"
	"\tfor (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {\n"
	"\t\tlong r = syscall(SYS_mmap, candidates[i], size, 0 /* PROT_NONE */,\n"
	"\t\t\t\t 0x104022 /* MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_FIXED_NOREPLACE */,\n"
	"\t\t\t\t -1, 0);\n"
	"\n"
	"\t\tif (r == -1)\n"
	"\t\t\tcontinue;\n"
	"\t\tsyscall(SYS_munmap, r, size);\n"
	"\t\tif ((uintptr_t)r == candidates[i]) {\n"
	"\t\t\tarena = (char *)r;\n"
	"\t\t\treturn 0;\n"
	"\t\t}\n"
	"\t}\n"
	"\treturn -1;\n"
	"}\n";

static const char rt_done[] =
	"/* A result as mmfuzz prints it: \"0\", \"64\", \"-1 ENOMEM\". */\n"
	"static const char *res(long r, char *buf, size_t size)\n"
	"{\n"
	"\tconst char *name = r < 0 ? strerrorname_np(-r) : NULL;\n"
	"\n"
	"\tif (r >= 0)\n"
	"\t\tsnprintf(buf, size, \"%ld\", r);\n"
	"\telse if (name)\n"
	"\t\tsnprintf(buf, size, \"-1 %s\", name);\n"
	"\telse\n"
	"\t\tsnprintf(buf, size, \"-1 errno %ld\", -r);\n"
	"\treturn buf;\n"
	"}\n"
	"\n"
	"/* --corrupt-after: change a page behind the program's back, as a bug would. */\n"
	"static void corrupt(int idx)\n"
	"{\n"
	"\tuint64_t junk[512];\n"
	"\tint fd = open(\"/proc/self/mem\", O_RDWR | O_CLOEXEC);\n"
	"\tlong n = psz < (long)sizeof(junk) ? psz : (long)sizeof(junk);\n"
	"\n"
	"\tfor (int i = 0; i < 512; i++)\n"
	"\t\tjunk[i] = 0x5a5a5a5a00000000ull | i;\n"
	"\tif (fd < 0 || pwrite(fd, junk, n, (uintptr_t)page(idx)) != n)\n"
	"\t\tsay(\"--corrupt-after: cannot write arena page %d\\n\", idx);\n"
	"\tif (fd >= 0)\n"
	"\t\tclose(fd);\n"
	"}\n"
	"\n"
	"/* After each call: trace, the divergence guard, the test hook. */\n"
	"static void done(int si, long r)\n"
	"{\n"
	"\tconst struct stmt *s = &stmts[si];\n"
	"\tint same = s->guard == GUARD_NONE || r == s->want ||\n"
	"\t\t   (s->guard == GUARD_SIGN && (r < 0) == (s->want < 0));\n"
	"\tchar got[48], want[48];\n"
	"\n"
	"\tif (verbose)\n"
	"\t\tsay(\"%d: %s = %s\\n\", si, s->text, res(r, got, sizeof(got)));\n"
	"\tif (!same && !diverged) {\n"
	"\t\tdiverged = 1;\n"
	"\t\tsay(\"%d: %s = %s, the expectations assume %s: %s\\n\", si, s->text,\n"
	"\t\t    res(r, got, sizeof(got)), res(s->want, want, sizeof(want)),\n"
	"\t\t    \"pages are only touched from here\");\n"
	"\t}\n"
	"\tif (si == corrupt_after && s->known_page >= 0)\n"
	"\t\tcorrupt(s->known_page);\n"
	"}\n";

static const char rt_guarded[] =
	"/* Apply fn to arena pages [idx, idx + n), stopping at the first fault. */\n"
	"static long guarded(int idx, int n, void (*fn)(int idx, void *arg), void *arg)\n"
	"{\n"
	"\tsigjmp_buf jb;\n"
	"\tvolatile long done = 0;\n"
	"\n"
	"\t/* No mask save: the handler runs with SA_NODEFER, as in the executor. */\n"
	"\tif (sigsetjmp(jb, 0)) {\n"
	"\t\tfault_jmp = NULL;\n"
	"\t\treturn done;\n"
	"\t}\n"
	"\tfault_jmp = &jb;\n"
	"\tfor (; done < n; done++)\n"
	"\t\tfn(idx + done, arg);\n"
	"\tfault_jmp = NULL;\n"
	"\treturn done;\n"
	"}\n";

static const char rt_fill[] =
	"static void fill_page(int idx, void *arg)\n"
	"{\n"
	"\tuint64_t *pg = (uint64_t *)page(idx), w = word(*(int *)arg, idx);\n"
	"\tlong words = psz / 8;\n"
	"\n"
	"\tfor (long i = 0; i < words; i++)\n"
	"\t\tpg[i] = w;\n"
	"}\n"
	"\n"
	"/* write(m, page, n, tag): fill each page with its pattern word. */\n"
	"static long fill(int slot, int pg, int n, int tag)\n"
	"{\n"
	"\treturn guarded(slot * SLOT_PAGES + pg, n, fill_page, &tag);\n"
	"}\n";

static const char rt_verify[] =
	"struct reading {\n"
	"\tint si;\n"
	"\tconst struct expect *e, *end;\n"
	"\tint bad;\n"
	"};\n"
	"\n"
	"struct text {\n"
	"\tchar buf[4096];\n"
	"\tint len;\n"
	"};\n"
	"\n"
	"static void add(struct text *t, const char *fmt, ...)\n"
	"\t__attribute__((format(printf, 2, 3)));\n"
	"static void add(struct text *t, const char *fmt, ...)\n"
	"{\n"
	"\tint room = sizeof(t->buf) - t->len, n;\n"
	"\tva_list ap;\n"
	"\n"
	"\tva_start(ap, fmt);\n"
	"\tn = vsnprintf(t->buf + t->len, room, fmt, ap);\n"
	"\tva_end(ap);\n"
	"\tt->len += n < room ? n : room - 1;\n"
	"}\n"
	"\n"
	"static uint64_t pagemap(const void *addr)\n"
	"{\n"
	"\tint fd = open(\"/proc/self/pagemap\", O_RDONLY | O_CLOEXEC);\n"
	"\tuint64_t ent = 0;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn 0;\n"
	"\tif (pread(fd, &ent, sizeof(ent), (uintptr_t)addr / psz * sizeof(ent)) != sizeof(ent))\n"
	"\t\tent = 0;\n"
	"\tclose(fd);\n"
	"\treturn ent;\n"
	"}\n"
	"\n"
	"/* What went wrong, for the title: the executor's classes. */\n"
	"static const char *class_of(int idx, const uint64_t *want, int nvals, uint64_t first,\n"
	"\t\t\t    int uniform)\n"
	"{\n"
	"\tif (uniform && !first)\n"
	"\t\treturn \"zeroed\";\n"
	"\tfor (int i = 0; i < nvals; i++)\n"
	"\t\tif (want[i] == first)\n"
	"\t\t\treturn \"torn\";\n"
	"\tif (uniform && (first >> 32 & 0xffffff) == nonce)\n"
	"\t\treturn (uint32_t)first == (uint32_t)(idx + 1) ? \"stale\" : \"misplaced\";\n"
	"\treturn uniform ? \"foreign\" : \"garbage\";\n"
	"}\n"
	"\n"
	"static void report(int si, int idx, const struct expect *e, const uint64_t *want,\n"
	"\t\t   const uint64_t *pg, long nbad)\n"
	"{\n"
	"\tuint64_t ent = pagemap(pg);\n"
	"\tlong words = psz / 8, bad;\n"
	"\tstruct text t = { .len = 0 };\n"
	"\n"
	"\tfor (bad = 1; nbad && pg[bad] == pg[0]; bad++)\n"
	"\t\t;\n"
	"\tadd(&t, \"DATA CORRUPTION: %s %s\\n\",\n"
	"\t    class_of(idx, want, e->nvals, pg[0], nbad == 0), e->what);\n"
	"\tadd(&t, \"page: m%d+%d (arena page %d) at %p, read by statement %d\\n\",\n"
	"\t    idx / SLOT_PAGES, idx % SLOT_PAGES, idx, (const void *)pg, si);\n"
	"\tadd(&t, \"pagemap: present=%d swapped=%d exclusive=%d\\n\",\n"
	"\t    (int)(ent >> 63 & 1), (int)(ent >> 62 & 1), (int)(ent >> 56 & 1));\n"
	"\tadd(&t, \"expected:\");\n"
	"\tfor (int i = 0; i < e->nvals; i++)\n"
	"\t\tadd(&t, \" %s0x%016llx\", i ? \"or \" : \"\", (unsigned long long)want[i]);\n"
	"\tadd(&t, \"\\nobserved: 0x%016llx at byte 0, 0x%016llx at byte %ld;\"\n"
	"\t    \" %ld of %ld words differ from the first\\n\",\n"
	"\t    (unsigned long long)pg[0], (unsigned long long)pg[bad], bad * 8, nbad, words);\n"
	"\tadd(&t, \"calls that touched it, newest first:\\n\");\n"
	"\tfor (int h = 0; h < 4 && e->hist[h] >= 0; h++)\n"
	"\t\tadd(&t, \"  %d: %s\\n\", e->hist[h], stmts[e->hist[h]].text);\n"
	"\tput(1, t.buf, t.len);\n"
	"}\n"
	"\n"
	"static void verify_page(int idx, void *arg)\n"
	"{\n"
	"\tstruct reading *rd = arg;\n"
	"\tconst uint64_t *pg = (const uint64_t *)page(idx);\n"
	"\t/* Fault the page in even when nothing is expected of it. */\n"
	"\tuint64_t first = *(volatile const uint64_t *)pg, want[4];\n"
	"\tlong words = psz / 8, nbad = 0;\n"
	"\tconst struct expect *e;\n"
	"\tint ok = 0;\n"
	"\n"
	"\twhile (rd->e < rd->end && rd->e->page + rd->e->npages <= idx)\n"
	"\t\trd->e++;\n"
	"\te = rd->e;\n"
	"\tif (diverged || e == rd->end || e->page > idx)\n"
	"\t\treturn;\n"
	"\tfor (int i = 0; i < e->nvals; i++) {\n"
	"\t\twant[i] = e->v[i].tag ? word(e->v[i].tag, idx + e->v[i].shift) : 0;\n"
	"\t\tok |= want[i] == first;\n"
	"\t}\n"
	"\tfor (long i = 1; i < words; i++)\n"
	"\t\tnbad += pg[i] != first;\n"
	"\tif (ok && !nbad)\n"
	"\t\treturn;\n"
	"\tcorrupted = 1;\n"
	"\t/* The first bad page of a read in full, the others counted. */\n"
	"\tif (!rd->bad++)\n"
	"\t\treport(rd->si, idx, e, want, pg, nbad);\n"
	"}\n"
	"\n"
	"/* read(m, page, n): check each page the model could predict, touch the rest. */\n"
	"static long verify(int si, int slot, int pg, int n, const struct expect *e, int nr)\n"
	"{\n"
	"\tstruct reading rd = { si, e, e ? e + nr : e, 0 };\n"
	"\tlong r = guarded(slot * SLOT_PAGES + pg, n, verify_page, &rd);\n"
	"\n"
	"\tif (rd.bad > 1)\n"
	"\t\tsay(\"%d: %d more pages differ\\n\", si, rd.bad - 1);\n"
	"\treturn r;\n"
	"}\n";

static const char rt_mmap[] =
	"/*\n"
	" * mmap at a place of the arena, as the executor does: anonymous when f < 0,\n"
	" * else file slot f from file page off; the flags carry MAP_FIXED or\n"
	" * MAP_FIXED_NOREPLACE.\n"
	" */\n"
	"static long map_at(int slot, int pg, int n, long prot, long flags, int f, int off)\n"
	"{\n"
	"\tchar *addr = at(slot, pg);\n"
	"\tlong r;\n"
	"\n"
	"\tif (f >= 0 && files[f] < 0)\n"
	"\t\treturn -EBADF;\n"
	"\tr = syscall(SYS_mmap, addr, len(n), prot, flags, f < 0 ? -1 : files[f], len(off));\n"
	"\tif (r == -1)\n"
	"\t\treturn -errno;\n"
	"\tif ((char *)r != addr) {\n"
	"\t\t/* A kernel without MAP_FIXED_NOREPLACE takes it as a hint. */\n"
	"\t\tsyscall(SYS_munmap, r, len(n));\n"
	"\t\treturn -EEXIST;\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n";

static const char rt_mremap[] =
	"/* mremap of a range to a slot; the result is the arena page it starts at. */\n"
	"static long remap(int slot, int pg, int n, int to_slot, int to_pg, int n2, long flags)\n"
	"{\n"
	"\tchar *to = at(to_slot, to_pg);\n"
	"\tlong r = syscall(SYS_mremap, at(slot, pg), len(n), len(n2), flags, to);\n"
	"\n"
	"\tif (r == -1)\n"
	"\t\treturn -errno;\n"
	"\tif ((char *)r < arena || (char *)r + len(n2) > page(ARENA_PAGES)) {\n"
	"\t\t/* Moved where the kernel liked: bring it back to the slot. */\n"
	"\t\tlong b = syscall(SYS_mremap, r, len(n2), len(n2),\n"
	"\t\t\t\t 0x3 /* MREMAP_MAYMOVE|MREMAP_FIXED */, to);\n"
	"\n"
	"\t\tif (b == -1) {\n"
	"\t\t\tsyscall(SYS_munmap, r, len(n2));\n"
	"\t\t\treturn -EFAULT;\n"
	"\t\t}\n"
	"\t\tr = b;\n"
	"\t}\n"
	"\treturn ((char *)r - arena) / psz;\n"
	"}\n";

static const char rt_pmadvise[] =
	"/* process_madvise() on this process (c < 0) or on child c, by pidfd. */\n"
	"static long pmadvise(int c, void *addr, long size, int advice)\n"
	"{\n"
	"\tstruct iovec iov = { addr, size };\n"
	"\tlong r;\n"
	"\tint fd;\n"
	"\n"
	"\tif (c >= 0)\n"
	"\t\treturn pidfds[c] < 0 ? -ESRCH :\n"
	"\t\t       sys(syscall(SYS_process_madvise, pidfds[c], &iov, 1, advice, 0));\n"
	"\tfd = syscall(SYS_pidfd_open, getpid(), 0);\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tr = sys(syscall(SYS_process_madvise, fd, &iov, 1, advice, 0));\n"
	"\tclose(fd);\n"
	"\treturn r;\n"
	"}\n";

/* track D: placement. Node masks of one word; maxnode 65 (see exec/placement.c). */
static const char rt_target[] =
	"static pid_t target_pid(int c)\n"
	"{\n"
	"\treturn c < 0 ? 0 : kids[c] > 0 ? kids[c] : -ESRCH;\n"
	"}\n";

static const char rt_mbind[] =
	"static long place_mbind(void *addr, long size, int mode, int node, int flags)\n"
	"{\n"
	"\tunsigned long mask = node >= 0 ? 1ul << node : 0;\n"
	"\n"
	"\treturn sys(syscall(SYS_mbind, addr, size, mode, node >= 0 ? &mask : NULL,\n"
	"\t\t\t   node >= 0 ? 65 : 0, flags));\n"
	"}\n";

static const char rt_move[] =
	"static long place_move(int c, char *addr, long size, int node)\n"
	"{\n"
	"\tstatic void *pages[ARENA_PAGES];\n"
	"\tstatic int nodes[ARENA_PAGES], status[ARENA_PAGES];\n"
	"\tlong n = size / psz, pid = target_pid(c);\n"
	"\n"
	"\tif (pid < 0)\n"
	"\t\treturn pid;\n"
	"\tfor (long i = 0; i < n; i++) {\n"
	"\t\tpages[i] = addr + i * psz;\n"
	"\t\tnodes[i] = node;\n"
	"\t}\n"
	"\treturn sys(syscall(SYS_move_pages, pid, n, pages, node >= 0 ? nodes : NULL, status, 0));\n"
	"}\n";

static const char rt_migrate[] =
	"static long place_migrate(int c, int from, int to)\n"
	"{\n"
	"\tunsigned long f = 1ul << from, t = 1ul << to;\n"
	"\tlong pid = target_pid(c);\n"
	"\n"
	"\treturn pid < 0 ? pid : sys(syscall(SYS_migrate_pages, pid, 65, &f, &t));\n"
	"}\n";

static const char rt_compact[] =
	"static long compact_memory(void)\n"
	"{\n"
	"\tint fd = sys(open(\"/proc/sys/vm/compact_memory\", O_WRONLY | O_CLOEXEC));\n"
	"\tlong r;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn fd;\n"
	"\tr = sys(write(fd, \"1\", 1));\n"
	"\tclose(fd);\n"
	"\treturn r < 0 ? r : 0;\n"
	"}\n";

static const char rt_mincore[] =
	"static long incore(void *addr, long size)\n"
	"{\n"
	"\tunsigned char vec[ARENA_PAGES];\n"
	"\n"
	"\treturn sys(syscall(SYS_mincore, addr, size, vec));\n"
	"}\n";

static const char rt_new_file[] =
	"/* Replace file slot f with fd, a new file, sized to npages pages. */\n"
	"static long new_file(int f, int npages, long fd)\n"
	"{\n"
	"\tlong e;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn fd;\n"
	"\tif (ftruncate(fd, len(npages))) {\n"
	"\t\te = -errno;\n"
	"\t\tclose(fd);\n"
	"\t\treturn e;\n"
	"\t}\n"
	"\tif (files[f] >= 0)\n"
	"\t\tclose(files[f]);\n"
	"\tfiles[f] = fd;\n"
	"\treturn 0;\n"
	"}\n";

static const char rt_fork[] =
	"/*\n"
	" * A fork block: the child runs its body, then lives until the join, where\n"
	" * the parent closes the pipe. libc's fork(), not the raw syscall: it keeps\n"
	" * the C library usable in the child of a threaded process.\n"
	" */\n"
	"static long start_child(int c, void (*body)(void))\n"
	"{\n"
	"\tpid_t pid;\n"
	"\tchar ch;\n"
	"\n"
	"\tif (join_pipe[0] < 0 && pipe2(join_pipe, O_CLOEXEC))\n"
	"\t\treturn -errno;\n"
	"\tpid = fork();\n"
	"\tif (pid < 0)\n"
	"\t\treturn -errno;\n"
	"\tif (!pid) {\n"
	"\t\tclose(join_pipe[1]);\n"
	"\t\tnr_threads = 0;\n"
	"\t\tbody();\n"
	"\t\twhile (read(join_pipe[0], &ch, 1) < 0 && errno == EINTR)\n"
	"\t\t\t;\n"
	"\t\t_exit(corrupted ? 1 : 0);\n"
	"\t}\n"
	"\tif (pidfds[c] >= 0)\n"
	"\t\tclose(pidfds[c]);\n"
	"\tkids[c] = pid;\n"
	"\tpidfds[c] = syscall(SYS_pidfd_open, pid, 0);\n"
	"\treturn 0;\n"
	"}\n";

static const char rt_thread[] =
	"static void (*thread_body[MAX_THREADS])(void);\n"
	"\n"
	"static void *thread_main(void *arg)\n"
	"{\n"
	"\tvoid (**body)(void) = arg;\n"
	"\n"
	"\t(*body)();\n"
	"\treturn NULL;\n"
	"}\n"
	"\n"
	"static long start_thread(void (*body)(void))\n"
	"{\n"
	"\tint k = nr_threads, e;\n"
	"\n"
	"\tif (k == MAX_THREADS)\n"
	"\t\treturn -EAGAIN;\n"
	"\tthread_body[k] = body;\n"
	"\te = pthread_create(&threads[k], NULL, thread_main, &thread_body[k]);\n"
	"\tif (e)\n"
	"\t\treturn -e;\n"
	"\tnr_threads++;\n"
	"\treturn 0;\n"
	"}\n";

static const char rt_main[] =
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tstruct sigaction sa = { .sa_handler = on_fault, .sa_flags = SA_NODEFER };\n"
	"\tstruct timespec ts;\n"
	"\tint nr_swaps = 0;\n"
	"\n"
	"\tfor (int i = 1; i < argc; i++) {\n"
	"\t\tif (!strcmp(argv[i], \"-v\")) {\n"
	"\t\t\tverbose = 1;\n"
	"\t\t} else if (!strcmp(argv[i], \"--corrupt-after\") && i + 1 < argc) {\n"
	"\t\t\tcorrupt_after = atoi(argv[++i]);\n"
	"\t\t} else if (argv[i][0] != '-' && nr_swaps < NR_SWAPS) {\n"
	"\t\t\tswaps[nr_swaps++] = argv[i];\n"
	"\t\t} else {\n"
	"\t\t\tsay(\"usage: %s [-v] [--corrupt-after N] [SWAP0 [SWAP1 ...]]\\n\", argv[0]);\n"
	"\t\t\treturn 2;\n"
	"\t\t}\n"
	"\t}\n"
	"\tsigaction(SIGSEGV, &sa, NULL);\n"
	"\tsigaction(SIGBUS, &sa, NULL);\n"
	"\tpsz = sysconf(_SC_PAGESIZE);\n"
	"\tif (arena_init()) {\n"
	"\t\tsay(\"no free place for the arena\\n\");\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tclock_gettime(CLOCK_MONOTONIC, &ts);\n"
	"\tnonce = ((uint32_t)getpid() * 2654435761u ^ (uint32_t)ts.tv_nsec) & 0xffffff;\n"
	"\tprog();\n"
	"\tfor (int f = 0; f < NR_FILES; f++)\n"
	"\t\tif (files[f] >= 0)\n"
	"\t\t\tclose(files[f]);\n"
	"\treturn corrupted ? 1 : 0;\n"
	"}\n";


enum guard { GUARD_NONE, GUARD_SIGN, GUARD_EXACT };

static const char *const guard_name[] = { "GUARD_NONE", "GUARD_SIGN", "GUARD_EXACT" };

/* What the simulation found out about one statement. */
struct info {
	long want;		/* the predicted result */
	enum guard guard;	/* how the model depends on it */
	int known_page;		/* first page the model can tell after it, -1 none */
	int nrows;		/* reads: rows of expect_N[] */
};

struct gen {
	const struct mmf_prog *p;
	struct info info[MMF_MAX_STMTS];
	struct strbuf data;	/* the expect_N[] tables of the reads */
};

/* A run of pages of a read that expect the same. */
struct row {
	int page, npages, nvals;
	int tag[MMF_VSET_MAX], shift[MMF_VSET_MAX];
	int hist[MMF_HIST];
	char what[96];
};

static int block_end(const struct mmf_prog *p, int bi)
{
	int i = bi + 1;

	while (i < p->nr && (p->stmts[i].id == MMF_COMMENT ||
			     mmf_calls[p->stmts[i].id].block != MMF_BLOCK_END))
		i++;
	return i;
}

static int next_join(const struct mmf_prog *p, int from)
{
	while (from < p->nr && p->stmts[from].id != MMF_JOIN)
		from++;
	return from;
}

static void range(const struct mmf_stmt *s, int *idx, int *n)
{
	*idx = 0;
	*n = 0;
	mmf_stmt_range(s, idx, n);
}

/*
 * Predictions: what a kernel without the bug returns, as far as the model
 * tells. A page the model lost keeps the fields it had, a good guess: most
 * pages are lost because a block may touch them, not because it did.
 */

static bool hole(const struct mmf_shadow_page *pg)
{
	return !pg->mapped;
}

/* mprotect, madvise: "ENOMEM ... not mapped". */
static long predict_holes(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	for (int i = 0; i < n; i++)
		if (hole(&sh->pages[idx + i]))
			return -ENOMEM;
	return 0;
}

/* Any access faults: PROT_NONE, a guard, past the end of its file. */
static bool no_access(const struct mmf_shadow *sh, const struct mmf_shadow_page *pg)
{
	int o = mmf_page_obj(pg);

	return pg->prot == 0 || pg->guard || pg->poison ||
	       (pg->view && o >= 0 && sh->objs[o].live && pg->objpage >= sh->objs[o].npages);
}

/* mlock populates the range and fails (ENOMEM) where a fault would. */
static long predict_lock(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	bool populate = s->id == MMF_MLOCK || (s->id == MMF_MLOCK2 && !(s->args[3] & ML_ONFAULT));

	for (int i = 0; i < n; i++)
		if (hole(&sh->pages[idx + i]) || (populate && no_access(sh, &sh->pages[idx + i])))
			return -ENOMEM;
	return 0;
}

static long predict_mmap(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	uint64_t backing = s->args[3];

	if (backing != MMF_BACKING_ANON && sh->file_obj[backing - 1] < 0)
		return -EBADF;
	for (int i = 0; i < n && !(s->args[6] & MAP_FIXED_); i++)
		if (!hole(&sh->pages[idx + i]))
			return -EEXIST;
	/* Anonymous mappings take only MAP_SHARED or MAP_PRIVATE; file ones
	 * check the flags, and the legacy set lacks MAP_FIXED_NOREPLACE.
	 */
	if (s->args[5] == SHARE_VALIDATE && backing == MMF_BACKING_ANON)
		return -EINVAL;
	if (s->args[5] == SHARE_VALIDATE && !(s->args[6] & MAP_FIXED_))
		return -EOPNOTSUPP;
	return 0;
}

/* Pages the model cannot tell apart, which the kernel would have merged. */
static bool one_vma(const struct mmf_shadow *sh, int idx, int n)
{
	const struct mmf_shadow_page *a = &sh->pages[idx];

	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *b = &sh->pages[idx + i];

		if (hole(b) || b->obj1 != a->obj1 || b->priv != a->priv || b->prot != a->prot ||
		    b->locked != a->locked || b->wipe != a->wipe || b->dontfork != a->dontfork ||
		    (a->obj1 && b->objpage != a->objpage + i))
			return false;
	}
	return true;
}

/* mm/mremap.c: the first page must be mapped; a move or growth needs the
 * range in one VMA; a shrink just unmaps the tail.
 */
static long predict_mremap(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	int n2 = MIN((int)s->args[5], MMF_ARENA_PAGES - dst);
	uint64_t flags = s->args[6];
	bool move = flags & (MR_FIXED | MR_DONTUNMAP);

	if (move && !(flags & MR_MAYMOVE))
		return -EINVAL;
	if ((flags & MR_DONTUNMAP) && n2 != n)
		return -EINVAL;
	/* The executor passes the slot as the new address, used by both. */
	if (move && dst < idx + n && idx < dst + n2)
		return -EINVAL;
	if (hole(&sh->pages[idx]))
		return -EFAULT;
	if (!move && n2 <= n)
		return idx;
	if (!one_vma(sh, idx, n))
		return -EFAULT;
	/* A move the kernel places itself, the executor brings to the slot. */
	if (move)
		return dst;
	for (int i = n; i < n2 && idx + i < MMF_ARENA_PAGES; i++)
		if (!hole(&sh->pages[idx + i]))
			return flags & MR_MAYMOVE ? dst : -ENOMEM;
	return idx;
}

static bool refuses_locked(const struct mmf_shadow_page *pg)
{
	return pg->locked;
}

static bool refuses_free(const struct mmf_shadow_page *pg)
{
	return pg->locked || mmf_page_obj(pg) >= 0;
}

static bool refuses_remove(const struct mmf_shadow_page *pg)
{
	return pg->locked || mmf_page_obj(pg) < 0 || pg->priv;
}

static bool refuses_wipe(const struct mmf_shadow_page *pg)
{
	return mmf_page_obj(pg) >= 0;
}

/* Advice a VMA can refuse: madvise() stops there with EINVAL (mm/madvise.c). */
static const struct {
	uint64_t advice;
	bool (*refuses)(const struct mmf_shadow_page *pg);
} advice_rules[] = {
	{ A_DONTNEED, refuses_locked },		/* can_madv_lru_vma() */
	{ A_COLD, refuses_locked },
	{ A_PAGEOUT, refuses_locked },
	{ A_FREE, refuses_free },		/* anonymous private only */
	{ A_REMOVE, refuses_remove },		/* shared file-backed, unlocked */
	{ A_WIPEONFORK, refuses_wipe },		/* anonymous private only */
	{ A_GUARD_INSTALL, refuses_locked },
};

static long predict_madvise(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	for (size_t r = 0; r < ARRAY_SIZE(advice_rules); r++) {
		if (advice_rules[r].advice != s->args[3])
			continue;
		for (int i = 0; i < n; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[idx + i];

			if (pg->mapped && advice_rules[r].refuses(pg))
				return -EINVAL;
		}
	}
	return predict_holes(sh, s, idx, n);
}

/* Pages a write fills before the first one that faults. */
static long predict_write(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (hole(pg) || no_access(sh, pg) || (pg->prot != 0xff && !(pg->prot & PROT_W)))
			return i;
	}
	return n;
}

/* Emission: one row per call id, printing the expression whose value is
 * the call's result.
 */

/* Append the UAPI names of v: the one name of an enum value, or each flag. */
static void names_of(struct strbuf *names, const struct mmf_flag_set *set, uint64_t v,
		     bool is_enum)
{
	for (int i = 0; i < set->nr; i++) {
		uint64_t f = set->flags[i].val;

		if (is_enum || !f ? f != v : (v & f) != f)
			continue;
		sb_printf(names, "%s%s", names->len ? "|" : "", set->flags[i].name);
		if (is_enum || !f)
			return;
	}
}

/* A value as a number with its UAPI names in a comment. */
static void value(struct strbuf *sb, uint64_t v, bool hex, const struct strbuf *names)
{
	sb_printf(sb, hex ? "0x%llx" : "%llu", (unsigned long long)v);
	if (names->len)
		sb_printf(sb, " /* %s */", names->buf);
}

/* Argument arg of s, a flag set or an enum, with its names. */
static void flag_arg(struct strbuf *sb, const struct mmf_stmt *s, int arg)
{
	const struct mmf_arg_desc *a = &mmf_calls[s->id].args[arg];
	struct strbuf names;

	sb_init(&names);
	names_of(&names, a->set, s->args[arg], a->type == MMF_ARG_ENUM);
	value(sb, s->args[arg], a->type != MMF_ARG_ENUM, &names);
	sb_free(&names);
}

static const struct mmf_flag_set *set_of(const struct mmf_stmt *s, int arg)
{
	return mmf_calls[s->id].args[arg].set;
}

/* "at(slot, page), len(npages)": the range of s in the arena. */
static void at_len(struct strbuf *sb, const struct mmf_stmt *s)
{
	int idx, n;

	range(s, &idx, &n);
	sb_printf(sb, "at(%d, %d), len(%d)", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, n);
}

/* "slot, page, npages" */
static void slot_range(struct strbuf *sb, const struct mmf_stmt *s)
{
	int idx, n;

	range(s, &idx, &n);
	sb_printf(sb, "%d, %d, %d", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, n);
}

/* sys(syscall(SYS_name, range[, flag argument arg])) */
static void emit_range_call(struct strbuf *sb, const struct mmf_stmt *s, const char *sys, int arg)
{
	sb_printf(sb, "sys(syscall(SYS_%s, ", sys);
	at_len(sb, s);
	if (arg >= 0) {
		sb_puts(sb, ", ");
		flag_arg(sb, s, arg);
	}
	sb_puts(sb, "))");
}

/* The executor's mmap: MAP_FIXED if the program says so, else
 * MAP_FIXED_NOREPLACE; files from their page at the range's page.
 */
static void emit_mmap(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	uint64_t backing = s->args[3], fl = s->args[6] & ~(uint64_t)MAP_FIXED_;
	bool anon = backing == MMF_BACKING_ANON, fixed = s->args[6] & MAP_FIXED_;
	uint64_t v = fl | s->args[5] | (anon ? MAP_ANON_ : 0) |
		     (fixed ? MAP_FIXED_ : MAP_NOREPLACE_);
	struct strbuf names;

	sb_puts(sb, "map_at(");
	slot_range(sb, s);
	sb_puts(sb, ", ");
	flag_arg(sb, s, 4);
	sb_puts(sb, ",\n\t\t   ");
	sb_init(&names);
	names_of(&names, set_of(s, 5), s->args[5], true);
	sb_puts(&names, anon ? "|MAP_ANONYMOUS" : "");
	names_of(&names, set_of(s, 6), fl, false);
	sb_puts(&names, fixed ? "|MAP_FIXED" : "|MAP_FIXED_NOREPLACE");
	value(sb, v, true, &names);
	sb_free(&names);
	if (anon)
		sb_puts(sb, ", -1 /* anon */, 0)");
	else
		sb_printf(sb, ", %d /* f%d */, %d)", (int)backing - 1, (int)backing - 1,
			  (int)s->args[1]);
}

static void emit_munmap(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "munmap", -1);
}

static void emit_mremap(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];

	sb_puts(sb, "remap(");
	slot_range(sb, s);
	sb_printf(sb, ", %d, %d, %d, ", (int)s->args[3], (int)s->args[4],
		  MIN((int)s->args[5], MMF_ARENA_PAGES - dst));
	flag_arg(sb, s, 6);
	sb_puts(sb, ")");
}

static void emit_mprotect(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "mprotect", 3);
}

static void emit_madvise(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "madvise", 3);
}

static void emit_pmadvise(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	if (s->args[3] == MMF_TARGET_SELF)
		sb_puts(sb, "pmadvise(-1 /* self */, ");
	else
		sb_printf(sb, "pmadvise(%d /* c%d */, ", (int)s->args[3] - 1, (int)s->args[3] - 1);
	at_len(sb, s);
	sb_puts(sb, ", ");
	flag_arg(sb, s, 4);
	sb_puts(sb, ")");
}

static void emit_mlock(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "mlock", -1);
}

static void emit_mlock2(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "mlock2", 3);
}

static void emit_munlock(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "munlock", -1);
}

static void emit_mlockall(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "sys(syscall(SYS_mlockall, ");
	flag_arg(sb, s, 0);
	sb_puts(sb, "))");
}

static void emit_munlockall(struct strbuf *sb, const struct mmf_stmt *s, int si,
			    const struct gen *g)
{
	sb_puts(sb, "sys(syscall(SYS_munlockall))");
}

static void emit_write(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "fill(");
	slot_range(sb, s);
	sb_printf(sb, ", 0x%02x)", (int)s->args[3]);
}

static void emit_read(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "verify(%d, ", si);
	slot_range(sb, s);
	if (g->info[si].nrows)
		sb_printf(sb, ", expect_%d, %d)", si, g->info[si].nrows);
	else
		sb_puts(sb, ", NULL, 0)");
}

static void emit_mincore(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "incore(");
	at_len(sb, s);
	sb_puts(sb, ")");
}

static void emit_msync(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	emit_range_call(sb, s, "msync", 3);
}

static void emit_memfd(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "new_file(%d, %d, sys(syscall(SYS_memfd_create, \"mmfuzz\", "
		  "0x1 /* MFD_CLOEXEC */)))", (int)s->args[0], (int)s->args[1]);
}

static void emit_tmpfile(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	/* The executor's default directory: tmpfs. */
	sb_printf(sb, "new_file(%d, %d, sys(open(\"/dev/shm\", O_TMPFILE | O_RDWR | O_CLOEXEC, "
		  "0600)))", (int)s->args[0], (int)s->args[1]);
}

static void emit_swapoff(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	int n = s->args[0];

	sb_printf(sb, "swaps[%d] ? sys(syscall(SYS_swapoff, swaps[%d])) : -ENODEV", n, n);
}

static void emit_swapon(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	int64_t prio = (int64_t)s->args[1];
	uint64_t v = s->args[2];
	struct strbuf names;
	int n = s->args[0];

	sb_init(&names);
	names_of(&names, set_of(s, 2), v, false);
	/* As the executor: a priority of 0..100 is preferred, -1 the default. */
	if (prio >= 0) {
		v |= SWAP_PREFER | (prio & SWAP_PRIO_MASK);
		sb_printf(&names, "%sSWAP_FLAG_PREFER|%lld", names.len ? "|" : "", (long long)prio);
	}
	sb_printf(sb, "swaps[%d] ? sys(syscall(SYS_swapon, swaps[%d], ", n, n);
	value(sb, v, true, &names);
	sb_puts(sb, ")) : -ENODEV");
	sb_free(&names);
}

/* track D: placement */
static int target_child(const struct mmf_stmt *s, int arg)
{
	return s->args[arg] == MMF_TARGET_SELF ? -1 : (int)s->args[arg] - 1;
}

static void emit_mbind(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "place_mbind(");
	at_len(sb, s);
	sb_puts(sb, ", ");
	flag_arg(sb, s, 3);
	sb_printf(sb, ", %d, ", (int)(int64_t)s->args[4]);
	flag_arg(sb, s, 5);
	sb_puts(sb, ")");
}

static void emit_move_pages(struct strbuf *sb, const struct mmf_stmt *s, int si,
			    const struct gen *g)
{
	sb_printf(sb, "place_move(%d, ", target_child(s, 3));
	at_len(sb, s);
	sb_printf(sb, ", %d)", (int)(int64_t)s->args[4]);
}

static void emit_migrate_pages(struct strbuf *sb, const struct mmf_stmt *s, int si,
			       const struct gen *g)
{
	sb_printf(sb, "place_migrate(%d, %d, %d)", target_child(s, 0), (int)s->args[1],
		  (int)s->args[2]);
}

static void emit_compact(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "compact_memory()");
}

static void emit_fork(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "start_child(%d, block_%d)", (int)s->args[0], si);
}

static void emit_thread(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "start_thread(block_%d)", si);
}

static void emit_join(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "join_all()");
}

/*
 * One row per call: the C expression of the call, its result prediction
 * (none: 0) and the runtime pieces its expression uses.
 */
static const struct emitter {
	void (*emit)(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g);
	long (*predict)(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n);
	const char *needs[2];
} emitters[MMF_NR_CALLS] = {
	[MMF_MMAP] = { emit_mmap, predict_mmap, { rt_mmap } },
	[MMF_MUNMAP] = { emit_munmap },
	[MMF_MREMAP] = { emit_mremap, predict_mremap, { rt_mremap } },
	[MMF_MPROTECT] = { emit_mprotect, predict_holes },
	[MMF_MADVISE] = { emit_madvise, predict_madvise },
	[MMF_PROCESS_MADVISE] = { emit_pmadvise, NULL, { rt_pmadvise } },
	[MMF_MLOCK] = { emit_mlock, predict_lock },
	[MMF_MLOCK2] = { emit_mlock2, predict_lock },
	[MMF_MUNLOCK] = { emit_munlock, predict_lock },
	[MMF_MLOCKALL] = { emit_mlockall },
	[MMF_MUNLOCKALL] = { emit_munlockall },
	[MMF_WRITE] = { emit_write, predict_write, { rt_guarded, rt_fill } },
	[MMF_READ] = { emit_read, NULL, { rt_guarded, rt_verify } },
	[MMF_MINCORE] = { emit_mincore, NULL, { rt_mincore } },
	[MMF_MSYNC] = { emit_msync },
	[MMF_MEMFD] = { emit_memfd, NULL, { rt_new_file } },
	[MMF_TMPFILE] = { emit_tmpfile, NULL, { rt_new_file } },
	[MMF_SWAPOFF] = { emit_swapoff },
	[MMF_SWAPON] = { emit_swapon },
	/* issue 7 track B: userfaultfd (csource_uffd.c) */
	[MMF_UFFD_CREATE] = { mmf_emit_uffd_create, NULL, { mmf_rt_uffd } },
	[MMF_UFFD_REGISTER] = { mmf_emit_uffd_register, NULL, { mmf_rt_uffd } },
	[MMF_UFFD_UNREGISTER] = { mmf_emit_uffd_unregister, NULL, { mmf_rt_uffd } },
	[MMF_UFFD_COPY] = { mmf_emit_uffd_copy, mmf_predict_uffd_fill, { mmf_rt_uffd } },
	[MMF_UFFD_ZEROPAGE] = { mmf_emit_uffd_zeropage, mmf_predict_uffd_fill, { mmf_rt_uffd } },
	[MMF_UFFD_WRITEPROTECT] = { mmf_emit_uffd_writeprotect, NULL, { mmf_rt_uffd } },
	[MMF_UFFD_CONTINUE] = { mmf_emit_uffd_continue, mmf_predict_uffd_fill, { mmf_rt_uffd } },
	[MMF_UFFD_POISON] = { mmf_emit_uffd_poison, mmf_predict_uffd_fill, { mmf_rt_uffd } },
	[MMF_UFFD_MOVE] = { mmf_emit_uffd_move, mmf_predict_uffd_fill, { mmf_rt_uffd } },
	/* track A: pins (csource_pins.c) */
	[MMF_VMSPLICE] = { mmf_cs_vmsplice, mmf_cs_predict_vmsplice,
		{ mmf_rt_pins_own, mmf_rt_pipe } },
	[MMF_PIPE_READ] = { mmf_cs_pipe_read, mmf_cs_predict_pipe_read,
		{ mmf_rt_pins_own, mmf_rt_pipe } },
	[MMF_URING_REGISTER] = { mmf_cs_uring_register, mmf_cs_predict_register,
		{ mmf_rt_pins_own, mmf_rt_uring } },
	[MMF_URING_READ_FIXED] = { mmf_cs_uring_read, mmf_cs_predict_fixed,
		{ mmf_rt_pins_own, mmf_rt_uring } },
	[MMF_URING_WRITE_FIXED] = { mmf_cs_uring_write, mmf_cs_predict_fixed,
		{ mmf_rt_pins_own, mmf_rt_uring } },
	[MMF_DIO_FILE] = { mmf_cs_dio_file, NULL, { rt_new_file } },
	[MMF_DIO_READ] = { mmf_cs_dio_read, mmf_cs_predict_dio, { mmf_rt_dio } },
	[MMF_DIO_WRITE] = { mmf_cs_dio_write, mmf_cs_predict_dio, { mmf_rt_dio } },
	[MMF_PROCESS_VM_READV] = { mmf_cs_pvm_readv, mmf_cs_predict_pvm, { mmf_rt_pvm } },
	[MMF_PROCESS_VM_WRITEV] = { mmf_cs_pvm_writev, mmf_cs_predict_pvm, { mmf_rt_pvm } },
	/* Track C: csource_c.c. */
	[MMF_CG_MOVE] = { mmf_emit_cg_move, NULL, { mmf_rt_c } },
	[MMF_CG_LIMIT] = { mmf_emit_cg_limit, NULL, { mmf_rt_c, mmf_rt_keep } },
	[MMF_CG_RECLAIM] = { mmf_emit_cg_reclaim, NULL, { mmf_rt_c } },
	[MMF_MEMFD_CREATE] = { mmf_emit_memfd_create, NULL, { rt_new_file } },
	[MMF_MEMFD_SECRET] = { mmf_emit_memfd_secret, NULL, { rt_new_file } },
	[MMF_DEVZERO] = { mmf_emit_devzero, NULL, { mmf_rt_c } },
	[MMF_MEMFD_SEAL] = { mmf_emit_memfd_seal },
	[MMF_FALLOCATE] = { mmf_emit_fallocate },
	[MMF_FTRUNCATE] = { mmf_emit_ftruncate },
	[MMF_PWRITE] = { mmf_emit_pwrite, NULL, { mmf_rt_c } },
	[MMF_PREAD] = { mmf_emit_pread, NULL, { mmf_rt_c } },
	[MMF_SPECIAL_MAP] = { mmf_emit_special_map, NULL, { mmf_rt_c } },
	[MMF_PRCTL_MERGE] = { mmf_emit_prctl_merge, NULL, { mmf_rt_c } },
	[MMF_KSM_WAIT] = { mmf_emit_ksm_wait, NULL, { mmf_rt_c } },
	[MMF_THP_KNOB] = { mmf_emit_thp_knob, NULL, { mmf_rt_c, mmf_rt_keep } },
	/* track D: placement */
	[MMF_MBIND] = { emit_mbind, NULL, { rt_mbind } },
	[MMF_MOVE_PAGES] = { emit_move_pages, NULL, { rt_target, rt_move } },
	[MMF_MIGRATE_PAGES] = { emit_migrate_pages, NULL, { rt_target, rt_migrate } },
	[MMF_COMPACT] = { emit_compact, NULL, { rt_compact } },
	[MMF_FORK] = { emit_fork, NULL, { rt_fork } },
	[MMF_THREAD] = { emit_thread, NULL, { rt_thread } },
	[MMF_END] = { NULL },
	[MMF_JOIN] = { emit_join },
};

/* The model's state after s returned res, on a copy. */
static struct mmf_shadow *clone(const struct mmf_shadow *sh)
{
	struct mmf_shadow *c = xmalloc(sizeof(*c));

	memcpy(c, sh, sizeof(*c));
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		size_t size = sh->objs[o].npages * sizeof(*sh->objs[o].pages);

		if (!sh->objs[o].pages)
			continue;
		c->objs[o].pages = xmalloc(size ? size : 1);
		memcpy(c->objs[o].pages, sh->objs[o].pages, size);
	}
	return c;
}

_Static_assert(offsetof(struct mmf_shadow, objs) + sizeof(((struct mmf_shadow *)0)->objs) ==
	       sizeof(struct mmf_shadow), "same() compares the objects after the rest");

static bool same(const struct mmf_shadow *a, const struct mmf_shadow *b)
{
	if (memcmp(a, b, offsetof(struct mmf_shadow, objs)))
		return false;
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		const struct mmf_shadow_obj *x = &a->objs[o], *y = &b->objs[o];

		if (x->live != y->live || x->npages != y->npages || !x->pages != !y->pages ||
		    (x->pages && memcmp(x->pages, y->pages, x->npages * sizeof(*x->pages))))
			return false;
	}
	return true;
}

static struct mmf_shadow *after(const struct mmf_shadow *sh, const struct mmf_stmt *s, int si,
				long res)
{
	struct mmf_shadow *c = clone(sh);

	mmf_shadow_apply(c, s, si, res);
	return c;
}

/*
 * How the model depends on the result of s: feed it other results (valid
 * ones: counts up to n pages, errnos) and compare with the prediction's.
 * Byte comparison may see a difference in padding where there is none; that
 * only makes the guard stricter.
 */
static enum guard guard_of(const struct mmf_shadow *sh, const struct mmf_stmt *s, int si,
			   long want)
{
	long probes[] = { 0, 1, 1, -EINVAL, -ENOMEM, -EFAULT, -EEXIST, -EBADF };
	struct mmf_shadow *ref = after(sh, s, si, want);
	enum guard g = GUARD_NONE;
	int idx, n;

	range(s, &idx, &n);
	probes[2] = MAX(n, 1);

	for (size_t i = 0; i < ARRAY_SIZE(probes) && g != GUARD_EXACT; i++) {
		struct mmf_shadow *alt;

		if (probes[i] == want)
			continue;
		alt = after(sh, s, si, probes[i]);
		if (!same(ref, alt))
			g = MAX(g, (probes[i] < 0) == (want < 0) ? GUARD_EXACT : GUARD_SIGN);
		mmf_shadow_delete(alt);
	}
	mmf_shadow_delete(ref);
	return g;
}

/* The title's "after <call>": interp.c's last_call(), for the same titles. */
static void last_call(const struct mmf_prog *p, int si, struct strbuf *sb)
{
	const struct mmf_stmt *s = &p->stmts[si];
	const struct mmf_call_desc *d = &mmf_calls[s->id];
	const struct mmf_arg_desc *a = &d->args[d->nr_args - 1];

	sb_puts(sb, d->name);
	if (s->id != MMF_MADVISE && s->id != MMF_PROCESS_MADVISE)
		return;
	for (int i = 0; i < a->set->nr; i++)
		if (a->set->flags[i].val == s->args[d->nr_args - 1])
			sb_printf(sb, "(%s)", a->set->flags[i].name);
}

/* What page idx must hold; false when the model cannot tell. */
static bool row_of(const struct mmf_shadow *sh, const struct mmf_prog *p, int idx, struct row *r)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];
	struct mmf_vset vs;
	struct strbuf sb;

	if (!mmf_shadow_expect(sh, idx, &vs))
		return false;
	memset(r, 0, sizeof(*r));
	r->page = idx;
	r->npages = 1;
	r->nvals = vs.n;
	for (int i = 0; i < vs.n; i++) {
		uint64_t v = vs.v[i];

		if (!v)
			continue;
		/* Only zero and pattern words: anything else is not checked. */
		if ((v >> 32 & 0xffffff) != sh->nonce || !(v >> 56))
			return false;
		r->tag[i] = v >> 56;
		r->shift[i] = (int)((uint32_t)v - 1) - idx;
	}
	for (int h = 0; h < MMF_HIST; h++)
		r->hist[h] = mmf_page_hist(pg, h);
	sb_init(&sb);
	sb_printf(&sb, "%s page after ", mmf_shadow_backing_name(sh, idx));
	if (r->hist[0] >= 0)
		last_call(p, r->hist[0], &sb);
	else
		sb_puts(&sb, "mmap");
	snprintf(r->what, sizeof(r->what), "%s", sb.buf);
	sb_free(&sb);
	return true;
}

static bool row_extends(const struct row *a, const struct row *b)
{
	return b->page == a->page + a->npages && a->nvals == b->nvals &&
	       !memcmp(a->tag, b->tag, sizeof(a->tag)) &&
	       !memcmp(a->shift, b->shift, sizeof(a->shift)) &&
	       !memcmp(a->hist, b->hist, sizeof(a->hist)) && !strcmp(a->what, b->what);
}

static void print_row(struct strbuf *sb, const struct row *r)
{
	sb_printf(sb, "\t{ %d, %d, %d, {", r->page, r->npages, r->nvals);
	for (int i = 0; i < r->nvals; i++)
		sb_printf(sb, "%s { 0x%02x, %d }", i ? "," : "", r->tag[i], r->shift[i]);
	sb_printf(sb, " }, { %d, %d, %d, %d }, \"%s\" },\n",
		  r->hist[0], r->hist[1], r->hist[2], r->hist[3], r->what);
}

/* The expect_N[] table of the read at si; returns its number of rows. */
static int expect_rows(struct gen *g, const struct mmf_shadow *sh, int si)
{
	struct row cur, next;
	int idx, n, nrows = 0;
	bool open = false;

	range(&g->p->stmts[si], &idx, &n);
	for (int i = 0; i < n; i++) {
		if (!row_of(sh, g->p, idx + i, &next))
			continue;
		if (open && row_extends(&cur, &next)) {
			cur.npages++;
			continue;
		}
		if (!nrows)
			sb_printf(&g->data, "\nstatic const struct expect expect_%d[] = {\n", si);
		if (open)
			print_row(&g->data, &cur);
		cur = next;
		open = true;
		nrows++;
	}
	if (open) {
		print_row(&g->data, &cur);
		sb_puts(&g->data, "};\n");
	}
	return nrows;
}

static long predict(const struct mmf_shadow *sh, const struct mmf_stmt *s)
{
	const struct emitter *e = &emitters[s->id];
	const char *why;
	int err = mmf_acct_expected_errno(sh, s, &why);
	int idx, n;

	/* The accounting oracle's documented errnos first. */
	if (err)
		return -err;
	range(s, &idx, &n);
	return e->predict ? e->predict(sh, s, idx, n) : 0;
}

static void sim_call(struct gen *g, struct mmf_shadow *sh, int si)
{
	const struct mmf_stmt *s = &g->p->stmts[si];
	struct info *in = &g->info[si];
	struct mmf_vset vs;

	in->want = predict(sh, s);
	in->guard = guard_of(sh, s, si, in->want);
	if (s->id == MMF_READ)
		in->nrows = expect_rows(g, sh, si);
	mmf_shadow_apply(sh, s, si, in->want);
	in->known_page = -1;
	for (int idx = 0; idx < MMF_ARENA_PAGES && in->known_page < 0; idx++)
		if (mmf_shadow_expect(sh, idx, &vs))
			in->known_page = idx;
}

static void sim_block(struct gen *g, struct mmf_shadow *sh, int from, int to)
{
	for (int i = from; i < to; i++)
		if (g->p->stmts[i].id != MMF_COMMENT)
			sim_call(g, sh, i);
}

/* File slots that thread blocks between first and end re-create. */
static uint8_t threads_create(const struct mmf_prog *p, int first, int end)
{
	bool in_thread = false;
	uint8_t files = 0;

	for (int i = first; i < end; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		if (mmf_calls[s->id].block != MMF_BLOCK_NONE)
			in_thread = s->id == MMF_THREAD;
		else if (in_thread && (s->id == MMF_MEMFD || s->id == MMF_TMPFILE))
			files |= 1u << s->args[0];
	}
	return files;
}

/* The child on a copy of the model, as start_child() in interp.c. */
static void sim_fork(struct gen *g, struct mmf_shadow *sh, int first, int bi)
{
	struct mmf_shadow *child = clone(sh);

	mmf_shadow_fork_child(child);
	mmf_shadow_child_of(child, g->p, first, bi);
	child->contested_files |= threads_create(g->p, first, bi);
	sim_block(g, child, bi + 1, block_end(g->p, bi));
	mmf_shadow_delete(child);
	mmf_shadow_forked(sh, g->p, first, bi);
}

/*
 * The race rules, and one more for the order of the simulation: a fork
 * child of the group may get the file a thread re-creates or the one
 * before it, depending on when it forks, and the thread has run its whole
 * block here before the fork. Such files are unknown to every party.
 */
static void group_begin(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int join)
{
	bool fork = false;

	mmf_shadow_group_begin(sh, p, first, join);
	for (int i = first; i < join && !fork; i++)
		fork = p->stmts[i].id == MMF_FORK;
	if (fork)
		sh->contested_files |= threads_create(p, first, join);
}

static void simulate(struct gen *g)
{
	const struct mmf_prog *p = g->p;
	struct mmf_shadow *sh = mmf_shadow_new(SIM_NONCE);
	int first = -1;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (first < 0) {
				first = i;
				group_begin(sh, p, i, next_join(p, i));
			}
			/* A thread that did not start did not run its block. */
			g->info[i] = (struct info){ 0, GUARD_SIGN, -1, 0 };
			if (s->id == MMF_FORK)
				sim_fork(g, sh, first, i);
			else
				sim_block(g, sh, i + 1, block_end(p, i));
			i = block_end(p, i);
			break;
		case MMF_BLOCK_JOIN:
			mmf_shadow_group_end(sh);
			first = -1;
			g->info[i] = (struct info){ 0, GUARD_NONE, -1, 0 };
			break;
		default:
			sim_call(g, sh, i);
		}
	}
	mmf_shadow_delete(sh);
}

/* Text inside a C comment: nothing may close it. */
static void comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		sb_add(sb, s, 1);
		if (s[0] == '*' && s[1] == '/')
			sb_puts(sb, " ");
	}
}

static void c_string(struct strbuf *sb, const char *s)
{
	sb_puts(sb, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_puts(sb, "\\");
		sb_add(sb, s, 1);
	}
	sb_puts(sb, "\"");
}

static void emit_header(struct strbuf *sb, const struct mmf_prog *p)
{
	struct strbuf text;
	char *line, *save = NULL;

	sb_puts(sb, "// SPDX-License-Identifier: GPL-2.0\n"
		"/*\n"
		" * mmfuzz C reproducer, made by \"mmfuzz gen --csource\". Standalone:\n"
		" *\n"
		" *\tgcc -O2 -pthread -o repro repro.c\n"
		" *\t./repro [-v] [--corrupt-after N] [SWAP0 [SWAP1 ...]]\n"
		" *\n"
		" * It runs the program below as the mmfuzz executor does: the same arena,\n"
		" * pattern words and blocks, a raw syscall for every mm call. A read checks\n"
		" * the pages whose content the shadow model could predict when this file\n"
		" * was made, assuming each call returns what was predicted then; a call\n"
		" * that returns something else stops the checks in its process (said on\n"
		" * stderr). A page that differs is reported on stdout as the executor\n"
		" * reports it, \"DATA CORRUPTION: <class> <backing> page after <call>\",\n"
		" * and the exit status is 1; else 0. -v traces every call on stderr.\n"
		" * swapoff(sN) and swapon(sN) act on the Nth path given (none: ENODEV):\n"
		" * give only swap devices that may be turned off.\n"
		" *\n"
		" * The program:\n"
		" *\n");
	sb_init(&text);
	mmf_prog_print(p, &text);
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sb_puts(sb, " *\t");
		comment_text(sb, line);
		sb_puts(sb, "\n");
	}
	sb_free(&text);
	sb_puts(sb, " */\n");
}

static void emit_stmt_table(struct strbuf *sb, const struct gen *g)
{
	const struct mmf_prog *p = g->p;
	struct strbuf text;

	sb_printf(sb, "\nstatic const struct stmt stmts[%d] = {\n", p->nr);
	sb_init(&text);
	for (int i = 0; i < p->nr; i++) {
		const struct info *in = &g->info[i];

		if (p->stmts[i].id == MMF_COMMENT ||
		    mmf_calls[p->stmts[i].id].block == MMF_BLOCK_END)
			continue;
		text.len = 0;
		mmf_stmt_print(&p->stmts[i], &text);
		sb_printf(sb, "\t[%d] = { ", i);
		c_string(sb, text.buf);
		sb_printf(sb, ", %s, %ld, %d },\n", guard_name[in->guard], in->want,
			  in->known_page);
	}
	sb_free(&text);
	sb_puts(sb, "};\n");
}

static void emit_needs(struct strbuf *sb, const struct mmf_prog *p)
{
	const char *done[2 * MMF_NR_CALLS];
	int nr_done = 0;

	for (int id = 0; id < MMF_NR_CALLS; id++) {
		bool used = false;

		for (int i = 0; i < p->nr && !used; i++)
			used = p->stmts[i].id == id;
		for (int k = 0; used && k < 2 && emitters[id].needs[k]; k++) {
			int j;

			for (j = 0; j < nr_done && done[j] != emitters[id].needs[k]; j++)
				;
			if (j < nr_done)
				continue;
			done[nr_done++] = emitters[id].needs[k];
			sb_puts(sb, "\n");
			sb_puts(sb, emitters[id].needs[k]);
		}
	}
}

/* Statements [from, to) of one party; blocks become functions of their own. */
static void emit_body(struct strbuf *sb, const struct gen *g, int from, int to)
{
	const struct mmf_prog *p = g->p;
	bool calls = false;

	for (int i = from; i < to && !calls; i++)
		calls = p->stmts[i].id != MMF_COMMENT;
	if (calls)
		sb_puts(sb, "\tlong r;\n\n");
	for (int i = from; i < to; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT) {
			sb_puts(sb, "\t/* ");
			comment_text(sb, p->text + s->comment);
			sb_puts(sb, " */\n");
			continue;
		}
		sb_printf(sb, "\t/* %d: ", i);
		mmf_stmt_print(s, sb);
		sb_puts(sb, " */\n\tr = ");
		emitters[s->id].emit(sb, s, i, g);
		sb_printf(sb, ";\n\tdone(%d, r);\n", i);
		if (mmf_calls[s->id].block == MMF_BLOCK_FORK ||
		    mmf_calls[s->id].block == MMF_BLOCK_THREAD)
			i = block_end(p, i);
	}
}

static void emit_code(struct strbuf *sb, const struct gen *g)
{
	const struct mmf_prog *p = g->p;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT || (s->id != MMF_FORK && s->id != MMF_THREAD))
			continue;
		sb_printf(sb, "\n/* %d: ", i);
		mmf_stmt_print(s, sb);
		sb_printf(sb, " ... } */\nstatic void block_%d(void)\n{\n", i);
		emit_body(sb, g, i + 1, block_end(p, i));
		sb_puts(sb, "}\n");
		i = block_end(p, i);
	}
	sb_puts(sb, "\n/* The main line; the end of the program joins. */\n"
		"static void prog(void)\n{\n");
	emit_body(sb, g, 0, p->nr);
	sb_puts(sb, "\tjoin_all();\n}\n\n");
}

void mmf_prog_csource(const struct mmf_prog *p, struct strbuf *sb)
{
	struct gen *g = xcalloc(1, sizeof(*g));
	/* Without calls, what only calls use would be unused: a warning. */
	bool calls = mmf_prog_nr_calls(p) > 0;

	g->p = p;
	sb_init(&g->data);
	simulate(g);
	emit_header(sb, p);
	sb_puts(sb, rt_head);
	if (calls)
		emit_stmt_table(sb, g);
	if (g->data.len)
		sb_add(sb, g->data.buf, g->data.len);
	sb_puts(sb, "\n");
	sb_puts(sb, rt_common);
	for (size_t i = 0; i < ARRAY_SIZE(arena_candidates); i++)
		sb_printf(sb, "\t\t0x%llxull,\n", arena_candidates[i]);
	sb_puts(sb, rt_arena_tail);
	if (calls) {
		sb_puts(sb, "\n");
		sb_puts(sb, rt_done);
	}
	emit_needs(sb, p);
	emit_code(sb, g);
	sb_puts(sb, rt_main);
	sb_free(&g->data);
	free(g);
}
