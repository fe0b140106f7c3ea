/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guests: QEMU running a kernel with the project's initramfs, whose init
 * (kvm/init) sets up swap and runs the fuzzer. What the guest executes
 * leaves it over a virtio console port whose writes complete only once
 * QEMU has written them to a host file, so the program that crashed the
 * kernel is on the host even when the panic follows its write at once.
 *
 * This layer knows the architectures (one table row each), picks KVM or
 * TCG, builds QEMU's argv (never a shell string), starts and stops QEMU,
 * and reads its console and execution log without blocking.
 */
#ifndef MMF_VM_H
#define MMF_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum mmf_vm_accel {
	MMF_VM_TCG,
	MMF_VM_KVM,
	MMF_VM_NR_ACCELS,
};

struct mmf_vm_arch {
	const char *name;	/* mmfuzz's name for it: x86_64, arm64 */
	const char *host;	/* uname -m of a host whose KVM can run it */
	const char *qemu;	/* the QEMU binary */
	const char *machine;
	const char *cpu[MMF_VM_NR_ACCELS];
	const char *console;	/* the kernel's console= for the first serial port */
	const char *image;	/* kernel image file name in a kernel build */
	const char *const *extra;	/* more QEMU arguments, NULL-terminated */
};

/* x86_64 first: the default of every command. */
extern const struct mmf_vm_arch mmf_vm_arches[];
extern const size_t mmf_vm_nr_arches;

/* The row of an arch name (aliases: amd64, aarch64), or NULL. */
const struct mmf_vm_arch *mmf_vm_arch_find(const char *name);

/*
 * KVM when the guest is the host's arch, /dev/kvm opens read-write and
 * makes a VM and a vCPU, and kernel (if not NULL) prints its first line
 * under it (mmf_vm_kvm_boots); else TCG, saying why on stderr.
 * $MMFUZZ_ACCEL (kvm, tcg) overrides.
 */
enum mmf_vm_accel mmf_vm_accel_detect(const struct mmf_vm_arch *a, const char *kernel);
bool mmf_vm_kvm_boots(const struct mmf_vm_arch *a, const char *kernel);
const char *mmf_vm_accel_name(enum mmf_vm_accel accel);
/* How much slower than under KVM things are: every timeout is scaled by it. */
int mmf_vm_slowdown(enum mmf_vm_accel accel);

/* Base timeouts (under KVM), in ms; multiply by mmf_vm_slowdown(). */
#define MMF_VM_BOOT_MS		15000	/* QEMU start to the first program */
#define MMF_VM_PROG_MS		10000	/* one program in the guest */
#define MMF_VM_TEARDOWN_MS	15000	/* end of the budget to power-off */

/*
 * The guest fuzzer's options, put together in one place: fixed slots and
 * the values they format, so a config can point at v for as long as the
 * struct lives. An option that does not fit marks it full, and
 * mmf_guest_argv_check() says so before anything starts.
 */
#define MMF_GUEST_ARGV_MAX	64
struct mmf_guest_argv {
	const char *v[MMF_GUEST_ARGV_MAX + 1];
	char vals[8][32];
	int n, nr_vals;
	bool full;
};
/* OPT and a value printf formats ("--seed", "%llu", seed). */
void mmf_guest_argv_opt(struct mmf_guest_argv *a, const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* --timeout: one program's time, MMF_VM_PROG_MS scaled by the slowdown. */
void mmf_guest_argv_timeout(struct mmf_guest_argv *a, enum mmf_vm_accel accel);
/* OPT and VAL as they are (a test hook of a command line); not copied. */
void mmf_guest_argv_pair(struct mmf_guest_argv *a, const char *opt, const char *val);
/* A NULL-terminated list as it is (NULL: nothing); the strings are not copied. */
void mmf_guest_argv_list(struct mmf_guest_argv *a, const char *const *list);
int mmf_guest_argv_check(const struct mmf_guest_argv *a, char *err, size_t n);

/*
 * A scratch disk: a sparse file in the work dir, removed when the guest
 * stops. Its serial tells kvm/init what it is for ("swap*": a swap
 * device, "fs*": a file system with a swap file and the fuzzer's swap dir).
 */
struct mmf_vm_disk {
	const char *serial;
	int mb;
};

extern const struct mmf_vm_disk mmf_vm_default_disks[];
extern const size_t mmf_vm_nr_default_disks;

struct mmf_vm_config;
/*
 * The machine of a guest that fuzzes or serves programs: two NUMA nodes,
 * the default disks (two swap, one file system) and a zram swap device;
 * the rest of c is the caller's.
 */
void mmf_vm_fuzzing_machine(struct mmf_vm_config *c);

/*
 * What a guest is, as a command's options say it: every command that boots
 * guests (campaign, vm, afl, repro, exec, nightly, bisect, validate, farm)
 * holds one and passes it down whole, and the guest's QEMU argv and kernel
 * command line are made from it here (mmf_vm_config.guest).
 */
struct mmf_vm_guest {
	const struct mmf_vm_arch *arch;
	enum mmf_vm_accel accel;
	const char *kernel;
	const char *initrd;
	/*
	 * The guest's mmfuzz as a disk image (scripts/build-initramfs.sh
	 * makes it), a read-only virtio disk with serial MMF_VM_BIN_SERIAL
	 * that init reads after the snapshot point; NULL: the initramfs's
	 * /bin/mmfuzz.
	 */
	const char *mmfuzz;
	int mem_mb;
	int cpus;
	const char *append;	/* more kernel command line, NULL for none */
	/* Options of the guest's 'mmfuzz fuzz --native' (or repro --serve), NULL-terminated. */
	const char *const *guest_args;
};

struct mmf_vm_config {
	struct mmf_vm_guest guest;
	const char *workdir;	/* scratch disks go here */
	const char *exec_log;	/* host file the guest's execution log is appended to */
	/*
	 * NUMA nodes (0 or 1: none): memory split evenly, CPUs in blocks,
	 * so that mbind and migration have somewhere to go.
	 */
	int numa_nodes;
	const struct mmf_vm_disk *disks;
	size_t nr_disks;
	int zram_mb;		/* guest zram swap device size, 0 for none */
	/*
	 * A control channel: a virtio port named MMF_VM_CTL_PORT in the guest,
	 * workdir/ctl.sock on the host (mmf_vm_ctl_fd). Then init serves
	 * requests on it instead of fuzzing (mmfuzz.mode=serve).
	 */
	bool ctl;
	/*
	 * The findings channel: a virtio port named MMF_VM_FINDINGS_PORT,
	 * workdir/findings.sock on the host (mmf_vm_findings_fd), on which the
	 * guest's fuzzer sends each report it makes and waits until the host
	 * has saved it (store/wire.h).
	 */
	bool findings;
	/*
	 * The coverage channel: a virtio port named MMF_VM_COVER_PORT,
	 * workdir/cover.sock on the host (mmf_vm_cover_fd): the host may write
	 * the focus first, and the guest's fuzzer writes the new PCs its
	 * programs reached (mmfuzz fuzz --cover-log, fuzz/coverlog.h).
	 */
	bool cover;
	/*
	 * Snapshots. With snapshot, init stops before the fuzzer, prints
	 * MMF_VM_SNAPSHOT_POINT on the console and waits for a line of more
	 * fuzzer options (mmf_vm_go) on a port named MMF_VM_GO_PORT; the host
	 * may save the guest there first (mmf_vm_snapshot_save). With restore,
	 * a directory that save filled, QEMU starts from the saved guest and
	 * copies of its disks instead of booting: a restart in a second or
	 * two instead of a boot. Both give QEMU a QMP socket, workdir/qmp.sock.
	 */
	bool snapshot;
	const char *restore;
};

#define MMF_VM_CTL_PORT		"mmfuzz.ctl"
/* The disk of the guest's mmfuzz (mmf_vm_config.mmfuzz). */
#define MMF_VM_BIN_SERIAL	"bin"
#define MMF_VM_GO_PORT		"mmfuzz.go"
/* Followed by "yes", or "no" when swap was used already (the disks' content matters then). */
#define MMF_VM_SNAPSHOT_POINT	"mmfuzz-init: waiting for the host, snapshot point: "
#define MMF_VM_FINDINGS_PORT	"mmfuzz.findings"
#define MMF_VM_COVER_PORT	"mmfuzz.cover"

/*
 * The kernel command line: console, panic on any oops or warning, watchdog
 * timeouts scaled for the accelerator, and mmfuzz.args=A,B,... that init
 * splits back into the fuzzer's options. NULL and err set if an option
 * cannot travel that way (empty, or holding a comma, quote or space).
 */
char *mmf_vm_cmdline(const struct mmf_vm_config *c, char *err, size_t n);

/* QEMU's argv, NULL-terminated (mmf_vm_argv_free), or NULL and err set. */
char **mmf_vm_argv(const struct mmf_vm_config *c, char *err, size_t n);
void mmf_vm_argv_free(char **argv);
/* argv as one line that a POSIX shell runs as is (for the user to copy). */
char *mmf_vm_argv_str(char *const *argv);

struct mmf_vm;

/*
 * Create the scratch disks and the exec log file, and start QEMU with its
 * console (stdout and stderr) on a non-blocking pipe. 0, or -1 and err.
 */
int mmf_vm_start(const struct mmf_vm_config *c, struct mmf_vm **vmp, char *err, size_t n);
/* The argv QEMU was started with. */
char *const *mmf_vm_args(const struct mmf_vm *vm);
/* Monotonic time of the start (mmf_now_ns()). */
uint64_t mmf_vm_started_ns(const struct mmf_vm *vm);
/* The console pipe, for poll(2). */
int mmf_vm_console_fd(const struct mmf_vm *vm);
/*
 * New console bytes without blocking: >0 bytes, 0 when there are none
 * now, -1 when QEMU closed its end (it exited).
 */
ssize_t mmf_vm_read_console(struct mmf_vm *vm, char *buf, size_t n);
/* The control channel, connected, or -1 without one (blocking). */
int mmf_vm_ctl_fd(const struct mmf_vm *vm);
/* The coverage channel, connected and non-blocking, or -1 without one. */
int mmf_vm_cover_fd(const struct mmf_vm *vm);
/* The findings channel, connected and non-blocking, or -1 without one. */
int mmf_vm_findings_fd(const struct mmf_vm *vm);
/* New bytes of the execution log: >0, or 0 when there are none now. */
ssize_t mmf_vm_read_exec_log(struct mmf_vm *vm, char *buf, size_t n);
/*
 * Save the guest, stopped at its snapshot point, into dir (created): its
 * RAM and devices (QEMU's migration stream) and its disks; then let it
 * run again, also when saving failed. 0, or -1 and err.
 */
int mmf_vm_snapshot_save(struct mmf_vm *vm, const char *dir, char *err, size_t n);
/*
 * Append to fd the console of the boot that was saved in dir, up to its
 * snapshot point (nothing if it has none): a restored guest's console
 * log then starts as a booted one's.
 */
void mmf_vm_snapshot_console(const char *dir, int fd);
/* Remove a snapshot directory and what is in it (nothing if it is not there). */
void mmf_vm_snapshot_remove(const char *dir);
/*
 * The snapshot cache ($MMFUZZ_CACHE/snapshots): a guest saved at its
 * snapshot point serves every later guest started the same way, in this
 * run or a later one. The key of c's guests (QEMU, kernel, initramfs and
 * argv but for the run's paths), NULL if it cannot be told. Fetch links
 * (or copies) a cached snapshot into dir, true if there was one; keep puts
 * dir's into the cache, replacing the key's entry (a guest is saved only
 * when none served it), and drops the least recently used past a few.
 */
char *mmf_vm_snapshot_key(const struct mmf_vm_config *c);
bool mmf_vm_snapshot_fetch(const char *key, const char *dir);
void mmf_vm_snapshot_keep(const char *key, const char *dir);
/*
 * Let the guest waiting at its snapshot point go on, with these options
 * and then its own (guest_args: with snapshots they travel here, not on
 * the kernel's command line). data (NULL: none) follows the line on the
 * port, which is the guest fuzzer's standard input (a campaign's seeds).
 */
int mmf_vm_go(struct mmf_vm *vm, const char *options, const char *data, char *err, size_t n);
/*
 * One guest's snapshot over its boots, as campaigns and reproducing guests
 * use it: the first boot is saved at its snapshot point into dir and kept
 * in the snapshot cache, or the cache had it already; every later boot
 * restores it. off: boots are booted, nothing saved.
 */
struct mmf_vm_snap {
	char *dir;
	bool off;
	char *key;		/* its key in the snapshot cache, NULL if none */
	bool keyed;		/* key was looked for */
	bool fetched;		/* the cache had it */
	bool saved;		/* dir holds a whole snapshot */
	bool at_point;		/* the running boot will stop at the snapshot point */
};

/* dir: allocated, s owns it. */
void mmf_vm_snap_init(struct mmf_vm_snap *s, char *dir);
/* Remove dir and what is in it (the cache keeps its own links). */
void mmf_vm_snap_free(struct mmf_vm_snap *s);
/*
 * Start the guest: restored from s and let go with options and data (1), its
 * console (console_fd) starting with the boot it was saved from; when it
 * cannot be (the reason in why, else why is "") or there is no snapshot
 * yet, booted (0), stopping at the snapshot point unless s->off. -1 and
 * err if the boot fails.
 */
int mmf_vm_snap_start(struct mmf_vm_snap *s, struct mmf_vm_config *c, const char *options,
		      const char *data, int console_fd, struct mmf_vm **vmp, char *why, size_t wn,
		      char *err, size_t n);
/*
 * While s->at_point, with the guest's console so far: once it waits at its
 * snapshot point, save it if it offers to (s->saved, kept in the cache),
 * then let it go with options and data. 0 not there yet, 1 past it
 * (at_point cleared); err holds what failed, else "".
 */
int mmf_vm_snap_point(struct mmf_vm_snap *s, struct mmf_vm *vm, const char *console,
		      const char *options, const char *data, char *err, size_t n);
/* Is QEMU still running? Reaps it when it is not. */
bool mmf_vm_alive(struct mmf_vm *vm);
/*
 * How QEMU ended, for the user: "exit status N" or "killed by SIGNAME"
 * (a guest reset under -no-reboot is status 0), waiting up to 2 s for it
 * to end; "still running" after that.
 */
const char *mmf_vm_ended(struct mmf_vm *vm, char *buf, size_t n);
/*
 * Kill QEMU if it runs, reap it, remove the scratch disks, free vm.
 * Returns QEMU's wait status.
 */
int mmf_vm_stop(struct mmf_vm *vm);

/* ---- images: what a guest boots --------------------------------------- */

struct mmf_vm_images {
	char *kernel;
	char *initrd;
	char *mmfuzz;		/* the guest's disk of it, beside an initramfs built here */
	bool debian;		/* Debian's prebuilt kernel, not a fuzzing kernel */
	int kasan;		/* 1 on, 0 off, -1 unknown */
	int kcov;		/* the same */
	char *vmlinux;		/* beside a built kernel, NULL if none */
};

/* $MMFUZZ_CACHE, or /var/cache/mmfuzz. */
const char *mmf_vm_cache_dir(void);
/*
 * The kernel and initramfs to boot: those given (NULL or "default": find or
 * make one).
 * The kernel is the newest fuzzing kernel in $MMFUZZ_CACHE/kernel/ARCH-*
 * (make kernel), else Debian's (scripts/fetch-kernel.sh), which kernel
 * "debian" asks for by name; the initramfs is
 * built by scripts/build-initramfs.sh, with the modules Debian's kernel
 * needs, and the guest's mmfuzz beside it (an initramfs given has its
 * own). The scripts' progress goes to stderr. 0, or -1 and err.
 */
int mmf_vm_images(const struct mmf_vm_arch *a, const char *kernel, const char *initrd,
		  struct mmf_vm_images *im, char *err, size_t n);
void mmf_vm_images_free(struct mmf_vm_images *im);
/* g boots im's kernel, initramfs and mmfuzz on a, with the accelerator a has here. */
void mmf_vm_guest_use(struct mmf_vm_guest *g, const struct mmf_vm_arch *a,
		      const struct mmf_vm_images *im);
/*
 * The same for an arch name (NULL: x86_64) and a kernel (NULL or
 * "default": the newest fuzzing kernel, else Debian's; "debian"; or an
 * image) and initramfs (NULL: built) by mmf_vm_images(); im holds the
 * paths and must outlive the guests. 0, or -1 and err.
 */
int mmf_vm_guest_setup(struct mmf_vm_guest *g, const char *arch, const char *kernel,
		       const char *initrd, struct mmf_vm_images *im, char *err, size_t n);
/*
 * Whether path is a kernel image QEMU boots for a, or one of the names
 * that are no file ("debian", "default"); 0, or -1 and err.
 */
int mmf_vm_kernel_check(const struct mmf_vm_arch *a, const char *path, char *err, size_t n);
/*
 * The kernel image of src: src itself if it is a file; if a kernel tree,
 * the image of its fuzzing kernel (scripts/build-kernel.sh: built once,
 * cached), after applying patch (if not NULL) to a copy of the tree
 * (scripts/work-tree.sh), with KCOV in the mm/ files kcov_files names too
 * (space-separated, NULL: none). NULL and err on failure.
 */
char *mmf_vm_kernel_of(const struct mmf_vm_arch *a, const char *src, const char *patch,
		       const char *kcov_files, char *err, size_t n);

/* A line of the execution log that starts a program. */
#define MMF_VM_EXEC_MARK	"# mmfuzz: executing program"
/* kvm/init's lines start with this. */
#define MMF_VM_INIT_TAG		"mmfuzz-init:"

#endif
