// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

struct mmf_cgroup {
	struct mmf_journal *j;
	int version;
	char *path;
};

/* ---- detection --------------------------------------------------------- */

const char *mmf_cg_next_mount(const char *mounts, int version, char *mnt, size_t n)
{
	const char *line = mounts;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		char dev[256], dir[PATH_MAX * 4], type[64], opts[1024];
		char *buf = nl ? strndup(line, nl - line) : strdup(line);
		bool match = false;

		if (!buf)
			return NULL;
		if (sscanf(buf, "%255s %16383s %63s %1023s", dev, dir, type, opts) == 4) {
			if (version == 2)
				match = !strcmp(type, "cgroup2");
			else if (!strcmp(type, "cgroup")) {
				for (char *p = opts; *p; p++)
					if (*p == ',')
						*p = ' ';
				match = mmf_has_word(opts, "memory");
			}
		}
		free(buf);
		line = nl ? nl + 1 : NULL;
		if (match) {
			mmf_unescape_octal(dir);
			snprintf(mnt, n, "%s", dir);
			return line ? line : "";
		}
	}
	return NULL;
}

int mmf_cg_self_path(const char *self, int version, char *rel, size_t n)
{
	const char *line = self;

	while (line && *line) {
		const char *nl = strchr(line, '\n'), *c1, *c2;
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		bool match;

		c1 = memchr(line, ':', len);
		c2 = c1 ? memchr(c1 + 1, ':', len - (c1 + 1 - line)) : NULL;
		if (c2) {
			char *ctl = strndup(c1 + 1, c2 - c1 - 1);

			if (!ctl)
				return -ENOMEM;
			/* v2: "0::/path"; v1: "4:memory:/path" or "3:cpu,memory:/path" */
			for (char *p = ctl; *p; p++)
				if (*p == ',')
					*p = ' ';
			if (version == 2)
				match = !strncmp(line, "0::", 3);
			else
				match = mmf_has_word(ctl, "memory");
			free(ctl);
			if (match) {
				snprintf(rel, n, "%.*s", (int)(line + len - c2 - 1), c2 + 1);
				return 0;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

static bool file_has_word(const char *path, const char *word)
{
	char buf[1024];

	return mmf_sysfs_read(path, buf, sizeof(buf)) >= 0 && mmf_has_word(buf, word);
}

int mmf_cg_detect(char *mnt, size_t n)
{
	char *text = mmf_read_text("/proc/mounts");
	const char *p;
	int ret = -ENOENT;

	if (!text)
		return mmf_sys_fail(errno, "read /proc/mounts");
	for (p = text; (p = mmf_cg_next_mount(p, 2, mnt, n));) {
		char *ctl = mmf_xasprintf("%s/cgroup.controllers", mnt);
		bool mem = file_has_word(ctl, "memory");

		free(ctl);
		if (mem) {
			ret = 2;
			goto out;
		}
	}
	if (mmf_cg_next_mount(text, 1, mnt, n))
		ret = 1;
out:
	free(text);
	if (ret < 0)
		return mmf_sys_fail(ENOENT, "no memory cgroup: neither a cgroup2 mount with "
				    "the memory controller nor a v1 memory mount");
	return ret;
}

/* ---- create ------------------------------------------------------------ */

/* Defined with its undo, under destroy. */
static const struct mmf_journal_kind jk_subtree;

/* Journal, then enable +ctrl in dir's subtree_control. */
static int enable_ctrl(struct mmf_journal *j, const char *dir, const char *ctrl)
{
	char *file = mmf_xasprintf("%s/cgroup.subtree_control", dir);
	char *val = mmf_xasprintf("+%s", ctrl);
	int ret = 0;

	if (file_has_word(file, ctrl))
		goto out;
	ret = mmf_journal_add(j, &jk_subtree, dir, ctrl);
	if (ret < 0)
		goto out;
	ret = mmf_sysfs_write(file, val);
	if (ret < 0)
		mmf_journal_done(j, &jk_subtree, dir);
out:
	free(file);
	free(val);
	return ret;
}

/*
 * v2: a child of own gets memory only if own's subtree_control has it, and
 * a non-root cgroup with processes (we are one) cannot enable it (EBUSY):
 * then fall back to the root, which is exempt from that rule.
 */
static int v2_parent(struct mmf_journal *j, const char *mnt, const char *own, char **parent)
{
	char *ctl;
	bool avail;
	int ret;

	if (strcmp(own, mnt)) {
		ctl = mmf_xasprintf("%s/cgroup.controllers", own);
		avail = file_has_word(ctl, "memory");
		free(ctl);
		if (avail && enable_ctrl(j, own, "memory") == 0) {
			*parent = mmf_xstrdup(own);
			return 0;
		}
	}
	ret = enable_ctrl(j, mnt, "memory");
	if (ret < 0)
		return ret;
	*parent = mmf_xstrdup(mnt);
	return 0;
}

static bool valid_name(const char *name)
{
	if (!*name || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("_.-", *p))
			return false;
	return true;
}

int mmf_cg_create(struct mmf_journal *j, const char *name, struct mmf_cgroup **cgp)
{
	char mnt[PATH_MAX], rel[PATH_MAX];
	char *self, *own, *parent, *path;
	struct mmf_cgroup *cg;
	int version, ret;

	*cgp = NULL;
	if (name && !valid_name(name))
		return mmf_sys_fail(EINVAL, "cgroup name '%s': use [A-Za-z0-9_.-], at most 64",
				    name);
	version = mmf_cg_detect(mnt, sizeof(mnt));
	if (version < 0)
		return version;
	self = mmf_read_text("/proc/self/cgroup");
	if (!self)
		return mmf_sys_fail(errno, "read /proc/self/cgroup");
	ret = mmf_cg_self_path(self, version, rel, sizeof(rel));
	free(self);
	own = mmf_xasprintf("%s%s", mnt, ret == 0 && strcmp(rel, "/") ? rel : "");
	/* Another namespace's path, or a v1 memory hierarchy we are not in. */
	if (!mmf_is_dir(own)) {
		free(own);
		own = mmf_xstrdup(mnt);
	}
	if (version == 2) {
		ret = v2_parent(j, mnt, own, &parent);
	} else {
		parent = mmf_xstrdup(own);	/* v1 has no no-internal-process rule */
		ret = 0;
	}
	free(own);
	if (ret < 0)
		return ret;
	if (name)
		path = mmf_xasprintf("%s/mmfuzz.%d.%s", parent, (int)getpid(), name);
	else
		path = mmf_xasprintf("%s/mmfuzz.%d", parent, (int)getpid());
	free(parent);
	ret = mmf_journal_add(j, &mmf_jk_cgroup, path, version == 2 ? "v2" : "v1");
	if (ret < 0)
		goto fail;
	if (mkdir(path, 0755)) {
		int err = errno;

		/* Not made by us: replay must not remove it. */
		mmf_journal_done(j, &mmf_jk_cgroup, path);
		if (err == EEXIST)
			ret = mmf_sys_fail(err, "mkdir %s (left by a killed run? try "
					   "'mmfuzz cleanup')", path);
		else
			ret = mmf_sys_fail(err, "mkdir %s", path);
		goto fail;
	}
	cg = mmf_xcalloc(1, sizeof(*cg));
	cg->j = j;
	cg->version = version;
	cg->path = path;
	*cgp = cg;
	return 0;
fail:
	free(path);
	return ret;
}

const char *mmf_cg_path(const struct mmf_cgroup *cg)
{
	return cg->path;
}

int mmf_cg_version(const struct mmf_cgroup *cg)
{
	return cg->version;
}

/* ---- limits, tasks, statistics ----------------------------------------- */

static char *cg_file(const struct mmf_cgroup *cg, const char *name)
{
	return mmf_xasprintf("%s/%s", cg->path, name);
}

static int cg_write(const struct mmf_cgroup *cg, const char *name, const char *val)
{
	char *f = cg_file(cg, name);
	int ret = mmf_sysfs_write(f, val);

	free(f);
	return ret;
}

static bool cg_has(const struct mmf_cgroup *cg, const char *name)
{
	char *f = cg_file(cg, name);
	bool ok = !access(f, F_OK);

	free(f);
	return ok;
}

static void fmt_limit(char *buf, size_t n, int64_t v, const char *unlimited)
{
	if (v < 0)
		snprintf(buf, n, "%s", unlimited);
	else
		snprintf(buf, n, "%" PRId64, v);
}

static int set_limit_v2(struct mmf_cgroup *cg, int64_t max, int64_t high, int64_t swap)
{
	bool has_swap = cg_has(cg, "memory.swap.max");
	char buf[32];
	int ret;

	if (swap >= 0 && !has_swap)
		return mmf_sys_fail(EOPNOTSUPP, "%s: no memory.swap.max (swap accounting off)",
				    cg->path);
	fmt_limit(buf, sizeof(buf), max, "max");
	ret = cg_write(cg, "memory.max", buf);
	if (ret < 0)
		return ret;
	fmt_limit(buf, sizeof(buf), high, "max");
	ret = cg_write(cg, "memory.high", buf);
	if (ret < 0 || !has_swap)
		return ret;
	fmt_limit(buf, sizeof(buf), swap, "max");
	return cg_write(cg, "memory.swap.max", buf);
}

static int set_limit_v1(struct mmf_cgroup *cg, int64_t max, int64_t high, int64_t swap)
{
	bool has_memsw = cg_has(cg, "memory.memsw.limit_in_bytes");
	char buf[32];
	int ret;

	if (swap >= 0 && !has_memsw)
		return mmf_sys_fail(EOPNOTSUPP, "%s: no memory.memsw.limit_in_bytes "
				    "(swap accounting off)", cg->path);
	/* v1 insists on limit <= memsw limit at every step: lift memsw first. */
	if (has_memsw) {
		ret = cg_write(cg, "memory.memsw.limit_in_bytes", "-1");
		if (ret < 0)
			return ret;
	}
	fmt_limit(buf, sizeof(buf), max, "-1");
	ret = cg_write(cg, "memory.limit_in_bytes", buf);
	if (ret < 0)
		return ret;
	fmt_limit(buf, sizeof(buf), high, "-1");
	ret = cg_write(cg, "memory.soft_limit_in_bytes", buf);
	if (ret < 0 || !has_memsw || max < 0 || swap < 0)
		return ret;
	fmt_limit(buf, sizeof(buf), max + swap, "-1");
	return cg_write(cg, "memory.memsw.limit_in_bytes", buf);
}

int mmf_cg_set_limit(struct mmf_cgroup *cg, int64_t max_bytes, int64_t high_bytes,
		     int64_t swap_max_bytes)
{
	if (cg->version == 2)
		return set_limit_v2(cg, max_bytes, high_bytes, swap_max_bytes);
	return set_limit_v1(cg, max_bytes, high_bytes, swap_max_bytes);
}

int mmf_cg_attach(struct mmf_cgroup *cg, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return cg_write(cg, "cgroup.procs", buf);
}

int mmf_cg_stat(struct mmf_cgroup *cg, const char *file, const char *key, uint64_t *val)
{
	char *path = cg_file(cg, file), *text, *line, *save = NULL;
	size_t klen = strlen(key);
	int ret = -ENOENT;

	text = mmf_read_text(path);
	if (!text) {
		ret = mmf_sys_fail(errno, "read %s", path);
		free(path);
		return ret;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, key, klen) || line[klen] != ' ')
			continue;
		*val = strtoull(line + klen + 1, NULL, 10);
		ret = 0;
		break;
	}
	if (ret < 0)
		mmf_sys_fail(ENOENT, "no '%s' in %s", key, path);
	free(text);
	free(path);
	return ret;
}

/* A field some kernels lack reads as 0; real read errors still fail. */
static int opt_stat(struct mmf_cgroup *cg, const char *file, const char *key, uint64_t *v)
{
	int ret = mmf_cg_stat(cg, file, key, v);

	if (ret == -ENOENT) {
		*v = 0;
		return 0;
	}
	return ret;
}

static int opt_u64(struct mmf_cgroup *cg, const char *file, uint64_t *v)
{
	char *f = cg_file(cg, file);
	int ret = mmf_sysfs_read_u64(f, v);

	free(f);
	if (ret == -ENOENT) {
		*v = 0;
		return 0;
	}
	return ret;
}

int mmf_cg_stats(struct mmf_cgroup *cg, struct mmf_cg_stats *st)
{
	const char *stat = "memory.stat";
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (cg->version == 2) {
		const char *ev = "memory.events";

		ret = opt_u64(cg, "memory.current", &st->usage);
		ret = ret ?: opt_u64(cg, "memory.swap.current", &st->swap);
		ret = ret ?: opt_stat(cg, stat, "anon", &st->anon);
		ret = ret ?: opt_stat(cg, stat, "file", &st->file);
		ret = ret ?: opt_stat(cg, stat, "pgmajfault", &st->pgmajfault);
		ret = ret ?: opt_stat(cg, ev, "high", &st->ev_high);
		ret = ret ?: opt_stat(cg, ev, "max", &st->ev_max);
		ret = ret ?: opt_stat(cg, ev, "oom", &st->ev_oom);
		ret = ret ?: opt_stat(cg, ev, "oom_kill", &st->ev_oom_kill);
	} else {
		ret = opt_u64(cg, "memory.usage_in_bytes", &st->usage);
		ret = ret ?: opt_stat(cg, stat, "swap", &st->swap);
		ret = ret ?: opt_stat(cg, stat, "rss", &st->anon);
		ret = ret ?: opt_stat(cg, stat, "cache", &st->file);
		ret = ret ?: opt_stat(cg, stat, "pgmajfault", &st->pgmajfault);
		ret = ret ?: opt_u64(cg, "memory.failcnt", &st->ev_max);
		ret = ret ?: opt_stat(cg, "memory.oom_control", "oom_kill", &st->ev_oom_kill);
	}
	return ret;
}

int mmf_cg_reclaim(struct mmf_cgroup *cg, uint64_t bytes)
{
	char buf[32];

	if (cg->version != 2 || !cg_has(cg, "memory.reclaim"))
		return mmf_sys_fail(EOPNOTSUPP, "%s: no memory.reclaim", cg->path);
	snprintf(buf, sizeof(buf), "%" PRIu64, bytes);
	return cg_write(cg, "memory.reclaim", buf);
}

/* ---- destroy ----------------------------------------------------------- */

static char *dirname_dup(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path ? strndup(path, slash - path) : NULL;
}

/* Move pid to the nearest ancestor that takes it (v2 forbids some). */
static int move_up(const char *path, const char *pid)
{
	char *anc = dirname_dup(path);
	int ret = -ENOENT;

	while (anc) {
		char *procs = mmf_xasprintf("%s/cgroup.procs", anc), *up;

		if (access(procs, F_OK)) {	/* above the hierarchy's root */
			free(procs);
			break;
		}
		ret = mmf_sysfs_write(procs, pid);
		free(procs);
		if (ret == 0 || ret == -ESRCH)
			break;
		up = dirname_dup(anc);
		free(anc);
		anc = up;
	}
	free(anc);
	return ret == -ESRCH ? 0 : ret;
}

static int move_tasks(const char *path)
{
	char *procs = mmf_xasprintf("%s/cgroup.procs", path);
	char *text = mmf_read_text(procs), *line, *save = NULL;
	int ret = 0;

	free(procs);
	if (!text)
		return errno == ENOENT ? 0 : mmf_sys_fail(errno, "read %s/cgroup.procs", path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int r = move_up(path, line);

		if (r < 0 && !ret)
			ret = r;
	}
	free(text);
	return ret;
}

/* Remove the cgroup path and any inside it: an enum mmf_undo or -errno. */
static int remove_dir(const char *path)
{
	struct dirent *de;
	int ret = 0;
	DIR *d;

	if (!mmf_is_dir(path))
		return access(path, F_OK) && errno == ENOENT ? MMF_UNDO_GONE :
			mmf_sys_fail(ENOTDIR, "cgroup %s", path);
	/* Child cgroups inside ours are ours too (made by the executor). */
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char *sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = mmf_xasprintf("%s/%s", path, de->d_name);
		ret = remove_dir(sub);
		free(sub);
		if (ret < 0)
			break;
	}
	if (d)
		closedir(d);
	if (ret < 0)
		return ret;
	/* Tasks exit or get moved asynchronously: retry for about 2 s. */
	for (int i = 0; i < 100; i++) {
		ret = move_tasks(path);
		if (!rmdir(path))
			return MMF_UNDO_DONE;
		if (errno == ENOENT)
			return MMF_UNDO_GONE;
		if (errno != EBUSY)
			return mmf_sys_fail(errno, "rmdir %s", path);
		usleep(20 * 1000);
	}
	if (ret < 0)
		return ret;	/* why the tasks did not move */
	return mmf_sys_fail(EBUSY, "rmdir %s: still busy after 2 s", path);
}

int mmf_cg_destroy(struct mmf_cgroup *cg)
{
	int ret;

	if (!cg)
		return 0;
	ret = remove_dir(cg->path);
	if (ret >= 0)
		ret = mmf_journal_done(cg->j, &mmf_jk_cgroup, cg->path);
	free(cg->path);
	free(cg);
	return ret < 0 ? ret : 0;
}

/* key: a cgroup dir we created, arg: its hierarchy's version, "v2" or "v1". */
static int cgroup_check(const char *path, const char *arg)
{
	const char *base = strrchr(path, '/');

	/* Never a hierarchy root or somebody else's cgroup. */
	if (!base || strncmp(base + 1, "mmfuzz.", 7))
		return mmf_sys_fail(EPERM, "%s is not an mmfuzz cgroup", path);
	return 0;
}

static int cgroup_undo(const char *path, const char *arg)
{
	return remove_dir(path);
}

static void cgroup_describe(struct strbuf *sb, const char *path, const char *arg)
{
	mmf_sb_printf(sb, "remove cgroup %s", path);
}

const struct mmf_journal_kind mmf_jk_cgroup = {
	.name = "cgroup",
	.check = cgroup_check,
	.undo = cgroup_undo,
	.describe = cgroup_describe,
};
MMF_JOURNAL_KIND(mmf_jk_cgroup);

/* key: a cgroup dir, arg: the controller we enabled in its subtree_control. */
static int subtree_undo(const char *path, const char *arg)
{
	const char *ctrl = arg ? arg : "memory";
	char *file = mmf_xasprintf("%s/cgroup.subtree_control", path), *val;
	struct dirent *de;
	bool others = false;
	int ret;
	DIR *d;

	if (!file_has_word(file, ctrl)) {
		free(file);
		return MMF_UNDO_GONE;
	}
	/* Another live run's cgroup still relies on it (it found it enabled). */
	d = opendir(path);
	while (d && (de = readdir(d)))
		others |= de->d_type == DT_DIR && !strncmp(de->d_name, "mmfuzz.", 7);
	if (d)
		closedir(d);
	if (others) {
		free(file);
		return MMF_UNDO_INUSE;
	}
	val = mmf_xasprintf("-%s", ctrl);
	ret = mmf_sysfs_write(file, val);
	free(val);
	free(file);
	if (ret == -ENOENT)
		return MMF_UNDO_GONE;
	/* EBUSY: a child enabled it further down meanwhile and relies on it. */
	return ret == -EBUSY ? MMF_UNDO_INUSE : ret;
}

static void subtree_describe(struct strbuf *sb, const char *path, const char *arg)
{
	mmf_sb_printf(sb, "disable %s in %s/cgroup.subtree_control", arg ? arg : "memory", path);
}

static const struct mmf_journal_kind jk_subtree = {
	.name = "subtree",
	.check = mmf_journal_check_path,
	.undo = subtree_undo,
	.describe = subtree_describe,
};
MMF_JOURNAL_KIND(jk_subtree);
