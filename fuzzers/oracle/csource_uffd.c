// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's userfaultfd calls (issue 7 track B): the runtime a
 * reproducer carries when its program uses them, a uffd and a handler thread
 * that resolves faults as the executor's (exec/uffd.c) does, and the
 * emitters and predictions of csource.c's emitters[] rows.
 */
#include "oracle/csource_uffd.h"
#include "oracle/shadow.h"

const char mmf_rt_uffd[] =
	"/*\n"
	" * userfaultfd: one uffd per process, made on first use, and a handler thread\n"
	" * that resolves faults as the executor's does: missing with a zero page\n"
	" * (COPY where ZEROPAGE fails), write-protect by clearing WP, minor by\n"
	" * CONTINUE; it drains events and closes the child uffds of fork events\n"
	" * (which unregisters the child's ranges); a page it cannot resolve it\n"
	" * unregisters. The UAPI is spelled here: old headers lack POISON and MOVE.\n"
	" */\n"
	"/* A program uses some of the calls below: the others are unused. */\n"
	"#include <poll.h>\n"
	"#include <sys/ioctl.h>\n"
	"#include <sys/mman.h>\n"
	"\n"
	"struct uffd_range { uint64_t start, len; };\n"
	"struct uffd_api { uint64_t api, features, ioctls; };\n"
	"struct uffd_register { struct uffd_range range; uint64_t mode, ioctls; };\n"
	"struct uffd_copy { uint64_t dst, src, len, mode; int64_t copy; };\n"
	"struct uffd_fill { struct uffd_range range; uint64_t mode; int64_t done; };\n"
	"struct uffd_wp { struct uffd_range range; uint64_t mode; };\n"
	"struct uffd_move { uint64_t dst, src, len, mode; int64_t move; };\n"
	"struct uffd_msg {\n"
	"\tuint8_t event, r1;\n"
	"\tuint16_t r2;\n"
	"\tuint32_t r3;\n"
	"\tunion {\n"
	"\t\tstruct { uint64_t flags, address; uint32_t ptid; } pagefault;\n"
	"\t\tstruct { uint32_t ufd; } fork;\n"
	"\t\tuint64_t pad[3];\n"
	"\t} arg;\n"
	"} __attribute__((packed));\n"
	"\n"
	"#define UFFDIO_API_\t\t_IOWR(0xAA, 0x3F, struct uffd_api)\n"
	"#define UFFDIO_REGISTER_\t_IOWR(0xAA, 0x00, struct uffd_register)\n"
	"#define UFFDIO_UNREGISTER_\t_IOR(0xAA, 0x01, struct uffd_range)\n"
	"#define UFFDIO_WAKE_\t\t_IOR(0xAA, 0x02, struct uffd_range)\n"
	"#define UFFDIO_COPY_\t\t_IOWR(0xAA, 0x03, struct uffd_copy)\n"
	"#define UFFDIO_ZEROPAGE_\t_IOWR(0xAA, 0x04, struct uffd_fill)\n"
	"#define UFFDIO_MOVE_\t\t_IOWR(0xAA, 0x05, struct uffd_move)\n"
	"#define UFFDIO_WRITEPROTECT_\t_IOWR(0xAA, 0x06, struct uffd_wp)\n"
	"#define UFFDIO_CONTINUE_\t_IOWR(0xAA, 0x07, struct uffd_fill)\n"
	"#define UFFDIO_POISON_\t\t_IOWR(0xAA, 0x08, struct uffd_fill)\n"
	"#define USERFAULTFD_IOC_NEW_\t_IO(0xAA, 0x00)\n"
	"#ifndef SYS_userfaultfd\n"
	"#define SYS_userfaultfd 323\t/* x86_64; arm64 has it in its headers */\n"
	"#endif\n"
	"\n"
	"static int uffd = -1, uffd_stop[2] = { -1, -1 };\n"
	"static pthread_t uffd_thread;\n"
	"static void *uffd_zero;\n"
	"\n"
	"static int uffd_ioctl(int fd, unsigned long req, void *arg)\n"
	"{\n"
	"\tint r;\n"
	"\n"
	"\twhile ((r = ioctl(fd, req, arg)) < 0 && errno == EINTR)\n"
	"\t\t;\n"
	"\treturn r;\n"
	"}\n"
	"\n"
	"static void uffd_resolve(int fd, const struct uffd_msg *m)\n"
	"{\n"
	"\tuint64_t page = m->arg.pagefault.address & ~(uint64_t)(psz - 1);\n"
	"\tstruct uffd_range r = { page, psz };\n"
	"\tstruct uffd_wp wp = { r, 0 };\n"
	"\tstruct uffd_fill f = { r, 0, 0 };\n"
	"\tstruct uffd_copy c = { page, (uintptr_t)uffd_zero, psz, 0, 0 };\n"
	"\tint e = 0;\n"
	"\n"
	"\tif (m->arg.pagefault.flags & 2) {\n"
	"\t\te = uffd_ioctl(fd, UFFDIO_WRITEPROTECT_, &wp);\n"
	"\t} else if (m->arg.pagefault.flags & 4) {\n"
	"\t\te = uffd_ioctl(fd, UFFDIO_CONTINUE_, &f);\n"
	"\t} else if (uffd_ioctl(fd, UFFDIO_ZEROPAGE_, &f) && errno != EAGAIN) {\n"
	"\t\te = uffd_ioctl(fd, UFFDIO_COPY_, &c);\n"
	"\t}\n"
	"\tif (!e)\n"
	"\t\treturn;\n"
	"\tif (errno == EEXIST || errno == EAGAIN)\n"
	"\t\tuffd_ioctl(fd, UFFDIO_WAKE_, &r);\n"
	"\telse if (uffd_ioctl(fd, UFFDIO_UNREGISTER_, &r))\n"
	"\t\tuffd_ioctl(fd, UFFDIO_WAKE_, &r);\n"
	"}\n"
	"\n"
	"static void *uffd_main(void *arg)\n"
	"{\n"
	"\tstruct pollfd pf[2] = { { uffd_stop[0], POLLIN, 0 }, { uffd, POLLIN, 0 } };\n"
	"\tstruct uffd_msg msgs[16];\n"
	"\tssize_t n;\n"
	"\n"
	"\tfor (;;) {\n"
	"\t\tif (poll(pf, 2, -1) < 0 && errno != EINTR)\n"
	"\t\t\treturn NULL;\n"
	"\t\tif (pf[0].revents)\n"
	"\t\t\treturn NULL;\n"
	"\t\twhile ((n = read(uffd, msgs, sizeof(msgs))) > 0) {\n"
	"\t\t\tfor (size_t i = 0; i < n / sizeof(msgs[0]); i++) {\n"
	"\t\t\t\tif (msgs[i].event == 0x12)\n"
	"\t\t\t\t\tuffd_resolve(uffd, &msgs[i]);\n"
	"\t\t\t\telse if (msgs[i].event == 0x13)\n"
	"\t\t\t\t\tclose(msgs[i].arg.fork.ufd);\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t}\n"
	"}\n"
	"\n"
	"static void uffd_close(void)\n"
	"{\n"
	"\tif (uffd < 0)\n"
	"\t\treturn;\n"
	"\twhile (write(uffd_stop[1], \"x\", 1) < 0 && errno == EINTR)\n"
	"\t\t;\n"
	"\tpthread_join(uffd_thread, NULL);\n"
	"\tclose(uffd);\n"
	"\tclose(uffd_stop[0]);\n"
	"\tclose(uffd_stop[1]);\n"
	"\tuffd = -1;\n"
	"}\n"
	"\n"
	"/* In a fork child: the inherited uffd works on the parent's mm. */\n"
	"static void uffd_forked(void)\n"
	"{\n"
	"\tif (uffd < 0)\n"
	"\t\treturn;\n"
	"\tclose(uffd);\n"
	"\tclose(uffd_stop[0]);\n"
	"\tclose(uffd_stop[1]);\n"
	"\tuffd = -1;\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long uffd_open(int via, uint64_t features)\n"
	"{\n"
	"\tstatic int atfork;\n"
	"\tstruct uffd_api api = { 0xAA, features, 0 };\n"
	"\tint fd, dev, e;\n"
	"\n"
	"\tuffd_close();\n"
	"\tif (!uffd_zero)\n"
	"\t\tuffd_zero = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"\tif (!atfork++)\n"
	"\t\tpthread_atfork(NULL, NULL, uffd_forked);\n"
	"\tif (!via) {\n"
	"\t\tfd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);\n"
	"\t} else {\n"
	"\t\tdev = open(\"/dev/userfaultfd\", O_RDWR | O_CLOEXEC);\n"
	"\t\tfd = dev < 0 ? -1 : ioctl(dev, USERFAULTFD_IOC_NEW_, O_CLOEXEC | O_NONBLOCK);\n"
	"\t\tif (dev >= 0)\n"
	"\t\t\tclose(dev);\n"
	"\t}\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tif (uffd_ioctl(fd, UFFDIO_API_, &api) || pipe2(uffd_stop, O_CLOEXEC)) {\n"
	"\t\te = -errno;\n"
	"\t\tclose(fd);\n"
	"\t\treturn e;\n"
	"\t}\n"
	"\tuffd = fd;\n"
	"\te = pthread_create(&uffd_thread, NULL, uffd_main, NULL);\n"
	"\tif (e) {\n"
	"\t\tclose(fd);\n"
	"\t\tclose(uffd_stop[0]);\n"
	"\t\tclose(uffd_stop[1]);\n"
	"\t\tuffd = -1;\n"
	"\t\treturn -e;\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/* The uffd of this process: made on first use with what the kernel has of\n"
	" * the executor's lazy features (shmem missing/minor/WP, WP_UNPOPULATED,\n"
	" * POISON, MOVE, THREAD_ID).\n"
	" */\n"
	"static int uffd_get(void)\n"
	"{\n"
	"\tstruct uffd_api api = { 0xAA, 0, 0 };\n"
	"\tuint64_t have = 0;\n"
	"\tint fd;\n"
	"\n"
	"\tif (uffd >= 0)\n"
	"\t\treturn uffd;\n"
	"\tfd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);\n"
	"\tif (fd >= 0 && !uffd_ioctl(fd, UFFDIO_API_, &api))\n"
	"\t\thave = api.features;\n"
	"\tif (fd >= 0)\n"
	"\t\tclose(fd);\n"
	"\tif (uffd_open(0, have & 0x17520))\n"
	"\t\treturn -1;\n"
	"\treturn uffd;\n"
	"}\n"
	"\n"
	"/* Pages done before the first failure when there are any, else -errno. */\n"
	"static long uffd_done(int r, int64_t done)\n"
	"{\n"
	"\tif (done > 0)\n"
	"\t\treturn done / psz;\n"
	"\tif (r < 0)\n"
	"\t\treturn done < 0 ? done : -errno;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long uffd_register(int slot, int pg, int n, uint64_t mode)\n"
	"{\n"
	"\tstruct uffd_register reg = { { (uintptr_t)at(slot, pg), len(n) }, mode, 0 };\n"
	"\tint fd = uffd_get();\n"
	"\n"
	"\treturn fd < 0 ? -errno : sys(uffd_ioctl(fd, UFFDIO_REGISTER_, &reg));\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long uffd_unregister(int slot, int pg, int n)\n"
	"{\n"
	"\tstruct uffd_range r = { (uintptr_t)at(slot, pg), len(n) };\n"
	"\tint fd = uffd_get();\n"
	"\n"
	"\treturn fd < 0 ? -errno : sys(uffd_ioctl(fd, UFFDIO_UNREGISTER_, &r));\n"
	"}\n"
	"\n"
	"/* UFFDIO_COPY of what write(tag) would store at each destination page. */\n"
	"static __attribute__((unused)) long uffd_copy(int slot, int pg, int n, int tag, uint64_t mode)\n"
	"{\n"
	"\tint fd = uffd_get(), idx = slot * SLOT_PAGES + pg, r;\n"
	"\tuint64_t *buf;\n"
	"\tlong words = psz / 8;\n"
	"\tstruct uffd_copy c;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tbuf = mmap(NULL, len(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"\tif (buf == MAP_FAILED)\n"
	"\t\treturn -errno;\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\tfor (long k = 0; k < words; k++)\n"
	"\t\t\tbuf[i * words + k] = word(tag, idx + i);\n"
	"\tc = (struct uffd_copy){ (uintptr_t)page(idx), (uintptr_t)buf, len(n), mode, 0 };\n"
	"\tr = uffd_ioctl(fd, UFFDIO_COPY_, &c);\n"
	"\tmunmap(buf, len(n));\n"
	"\treturn uffd_done(r, c.copy);\n"
	"}\n"
	"\n"
	"/* ZEROPAGE, CONTINUE, POISON: a range, a mode, the bytes done. */\n"
	"static __attribute__((unused)) long uffd_fill(unsigned long req, int slot, int pg, int n, uint64_t mode)\n"
	"{\n"
	"\tstruct uffd_fill f = { { (uintptr_t)at(slot, pg), len(n) }, mode, 0 };\n"
	"\tint fd = uffd_get(), r;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tr = uffd_ioctl(fd, req, &f);\n"
	"\treturn uffd_done(r, f.done);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long uffd_writeprotect(int slot, int pg, int n, uint64_t mode)\n"
	"{\n"
	"\tstruct uffd_wp wp = { { (uintptr_t)at(slot, pg), len(n) }, mode };\n"
	"\tint fd = uffd_get();\n"
	"\n"
	"\treturn fd < 0 ? -errno : sys(uffd_ioctl(fd, UFFDIO_WRITEPROTECT_, &wp));\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) long uffd_move(int dst, int src, int n, uint64_t mode)\n"
	"{\n"
	"\tstruct uffd_move mv = { (uintptr_t)page(dst), (uintptr_t)page(src), len(n), mode, 0 };\n"
	"\tint fd = uffd_get(), r;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\treturn -errno;\n"
	"\tr = uffd_ioctl(fd, UFFDIO_MOVE_, &mv);\n"
	"\treturn uffd_done(r, mv.move);\n"
	"}\n";

static void slot_page(struct strbuf *sb, const struct mmf_stmt *s)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	sb_printf(sb, "%d, %d, %d", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, n);
}

/* A flag argument as hex, the names in a comment. */
static void mode(struct strbuf *sb, const struct mmf_stmt *s, int arg)
{
	const struct mmf_flag_set *set = mmf_calls[s->id].args[arg].set;
	uint64_t v = s->args[arg];
	bool first = true;

	sb_printf(sb, "0x%llx", (unsigned long long)v);
	for (int i = 0; i < set->nr; i++) {
		if (!(v & set->flags[i].val))
			continue;
		sb_printf(sb, "%s%s", first ? " /* " : "|", set->flags[i].name);
		first = false;
	}
	if (!first)
		sb_puts(sb, " */");
}

void mmf_emit_uffd_create(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_printf(sb, "uffd_open(%d, ", (int)s->args[0]);
	mode(sb, s, 1);
	sb_puts(sb, ")");
}

void mmf_emit_uffd_register(struct strbuf *sb, const struct mmf_stmt *s, int si,
			    const struct gen *g)
{
	sb_puts(sb, "uffd_register(");
	slot_page(sb, s);
	sb_puts(sb, ", ");
	mode(sb, s, 3);
	sb_puts(sb, ")");
}

void mmf_emit_uffd_unregister(struct strbuf *sb, const struct mmf_stmt *s, int si,
			      const struct gen *g)
{
	sb_puts(sb, "uffd_unregister(");
	slot_page(sb, s);
	sb_puts(sb, ")");
}

void mmf_emit_uffd_copy(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	sb_puts(sb, "uffd_copy(");
	slot_page(sb, s);
	sb_printf(sb, ", 0x%x, ", (int)s->args[3]);
	mode(sb, s, 4);
	sb_puts(sb, ")");
}

static void fill(struct strbuf *sb, const struct mmf_stmt *s, const char *req)
{
	sb_printf(sb, "uffd_fill(%s, ", req);
	slot_page(sb, s);
	sb_puts(sb, ", ");
	mode(sb, s, 3);
	sb_puts(sb, ")");
}

void mmf_emit_uffd_zeropage(struct strbuf *sb, const struct mmf_stmt *s, int si,
			    const struct gen *g)
{
	fill(sb, s, "UFFDIO_ZEROPAGE_");
}

void mmf_emit_uffd_continue(struct strbuf *sb, const struct mmf_stmt *s, int si,
			    const struct gen *g)
{
	fill(sb, s, "UFFDIO_CONTINUE_");
}

void mmf_emit_uffd_poison(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	fill(sb, s, "UFFDIO_POISON_");
}

void mmf_emit_uffd_writeprotect(struct strbuf *sb, const struct mmf_stmt *s, int si,
				const struct gen *g)
{
	sb_puts(sb, "uffd_writeprotect(");
	slot_page(sb, s);
	sb_puts(sb, ", ");
	mode(sb, s, 3);
	sb_puts(sb, ")");
}

void mmf_emit_uffd_move(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
{
	int dst, src, n;

	mmf_uffd_move_range(s, &dst, &src, &n);
	sb_printf(sb, "uffd_move(%d, %d, %d, ", dst, src, n);
	mode(sb, s, 5);
	sb_puts(sb, ")");
}

/*
 * The filling calls work on the pages no pte maps yet, which the model does
 * not track: predict all of the range done. When it is not, the reproducer
 * stops checking from there (csource.c's guard), never reports.
 */
long mmf_predict_uffd_fill(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	if (s->id == MMF_UFFD_MOVE) {
		int dst, src;

		mmf_uffd_move_range(s, &dst, &src, &n);
	}
	return n;
}
