// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's code of the cgroup, file, KSM and knob calls, as the
 * executor runs them (exec/cgknobs.c, exec/files.c). The reproducer has no
 * environment of its own: the memory cgroups are the directories in
 * $MMFUZZ_CG0..2 (-ENODEV when unset). Knobs and cgroup limits it writes
 * are written back when it ends, however it ends (mmf_rt_keep).
 */
#include "oracle/csource_c.h"
#include "util/util.h"

const char mmf_rt_c[] =
	"#include <sys/mman.h>\n"
	"#include <sys/prctl.h>\n"
	"#include <linux/perf_event.h>\n"
	"\n"
	"/* Helpers of the calls below: a program uses only some. */\n"
	"/* One write(2) to a cgroup or sysfs file. */\n"
	"static __attribute__((unused)) long put_file(const char *path, const char *val)\n"
	"{\n"
	"\tint fd = open(path, O_WRONLY | O_CLOEXEC);\n"
	"\tlong r = 0;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tif (write(fd, val, strlen(val)) < 0)\n"
	"\t\tr = -errno;\n"
	"\tclose(fd);\n"
	"\treturn r;\n"
	"}\n"
	"\n"
	"/* File v2 (else v1) of memory cgroup cg ($MMFUZZ_CG<cg>) into path. */\n"
	"static int cg_path(int cg, const char *v2, const char *v1, char *path, size_t n)\n"
	"{\n"
	"\tchar var[16];\n"
	"\tconst char *dir;\n"
	"\n"
	"\tsnprintf(var, sizeof(var), \"MMFUZZ_CG%d\", cg);\n"
	"\tdir = getenv(var);\n"
	"\tif (!dir)\n"
	"\t\treturn -ENODEV;\n"
	"\tsnprintf(path, n, \"%s/%s\", dir, v2);\n"
	"\tif (v1 && access(path, F_OK))\n"
	"\t\tsnprintf(path, n, \"%s/%s\", dir, v1);\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long cg_put(int cg, const char *v2, const char *v1, const char *val)\n"
	"{\n"
	"\tchar path[4096];\n"
	"\n"
	"\treturn cg_path(cg, v2, v1, path, sizeof(path)) ?: put_file(path, val);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long cg_num(int cg, const char *v2, const char *v1, long long v)\n"
	"{\n"
	"\tchar val[32];\n"
	"\n"
	"\tsnprintf(val, sizeof(val), \"%lld\", v);\n"
	"\treturn cg_put(cg, v2, v1, val);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long set_fd(int f, long fd)\n"
	"{\n"
	"\tif (fd < 0)\n"
	"\t\treturn fd;\n"
	"\tif (files[f] >= 0)\n"
	"\t\tclose(files[f]);\n"
	"\tfiles[f] = fd;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/* pwrite/pread page by page; the pattern of file page pg. */\n"
	"static __attribute__((unused)) long file_pages(int f, int pg, int n, int tag, int write)\n"
	"{\n"
	"\tuint64_t *buf = malloc(psz);\n"
	"\tlong done = 0, r = 0;\n"
	"\n"
	"\tfor (; buf && done < n; done++) {\n"
	"\t\tfor (long i = 0; write && i < psz / 8; i++)\n"
	"\t\t\tbuf[i] = word(tag, ARENA_PAGES + pg + done);\n"
	"\t\tr = write ? pwrite(files[f], buf, psz, (pg + done) * psz) :\n"
	"\t\t\t    pread(files[f], buf, psz, (pg + done) * psz);\n"
	"\t\tif (r != psz)\n"
	"\t\t\tbreak;\n"
	"\t}\n"
	"\tr = done || r >= 0 ? done : -errno;\n"
	"\tfree(buf);\n"
	"\treturn r;\n"
	"}\n"
	"\n"
	"/* A perf ring buffer of 1 + 2^n pages at the range. */\n"
	"static __attribute__((unused)) long perf_map(int slot, int pg, int n)\n"
	"{\n"
	"\tstatic int fd = -1;\n"
	"\tstruct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,\n"
	"\t\t\t\t      .config = PERF_COUNT_SW_DUMMY, .exclude_kernel = 1 };\n"
	"\tlong pages;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\tfd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 8 /* FD_CLOEXEC */);\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tfor (pages = 1; pages * 2 + 1 <= n; pages *= 2)\n"
	"\t\t;\n"
	"\tpages = n == 1 ? 1 : pages + 1;\n"
	"\tif (mmap(at(slot, pg), len(pages), PROT_READ | PROT_WRITE,\n"
	"\t\t MAP_SHARED | 0x100000 /* MAP_FIXED_NOREPLACE */, fd, 0) != at(slot, pg))\n"
	"\t\treturn -errno;\n"
	"\treturn pages;\n"
	"}\n"
	"\n"
	"/* Until ksmd finished scans more full scans, at most 1.5 s each. */\n"
	"static __attribute__((unused)) long ksm_wait(int scans)\n"
	"{\n"
	"\tchar buf[32];\n"
	"\tlong from = -1, now;\n"
	"\n"
	"\tfor (int ms = 0; ms <= 1500 * scans; ms += 10) {\n"
	"\t\tint fd = open(\"/sys/kernel/mm/ksm/full_scans\", O_RDONLY);\n"
	"\t\tssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);\n"
	"\n"
	"\t\tif (fd >= 0)\n"
	"\t\t\tclose(fd);\n"
	"\t\tif (n <= 0)\n"
	"\t\t\treturn -EOPNOTSUPP;\n"
	"\t\tbuf[n] = 0;\n"
	"\t\tnow = atol(buf);\n"
	"\t\tif (from < 0)\n"
	"\t\t\tfrom = now;\n"
	"\t\tif (now - from >= scans)\n"
	"\t\t\treturn now - from;\n"
	"\t\tusleep(10000);\n"
	"\t}\n"
	"\treturn -ETIMEDOUT;\n"
	"}\n";

/*
 * Knobs and cgroup limits the program writes, with the values they had
 * before: written back at exit, on SIGTERM, SIGINT and SIGHUP, and, after a
 * SIGKILL, by a guardian process that waits for every process of the
 * reproducer to close its pipe. The table is shared, since fork children
 * write knobs too.
 */
const char mmf_rt_keep[] =
	"#define MAX_KEPT 32\n"
	"\n"
	"static struct kept {\n"
	"\tint lock, nr, restored;\n"
	"\tstruct { char path[256], val[64]; } e[MAX_KEPT];\n"
	"} *kept;\n"
	"static pid_t kept_owner;\n"
	"\n"
	"/* \"always [madvise] never\" -> \"madvise\"; \"max\\n\" -> \"max\". */\n"
	"static void kept_value(char *v)\n"
	"{\n"
	"\tchar *l = strchr(v, '['), *r = l ? strchr(l, ']') : NULL;\n"
	"\n"
	"\tif (l && r) {\n"
	"\t\tmemmove(v, l + 1, r - l - 1);\n"
	"\t\tv[r - l - 1] = '\\0';\n"
	"\t}\n"
	"\tv[strcspn(v, \"\\n\")] = '\\0';\n"
	"}\n"
	"\n"
	"static void kept_restore(void)\n"
	"{\n"
	"\tif (!kept || __atomic_exchange_n(&kept->restored, 1, __ATOMIC_SEQ_CST))\n"
	"\t\treturn;\n"
	"\tfor (int i = kept->nr - 1; i >= 0; i--)\n"
	"\t\tif (put_file(kept->e[i].path, kept->e[i].val))\n"
	"\t\t\tsay(\"cannot write %s back to %s\\n\", kept->e[i].path, kept->e[i].val);\n"
	"}\n"
	"\n"
	"static void kept_at_exit(void)\n"
	"{\n"
	"\tif (getpid() == kept_owner)\n"
	"\t\tkept_restore();\n"
	"}\n"
	"\n"
	"static void kept_on_signal(int sig)\n"
	"{\n"
	"\tkept_at_exit();\n"
	"\tsignal(sig, SIG_DFL);\n"
	"\traise(sig);\n"
	"}\n"
	"\n"
	"static void __attribute__((constructor)) kept_init(void)\n"
	"{\n"
	"\tstatic const int sigs[] = { SIGTERM, SIGINT, SIGHUP };\n"
	"\tint p[2];\n"
	"\tchar c;\n"
	"\n"
	"\tkept = mmap(NULL, sizeof(*kept), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);\n"
	"\tif (kept == MAP_FAILED) {\n"
	"\t\tkept = NULL;\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tkept_owner = getpid();\n"
	"\tatexit(kept_at_exit);\n"
	"\tfor (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)\n"
	"\t\tsignal(sigs[i], kept_on_signal);\n"
	"\tif (pipe(p))\n"
	"\t\treturn;\n"
	"\tif (fork() == 0) {\n"
	"\t\t/* Out of the process group a timeout or ^C signals. */\n"
	"\t\tsetsid();\n"
	"\t\tfor (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)\n"
	"\t\t\tsignal(sigs[i], SIG_IGN);\n"
	"\t\tclose(p[1]);\n"
	"\t\twhile (read(p[0], &c, 1) < 0 && errno == EINTR)\n"
	"\t\t\t;\n"
	"\t\tkept_restore();\n"
	"\t\t_exit(0);\n"
	"\t}\n"
	"\tclose(p[0]);\n"
	"}\n"
	"\n"
	"/* put_file(), with the file's old value kept first (once a file). */\n"
	"static long put_kept(const char *path, const char *val)\n"
	"{\n"
	"\tint fd, i, n;\n"
	"\n"
	"\tif (!kept)\n"
	"\t\treturn -ENOMEM;\n"
	"\twhile (__atomic_exchange_n(&kept->lock, 1, __ATOMIC_ACQUIRE))\n"
	"\t\t;\n"
	"\tfor (i = 0; i < kept->nr && strcmp(kept->e[i].path, path); i++)\n"
	"\t\t;\n"
	"\tif (i == kept->nr && i < MAX_KEPT && strlen(path) < sizeof(kept->e[i].path) &&\n"
	"\t    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {\n"
	"\t\tn = read(fd, kept->e[i].val, sizeof(kept->e[i].val) - 1);\n"
	"\t\tclose(fd);\n"
	"\t\tif (n > 0) {\n"
	"\t\t\tkept->e[i].val[n] = '\\0';\n"
	"\t\t\tkept_value(kept->e[i].val);\n"
	"\t\t\tstrcpy(kept->e[i].path, path);\n"
	"\t\t\tkept->nr++;\n"
	"\t\t}\n"
	"\t}\n"
	"\t__atomic_store_n(&kept->lock, 0, __ATOMIC_RELEASE);\n"
	"\tif (i == MAX_KEPT || i > kept->nr - 1 || strcmp(kept->e[i].path, path))\n"
	"\t\treturn -ENOSPC;\t/* its old value is unknown: not written */\n"
	"\treturn put_file(path, val);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long cg_keep(int cg, const char *v2, const char *v1, const char *val)\n"
	"{\n"
	"\tchar path[4096];\n"
	"\n"
	"\treturn cg_path(cg, v2, v1, path, sizeof(path)) ?: put_kept(path, val);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long cg_keep_num(int cg, const char *v2, const char *v1, long long v)\n"
	"{\n"
	"\tchar val[32];\n"
	"\n"
	"\tsnprintf(val, sizeof(val), \"%lld\", v);\n"
	"\treturn cg_keep(cg, v2, v1, val);\n"
	"}\n";

static const char *const cg_files[3][2] = {
	{ "memory.max", "memory.limit_in_bytes" },
	{ "memory.swap.max", "memory.memsw.limit_in_bytes" },
	{ "memory.high", "memory.soft_limit_in_bytes" },
};

static const char *const knob_vals[] = {
	"never", "always", "madvise", "inherit", "within_size", "advise",
};

EMIT_C(mmf_emit_cg_move)
{
	if (s->args[0] == MMF_TARGET_SELF)
		sb_printf(sb, "cg_num(%d, \"cgroup.procs\", NULL, getpid())", (int)s->args[1]);
	else
		sb_printf(sb, "kids[%d] > 0 ? cg_num(%d, \"cgroup.procs\", NULL, kids[%d]) : -ESRCH",
			  (int)s->args[0] - 1, (int)s->args[1], (int)s->args[0] - 1);
}

EMIT_C(mmf_emit_cg_limit)
{
	int cg = s->args[0], k = s->args[1];

	if (s->args[2])
		sb_printf(sb, "cg_keep_num(%d, \"%s\", \"%s\", %lldll << 20)", cg, cg_files[k][0],
			  cg_files[k][1], (long long)s->args[2]);
	else
		sb_printf(sb, "cg_keep(%d, \"%s\", NULL, \"max\") == -ENOENT ? "
			  "cg_keep(%d, \"%s\", NULL, \"-1\") : 0", cg, cg_files[k][0], cg,
			  cg_files[k][1]);
}

EMIT_C(mmf_emit_cg_reclaim)
{
	sb_printf(sb, "cg_num(%d, \"memory.reclaim\", NULL, len(%d))", (int)s->args[0],
		  (int)s->args[1]);
}

EMIT_C(mmf_emit_memfd_create)
{
	sb_printf(sb, "new_file(%d, %d, sys(syscall(SYS_memfd_create, \"mmfuzz\", 0x%llx)))",
		  (int)s->args[0], (int)s->args[1], (unsigned long long)s->args[2] | 1);
}

EMIT_C(mmf_emit_memfd_secret)
{
	sb_printf(sb, "new_file(%d, %d, sys(syscall(447 /* memfd_secret */, O_CLOEXEC)))",
		  (int)s->args[0], (int)s->args[1]);
}

EMIT_C(mmf_emit_devzero)
{
	sb_printf(sb, "set_fd(%d, sys(open(\"/dev/zero\", O_RDWR | O_CLOEXEC)))", (int)s->args[0]);
}

EMIT_C(mmf_emit_memfd_seal)
{
	sb_printf(sb, "sys(fcntl(files[%d], 1033 /* F_ADD_SEALS */, 0x%llx))", (int)s->args[0],
		  (unsigned long long)s->args[1]);
}

EMIT_C(mmf_emit_fallocate)
{
	sb_printf(sb, "sys(syscall(SYS_fallocate, files[%d], 0x%llx, len(%d), len(%d)))",
		  (int)s->args[0], (unsigned long long)s->args[3], (int)s->args[1],
		  (int)s->args[2]);
}

EMIT_C(mmf_emit_ftruncate)
{
	sb_printf(sb, "sys(ftruncate(files[%d], len(%d)))", (int)s->args[0], (int)s->args[1]);
}

EMIT_C(mmf_emit_pwrite)
{
	sb_printf(sb, "file_pages(%d, %d, %d, 0x%02x, 1)", (int)s->args[0], (int)s->args[1],
		  (int)s->args[2], (int)s->args[3]);
}

EMIT_C(mmf_emit_pread)
{
	sb_printf(sb, "file_pages(%d, %d, %d, 0, 0)", (int)s->args[0], (int)s->args[1],
		  (int)s->args[2]);
}

EMIT_C(mmf_emit_special_map)
{
	sb_printf(sb, "perf_map(%d, %d, %d)", (int)s->args[0], (int)s->args[1], (int)s->args[2]);
}

EMIT_C(mmf_emit_prctl_merge)
{
	sb_printf(sb, "sys(prctl(67 /* PR_SET_MEMORY_MERGE */, %d, 0, 0, 0))", (int)s->args[0]);
}

EMIT_C(mmf_emit_ksm_wait)
{
	sb_printf(sb, "ksm_wait(%d)", (int)s->args[0]);
}

EMIT_C(mmf_emit_thp_knob)
{
	sb_printf(sb, "put_kept(\"/sys/kernel/mm/transparent_hugepage/%s\", \"%s\")",
		  mmf_knob_paths[s->args[0]], knob_vals[s->args[1]]);
}
