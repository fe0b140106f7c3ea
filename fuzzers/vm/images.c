// SPDX-License-Identifier: GPL-2.0
/*
 * What a guest boots: a fuzzing kernel when one was built, else Debian's
 * prebuilt one, and the project's initramfs. Fetching and packing are the
 * scripts' job (scripts/fetch-kernel.sh, scripts/build-initramfs.sh); this
 * picks, runs them and reads back the paths they print.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/vm.h"

const char *mmf_vm_cache_dir(void)
{
	const char *d = getenv("MMFUZZ_CACHE");

	return d && *d ? d : "/var/cache/mmfuzz";
}

/* An option per the .config beside a kernel image: 1, 0, or -1 without one. */
static int config_of(const char *image, const char *opt)
{
	char *dir = mmf_xstrdup(image), *cfg = mmf_xasprintf("%s/.config", dirname(dir));
	char *text = mmf_read_file(cfg, NULL), *line = mmf_xasprintf("\n%s=y\n", opt);
	int on = -1;

	if (text)
		on = strstr(text, line) != NULL;
	free(line);
	free(text);
	free(cfg);
	free(dir);
	return on;
}

/* The vmlinux beside a kernel image, or NULL. */
static char *vmlinux_of(const char *image)
{
	char *dir = mmf_xstrdup(image), *v = mmf_xasprintf("%s/vmlinux", dirname(dir));

	free(dir);
	if (!access(v, R_OK))
		return v;
	free(v);
	return NULL;
}

static bool entry_has(const char *dir, const char *entry, const char *file)
{
	char *path = mmf_xasprintf("%s/%s/%s", dir, entry, file);
	bool has = !access(path, F_OK);

	free(path);
	return has;
}

/*
 * The newest fuzzing kernel (make kernel): $cache/kernel/ARCH-KEY/IMAGE, or
 * NULL; not one built with patches of its caller's (a bug on purpose, a
 * patch under validation), which leave a file "patches" beside it, nor one
 * of another flavour (FLAVOUR=kcsan, a file "flavour") or with KCOV in
 * more files (KCOV_FILES, "kcov-files"): those are asked for by path.
 */
static char *fuzzing_kernel(const struct mmf_vm_arch *a)
{
	char *dir = mmf_xasprintf("%s/kernel", mmf_vm_cache_dir()), *best = NULL;
	size_t plen = strlen(a->name);
	struct timespec best_t = { 0 };
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct stat st;
		char *img;

		/* ".tmp-*" entries are builds in progress. */
		if (strncmp(e->d_name, a->name, plen) || e->d_name[plen] != '-')
			continue;
		if (entry_has(dir, e->d_name, "patches") || entry_has(dir, e->d_name, "flavour") ||
		    entry_has(dir, e->d_name, "kcov-files"))
			continue;
		img = mmf_xasprintf("%s/%s/%s", dir, e->d_name, a->image);
		if (stat(img, &st) || !S_ISREG(st.st_mode) ||
		    (best && (st.st_mtim.tv_sec < best_t.tv_sec ||
			      (st.st_mtim.tv_sec == best_t.tv_sec &&
			       st.st_mtim.tv_nsec <= best_t.tv_nsec)))) {
			free(img);
			continue;
		}
		free(best);
		best = img;
		best_t = st.st_mtim;
	}
	if (d)
		closedir(d);
	free(dir);
	return best;
}

/* scripts/NAME beside the binary's build directory (build/mmfuzz). */
static char *script_path(const char *name, char *err, size_t n)
{
	char exe[PATH_MAX], *path;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0) {
		snprintf(err, n, "cannot find my own binary: %s", strerror(errno));
		return NULL;
	}
	exe[len] = '\0';
	path = mmf_xasprintf("%s/../scripts/%s", dirname(exe), name);
	if (access(path, X_OK)) {
		snprintf(err, n, "%s not found (mmfuzz runs from its source tree's build/ "
			 "to make images): give --kernel and --initramfs", path);
		free(path);
		return NULL;
	}
	return path;
}

/*
 * Run a script with up to 3 arguments and env ("NAME=VALUE", NULL: none)
 * in its environment; its stdout's lines go to lines[], its stderr
 * (progress) passes through. 0, or -1 and err.
 */
static int run_script(const char *name, const char *a1, const char *a2, const char *a3,
		      const char *env, char **lines, int max, char *err, size_t n)
{
	char *path = script_path(name, err, n);
	char *argv[] = { path, (char *)a1, (char *)a2, (char *)a3, NULL };
	struct strbuf out;
	int pfd[2], status, nl = 0;
	char buf[4096], *p, *save;
	ssize_t r;
	pid_t pid;

	if (!path)
		return -1;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, n, "pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		if (env)
			putenv((char *)env);
		if (dup2(pfd[1], 1) >= 0)
			execv(path, argv);
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	mmf_sb_init(&out);
	while ((r = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		mmf_sb_add(&out, buf, r);
	}
	close(pfd[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, n, "%s failed", path);
		mmf_sb_free(&out);
		free(path);
		return -1;
	}
	free(path);
	mmf_sb_add(&out, "", 0);
	for (p = strtok_r(out.buf, "\n", &save); p && nl < max; p = strtok_r(NULL, "\n", &save))
		lines[nl++] = mmf_xstrdup(p);
	mmf_sb_free(&out);
	if (nl < max) {
		snprintf(err, n, "scripts/%s printed %d line(s), not %d", name, nl, max);
		while (nl)
			free(lines[--nl]);
		return -1;
	}
	return 0;
}

int mmf_vm_kernel_check(const struct mmf_vm_arch *a, const char *path, char *err, size_t n)
{
	/* x86 boot protocol "HdrS"; arm64 Image "ARM\x64", EFI zboot "zimg", gzip. */
	static const struct {
		const char *arch;
		size_t off;
		const char *magic;
	} magics[] = {
		{ "x86_64", 0x202, "HdrS" },
		{ "arm64", 0x38, "ARM\x64" },
		{ "arm64", 4, "zimg" },
		{ "arm64", 0, "\x1f\x8b" },
	};
	unsigned char head[0x210];
	ssize_t len;
	struct stat st;
	int fd;

	/* The names mmf_vm_images() takes for no file. */
	if (!strcmp(path, "debian") || !strcmp(path, "default"))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, n, "kernel %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	len = S_ISREG(st.st_mode) ? read(fd, head, sizeof(head)) : -1;
	close(fd);
	for (size_t i = 0; len > 0 && i < ARRAY_SIZE(magics); i++)
		if (!strcmp(magics[i].arch, a->name) &&
		    magics[i].off + strlen(magics[i].magic) <= (size_t)len &&
		    !memcmp(head + magics[i].off, magics[i].magic, strlen(magics[i].magic)))
			return 0;
	snprintf(err, n, "kernel %s is not an %s kernel image (%s)", path, a->name, a->image);
	return -1;
}

int mmf_vm_images(const struct mmf_vm_arch *a, const char *kernel, const char *initrd,
		  struct mmf_vm_images *im, char *err, size_t n)
{
	char *modules = NULL, *deb[2], *built[2];

	memset(im, 0, sizeof(*im));
	im->kasan = im->kcov = -1;
	/* "default": what no kernel asks for, said by name. */
	if (kernel && !strcmp(kernel, "default"))
		kernel = NULL;
	/* "debian": Debian's even when a fuzzing kernel was built (to compare). */
	if (kernel && strcmp(kernel, "debian"))
		im->kernel = mmf_xstrdup(kernel);
	else if (!kernel)
		im->kernel = fuzzing_kernel(a);
	if (im->kernel && mmf_vm_kernel_check(a, im->kernel, err, n)) {
		mmf_vm_images_free(im);
		return -1;
	}
	if (im->kernel) {
		im->kasan = config_of(im->kernel, "CONFIG_KASAN");
		im->kcov = config_of(im->kernel, "CONFIG_KCOV");
		im->vmlinux = vmlinux_of(im->kernel);
	} else {
		if (run_script("fetch-kernel.sh", a->name, NULL, NULL, NULL, deb, 2, err, n))
			return -1;
		im->kernel = deb[0];
		modules = deb[1];
		im->debian = true;
		im->kasan = im->kcov = 0;
	}
	if (initrd) {
		im->initrd = mmf_xstrdup(initrd);
	} else if (run_script("build-initramfs.sh", a->name, modules, NULL, NULL, built, 2, err, n)) {
		free(modules);
		mmf_vm_images_free(im);
		return -1;
	} else {
		im->initrd = built[0];
		im->mmfuzz = built[1];
	}
	free(modules);
	return 0;
}

void mmf_vm_guest_use(struct mmf_vm_guest *g, const struct mmf_vm_arch *a,
		      const struct mmf_vm_images *im)
{
	g->arch = a;
	g->kernel = im->kernel;
	g->initrd = im->initrd;
	g->mmfuzz = im->mmfuzz;
	g->accel = mmf_vm_accel_detect(a, im->kernel);
}

int mmf_vm_guest_setup(struct mmf_vm_guest *g, const char *arch, const char *kernel,
		       const char *initrd, struct mmf_vm_images *im, char *err, size_t n)
{
	const struct mmf_vm_arch *a = mmf_vm_arch_find(arch ? arch : "x86_64");

	if (!a) {
		snprintf(err, n, "unknown arch '%s' (x86_64, arm64)", arch);
		return -1;
	}
	if (mmf_vm_images(a, kernel, initrd, im, err, n))
		return -1;
	mmf_vm_guest_use(g, a, im);
	return 0;
}

char *mmf_vm_kernel_of(const struct mmf_vm_arch *a, const char *src, const char *patch,
		       const char *kcov_files, char *err, size_t n)
{
	char *entry, *image, *env;
	struct stat st;
	int rc;

	if (stat(src, &st)) {
		snprintf(err, n, "kernel %s: %s", src, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (patch) {
			snprintf(err, n, "a patch needs a kernel tree, not the image %s", src);
			return NULL;
		}
		return mmf_xstrdup(src);
	}
	/* build-kernel.sh's KCOV_FILES, set even when empty: the caller's, not ours. */
	env = mmf_xasprintf("KCOV_FILES=%s", kcov_files ? kcov_files : "");
	rc = run_script("build-kernel.sh", a->name, src, patch, env, &entry, 1, err, n);
	free(env);
	if (rc)
		return NULL;
	image = mmf_xasprintf("%s/%s", entry, a->image);
	free(entry);
	return image;
}

void mmf_vm_images_free(struct mmf_vm_images *im)
{
	free(im->kernel);
	free(im->initrd);
	free(im->mmfuzz);
	free(im->vmlinux);
	memset(im, 0, sizeof(*im));
}
