// SPDX-License-Identifier: GPL-2.0
/* The guest architectures, one row each, and the accelerator QEMU uses. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/vm.h"

/* No VGA: the console is the serial port, and the guest needs no display. */
static const char *const x86_64_extra[] = { "-vga", "none", NULL };
static const char *const arm64_extra[] = { NULL };

const struct mmf_vm_arch mmf_vm_arches[] = {
	{
		.name = "x86_64",
		.host = "x86_64",
		.qemu = "qemu-system-x86_64",
		.machine = "q35",
		.cpu = { [MMF_VM_TCG] = "max", [MMF_VM_KVM] = "host" },
		.console = "ttyS0",
		.image = "bzImage",
		.extra = x86_64_extra,
	},
	{
		.name = "arm64",
		.host = "aarch64",
		.qemu = "qemu-system-aarch64",
		.machine = "virt,gic-version=3",
		/*
		 * TCG emulates pointer authentication with a costly
		 * cipher on every signed return: off, it boots faster.
		 */
		.cpu = { [MMF_VM_TCG] = "max,pauth=off", [MMF_VM_KVM] = "host" },
		.console = "ttyAMA0",
		.image = "Image",
		.extra = arm64_extra,
	},
};
const size_t mmf_vm_nr_arches = ARRAY_SIZE(mmf_vm_arches);

const struct mmf_vm_arch *mmf_vm_arch_find(const char *name)
{
	static const struct {
		const char *alias, *name;
	} aliases[] = { { "amd64", "x86_64" }, { "aarch64", "arm64" } };

	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(name, aliases[i].alias))
			name = aliases[i].name;
	for (size_t i = 0; i < mmf_vm_nr_arches; i++)
		if (!strcmp(name, mmf_vm_arches[i].name))
			return &mmf_vm_arches[i];
	return NULL;
}

/* A VM and a vCPU can be made: /dev/kvm that opens may still refuse that. */
static bool kvm_works(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm = -1, cpu = -1;

	if (fd >= 0 && ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION)
		vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm >= 0)
		cpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (cpu >= 0)
		close(cpu);
	if (vm >= 0)
		close(vm);
	if (fd >= 0)
		close(fd);
	return cpu >= 0;
}

enum mmf_vm_accel mmf_vm_accel_detect(const struct mmf_vm_arch *a, const char *kernel)
{
	const char *force = getenv("MMFUZZ_ACCEL");
	struct utsname u;

	for (int i = 0; force && *force && i < MMF_VM_NR_ACCELS; i++)
		if (!strcmp(force, mmf_vm_accel_name(i)))
			return i;
	if (uname(&u) || strcmp(u.machine, a->host))
		return MMF_VM_TCG;
	/* Read-write, as QEMU opens it: readable alone is no use. */
	if (!kvm_works())
		return MMF_VM_TCG;
	if (kernel && !mmf_vm_kvm_boots(a, kernel)) {
		mmf_warnx_("vm: /dev/kvm works but %s does not boot under it (nested KVM?):"
		       " using TCG", kernel);
		return MMF_VM_TCG;
	}
	return MMF_VM_KVM;
}

static const struct {
	const char *name;
	int slowdown;
} accels[MMF_VM_NR_ACCELS] = {
	[MMF_VM_TCG] = { "tcg", 10 },
	[MMF_VM_KVM] = { "kvm", 1 },
};

const char *mmf_vm_accel_name(enum mmf_vm_accel accel)
{
	return accels[accel].name;
}

int mmf_vm_slowdown(enum mmf_vm_accel accel)
{
	return accels[accel].slowdown;
}
