// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's file calls: the file slots (runtime/file.h). */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_memfd)
{
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(syscall(SYS_memfd_create, \"mmfuzz\", "
		  "0x1 /* MFD_CLOEXEC */)), len(%d))", (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(memfd, emit_memfd, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_tmpfile)
{
	/* The executor's default directory: tmpfs. */
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(open(\"/dev/shm\", O_TMPFILE | O_RDWR | O_CLOEXEC, "
		  "0600)), len(%d))", (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(tmpfile, emit_tmpfile, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_memfd_create)
{
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(syscall(SYS_memfd_create, \"mmfuzz\", 0x%llx)), len(%d))",
		  (int)s->args[0], (unsigned long long)s->args[2] | 1, (int)s->args[1]);
}

MMF_EMITTER(memfd_create, emit_memfd_create, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_memfd_secret)
{
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(syscall(SYS_memfd_secret, O_CLOEXEC)), len(%d))",
		  (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(memfd_secret, emit_memfd_secret, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_devzero)
{
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(open(\"/dev/zero\", O_RDWR | O_CLOEXEC)), 0)",
		  (int)s->args[0]);
}

MMF_EMITTER(devzero, emit_devzero, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_memfd_seal)
{
	mmf_sb_printf(sb, "rt_ret(fcntl(files[%d], 1033 /* F_ADD_SEALS */, 0x%llx))", (int)s->args[0],
		  (unsigned long long)s->args[1]);
}

MMF_EMITTER(memfd_seal, emit_memfd_seal, mmf_predict_success);

static MMF_CS_EXPR(emit_fallocate)
{
	mmf_sb_printf(sb, "rt_ret(syscall(SYS_fallocate, files[%d], 0x%llx, len(%d), len(%d)))",
		  (int)s->args[0], (unsigned long long)s->args[3], (int)s->args[1],
		  (int)s->args[2]);
}

MMF_EMITTER(fallocate, emit_fallocate, mmf_predict_success);

static MMF_CS_EXPR(emit_ftruncate)
{
	mmf_sb_printf(sb, "rt_ftruncate(files[%d], len(%d))", (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(ftruncate, emit_ftruncate, mmf_predict_success, mmf_rt_file);

static MMF_CS_EXPR(emit_pwrite)
{
	mmf_sb_printf(sb, "rt_file_pages(files[%d], %d, %d, psz, file_word, NULL, &(int){ 0x%02x })",
		  (int)s->args[0], (int)s->args[1], (int)s->args[2], (int)s->args[3]);
}

/*
 * pwrite and pread of a memfd or tmpfs file: every page (pread: up to the
 * file's end, as the model sizes it). Seals, hugetlbfs and secret memory
 * are not predicted: 0, and the checks stop if the call does more.
 */
static long file_pages_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, bool write)
{
	int f = s->args[0], o = sh->file_obj[f];
	long page = s->args[1], n = s->args[2], size;

	if (o < 0 || sh->file_kind[f] != MMF_FILE_PLAIN)
		return 0;
	size = sh->objs[o].npages;
	return write ? n : MAX(0, MIN(n, size - page));
}

static MMF_CS_PREDICT(predict_pwrite)
{
	return file_pages_result(sh, s, true);
}

MMF_EMITTER(pwrite, emit_pwrite, predict_pwrite, mmf_rt_file, mmf_rt_helpers);

static MMF_CS_EXPR(emit_pread)
{
	mmf_sb_printf(sb, "rt_file_pages(files[%d], %d, %d, psz, NULL, NULL, NULL)", (int)s->args[0],
		  (int)s->args[1], (int)s->args[2]);
}

static MMF_CS_PREDICT(predict_pread)
{
	return file_pages_result(sh, s, false);
}

MMF_EMITTER(pread, emit_pread, predict_pread, mmf_rt_file);
