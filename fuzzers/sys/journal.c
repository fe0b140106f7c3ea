// SPDX-License-Identifier: GPL-2.0
/*
 * Undo journal. Text, one record per line, so that a human can read what a
 * killed run left behind:
 *
 *   mmfuzz-journal 1 <pid> <starttime> <boot_id>
 *   <kind> <key> [<arg>]
 *   done <kind> <key>
 *
 * <kind> is the name of a struct mmf_journal_kind, which the module that
 * makes the change defines. Fields are %XX-escaped (space, control bytes,
 * '%', non-ASCII). A last line without '\n' is a torn append: its change
 * was never started, so it is ignored.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define JOURNAL_MAGIC "mmfuzz-journal"
#define JOURNAL_VERSION 1

/* What MMF_JOURNAL_KIND() collected; weak: a program may register none. */
extern const struct mmf_journal_kind *const __start_mmf_journal_kinds[] __attribute__((weak));
extern const struct mmf_journal_kind *const __stop_mmf_journal_kinds[] __attribute__((weak));

struct jrec {
	const struct mmf_journal_kind *kind;	/* NULL: not known to this program */
	char *name;	/* the kind's name as written */
	char *key;
	char *arg;
	bool done;
	bool keep;	/* replay: could not undo, stays in the journal */
};

struct jrecs {
	struct jrec *v;
	size_t nr, cap;
};

struct mmf_journal {
	pthread_mutex_t lock;
	int fd;
	pid_t pid;
	char *dir;
	char *path;
	struct jrecs recs;	/* for mmf_journal_has() */
};

const char *mmf_state_dir(void)
{
	const char *d = getenv("MMFUZZ_STATE_DIR");

	return d && *d ? d : "/run/mmfuzz";
}

const char *mmf_journal_path(const struct mmf_journal *j)
{
	return j->path;
}

static void esc(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= ' ' || c >= 0x7f || c == '%')
			mmf_sb_printf(sb, "%%%02X", c);
		else
			mmf_sb_add(sb, (const char *)&c, 1);
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static char *unesc(const char *s, size_t n)
{
	char *out = mmf_xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
		int lo = i + 2 < n ? hexval(s[i + 2]) : -1;

		if (s[i] == '%' && hi >= 0 && lo >= 0) {
			*o++ = hi << 4 | lo;
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

static const struct mmf_journal_kind *kind_by_name(const char *name)
{
	for (const struct mmf_journal_kind *const *k = __start_mmf_journal_kinds;
	     k < __stop_mmf_journal_kinds; k++)
		if (!strcmp((*k)->name, name))
			return *k;
	return NULL;
}

static void recs_push(struct jrecs *rs, const struct mmf_journal_kind *kind, char *name,
		      char *key, char *arg)
{
	if (rs->nr == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 16;
		rs->v = mmf_xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	rs->v[rs->nr++] = (struct jrec){ .kind = kind, .name = name, .key = key, .arg = arg };
}

static void recs_free(struct jrecs *rs)
{
	for (size_t i = 0; i < rs->nr; i++) {
		free(rs->v[i].name);
		free(rs->v[i].key);
		free(rs->v[i].arg);
	}
	free(rs->v);
	rs->v = NULL;
	rs->nr = rs->cap = 0;
}

/* By name: a kind this program does not know is still matched with its "done". */
static struct jrec *recs_find(struct jrecs *rs, const char *name, const char *key)
{
	for (size_t i = rs->nr; i-- > 0;)
		if (!rs->v[i].done && !strcmp(rs->v[i].name, name) && !strcmp(rs->v[i].key, key))
			return &rs->v[i];
	return NULL;
}

/* Start time of pid in clock ticks since boot and its state letter. */
static int proc_start(pid_t pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024], *p;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = mmf_sysfs_read(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	/* comm may hold spaces and ')': fields restart after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%c", state) != 1)
		return -EINVAL;
	/* starttime is field 22; after ')' come field 3 (state) onwards. */
	p += 2;
	for (int f = 3; f < 22; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	if (sscanf(p, "%llu", start) != 1)
		return -EINVAL;
	return 0;
}

static void boot_id(char *buf, size_t n)
{
	if (mmf_sysfs_read("/proc/sys/kernel/random/boot_id", buf, n) < 0)
		snprintf(buf, n, "unknown");
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* ---- replay ---------------------------------------------------------- */

struct jfile {
	pid_t pid;
	unsigned long long start;
	char boot[64];
	struct jrecs recs;
};

/* 1: parsed, 0: no complete header (empty journal), -EINVAL: not a journal */
static int parse_journal(const char *text, size_t len, struct jfile *jf)
{
	const char *p = text, *end = text + len, *nl;
	char magic[32], *head;
	int ver, fields;

	memset(jf, 0, sizeof(*jf));
	nl = memchr(p, '\n', len);
	if (!nl)
		return len && strncmp(text, JOURNAL_MAGIC, MIN(len, strlen(JOURNAL_MAGIC))) ?
			-EINVAL : 0;
	head = strndup(p, nl - p);
	if (!head)
		return -ENOMEM;
	fields = sscanf(head, "%31s %d %d %llu %63s", magic, &ver, &jf->pid, &jf->start,
			jf->boot);
	free(head);
	if (fields != 5 || strcmp(magic, JOURNAL_MAGIC) || ver != JOURNAL_VERSION)
		return -EINVAL;
	for (p = nl + 1; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1) {
		const char *f[3] = { NULL }, *fe[3] = { NULL }, *q = p;
		char *name;
		int nf = 0;
		bool done;

		while (nf < 3) {
			const char *sp = memchr(q, ' ', nl - q);

			f[nf] = q;
			fe[nf] = sp && nf < 2 ? sp : nl;
			nf++;
			if (!sp || nf == 3)
				break;
			q = sp + 1;
		}
		done = fe[0] - f[0] == 4 && !strncmp(f[0], "done", 4);
		if (done) {
			f[0] = f[1];
			fe[0] = fe[1];
			f[1] = f[2];
			fe[1] = fe[2];
			nf--;
		}
		if (nf < 2 || fe[0] == f[0])
			continue;
		name = unesc(f[0], fe[0] - f[0]);
		if (done) {
			char *key = unesc(f[1], fe[1] - f[1]);
			struct jrec *r = recs_find(&jf->recs, name, key);

			if (r)
				r->done = true;
			free(key);
			free(name);
			continue;
		}
		/* An unknown kind (a newer version's, say) stays for a program that knows it. */
		recs_push(&jf->recs, kind_by_name(name), name, unesc(f[1], fe[1] - f[1]),
			  nf > 2 ? unesc(f[2], fe[2] - f[2]) : NULL);
	}
	return 1;
}

int mmf_journal_check_path(const char *key, const char *arg)
{
	if (key[0] != '/')
		return mmf_sys_fail(EINVAL, "'%s' is not an absolute path", key);
	return 0;
}

static int undo_one(const struct jrec *r)
{
	int ret;

	if (!r->kind)
		return mmf_sys_fail(EOPNOTSUPP, "no undo for records of kind '%s' in this program",
				    r->name);
	ret = r->kind->check(r->key, r->arg);
	return ret < 0 ? ret : r->kind->undo(r->key, r->arg);
}

static void describe(struct strbuf *sb, const struct jrec *r)
{
	if (r->kind)
		r->kind->describe(sb, r->key, r->arg);
	else
		mmf_sb_printf(sb, "%s %s", r->name, r->key);
}

/* The path an item is about, for "keep what depends on a failed item". */
static char *dep_key(const struct jrec *r)
{
	return r->kind && r->kind->path ? r->kind->path(r->key) : mmf_xstrdup(r->key);
}

/* k is f or one of its ancestors ("/a" for "/a/b"). */
static bool same_or_parent(const char *k, const char *f)
{
	size_t n = strlen(k);

	return !strncmp(k, f, n) && (f[n] == '\0' || f[n] == '/');
}

static void emit(FILE *out, const char *jpath, const char *what, const char *res, bool bad)
{
	if (out)
		fprintf(out, "%s: %s: %s\n", jpath, what, res);
	else if (bad)
		mmf_warnx_("%s: %s: %s", jpath, what, res);
}

static int rewrite_kept(const char *path, const struct jfile *jf)
{
	struct strbuf sb;
	int ret = 0;

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "%s %d %d %llu %s\n", JOURNAL_MAGIC, JOURNAL_VERSION, (int)jf->pid,
		  jf->start, jf->boot);
	for (size_t i = 0; i < jf->recs.nr; i++) {
		const struct jrec *r = &jf->recs.v[i];

		if (!r->keep)
			continue;
		esc(&sb, r->name);
		mmf_sb_puts(&sb, " ");
		esc(&sb, r->key);
		if (r->arg) {
			mmf_sb_puts(&sb, " ");
			esc(&sb, r->arg);
		}
		mmf_sb_puts(&sb, "\n");
	}
	if (mmf_write_file_atomic(path, sb.buf, sb.len) || chmod(path, 0600))
		ret = mmf_sys_fail(errno, "rewrite %s", path);
	mmf_sb_free(&sb);
	return ret;
}

static int read_fd(int fd, struct strbuf *sb)
{
	char chunk[8192];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		mmf_sb_add(sb, chunk, n);
	}
	return 0;
}

/* Is the journal's owner still running? Pid reuse and zombies count as dead. */
static bool owner_alive(const struct jfile *jf, const char *cur_boot)
{
	unsigned long long start;
	char state;

	if (strcmp(jf->boot, cur_boot))
		return false;
	if (proc_start(jf->pid, &start, &state))
		return false;
	return start == jf->start && state != 'Z' && state != 'X';
}

static void undo_all(const char *path, struct jfile *jf, bool same_boot, FILE *out,
		     struct mmf_cleanup_report *rep, int *first_err)
{
	struct strbuf what;
	char **failed = NULL;
	size_t nfailed = 0;

	mmf_sb_init(&what);
	for (size_t i = jf->recs.nr; i-- > 0;) {
		struct jrec *r = &jf->recs.v[i];
		char *dk;
		int ret;

		if (r->done)
			continue;
		mmf_sb_free(&what);
		describe(&what, r);
		dk = dep_key(r);
		for (size_t f = 0; f < nfailed && !r->keep; f++)
			r->keep = same_or_parent(dk, failed[f]);
		if (r->keep) {
			emit(out, path, what.buf, "kept: an item it depends on failed", true);
			rep->failed++;
			free(dk);
			continue;
		}
		/* The kernel forgot everything but files we created on disk. */
		if (!same_boot && r->kind && !r->kind->after_reboot) {
			emit(out, path, what.buf, "skipped: made before the last reboot", false);
			rep->undone++;
			free(dk);
			continue;
		}
		ret = undo_one(r);
		if (ret < 0) {
			struct strbuf msg;

			mmf_sb_init(&msg);
			mmf_sb_printf(&msg, "FAILED: %s", mmf_sys_err());
			emit(out, path, what.buf, msg.buf, true);
			mmf_sb_free(&msg);
			r->keep = true;
			rep->failed++;
			if (!*first_err)
				*first_err = ret;
			failed = mmf_xrealloc(failed, (nfailed + 1) * sizeof(*failed));
			failed[nfailed++] = dk;
			continue;
		}
		emit(out, path, what.buf, ret == MMF_UNDO_DONE ? "done" : ret == MMF_UNDO_GONE ?
		     "already undone" : "left as is: another mmfuzz run still uses it", false);
		rep->undone++;
		free(dk);
	}
	for (size_t f = 0; f < nfailed; f++)
		free(failed[f]);
	free(failed);
	mmf_sb_free(&what);
}

/*
 * Replay one journal file. owner: the caller is (or replaces) the owner, so
 * skip the liveness check. Returns 0 or the first error.
 */
static int replay(const char *path, bool owner, FILE *out, struct mmf_cleanup_report *rep)
{
	char cur_boot[64];
	struct stat st1, st2;
	struct strbuf sb;
	struct jfile jf;
	int fd, ret, err = 0;

	boot_id(cur_boot, sizeof(cur_boot));
	for (int tries = 0;; tries++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT ? 0 : mmf_sys_fail(errno, "open %s", path);
		/*
		 * The owner waits: another cleanup holds a live owner's journal
		 * only to read it and leave it alone. Skipping would leave the
		 * owner's changes in place after its close.
		 */
		if (flock(fd, owner ? LOCK_EX : LOCK_EX | LOCK_NB)) {
			close(fd);
			emit(out, path, "journal", "left alone: another cleanup is replaying it",
			     false);
			rep->live++;
			return 0;
		}
		/* A cleanup that finished meanwhile may have replaced or removed it. */
		if (!fstat(fd, &st1) && !stat(path, &st2) && st1.st_ino == st2.st_ino &&
		    st1.st_dev == st2.st_dev)
			break;
		close(fd);
		if (tries == 3)
			return mmf_sys_fail(EAGAIN, "%s keeps changing", path);
	}
	mmf_sb_init(&sb);
	ret = read_fd(fd, &sb);
	if (ret < 0) {
		err = mmf_sys_fail(-ret, "read %s", path);
		goto out;
	}
	rep->journals++;
	ret = parse_journal(sb.buf ? sb.buf : "", sb.len, &jf);
	if (ret == 0) {
		/* Killed while writing the header: no change was made yet. */
		unlink(path);
		emit(out, path, "journal", "removed (no records)", false);
		rep->replayed++;
		goto out;
	}
	if (ret < 0) {
		emit(out, path, "journal", "left alone: not an mmfuzz journal", true);
		rep->failed++;
		err = mmf_sys_fail(EINVAL, "%s is not an mmfuzz journal", path);
		goto out;
	}
	if (!owner && owner_alive(&jf, cur_boot)) {
		struct strbuf msg;

		mmf_sb_init(&msg);
		mmf_sb_printf(&msg, "left alone: pid %d is still running", (int)jf.pid);
		emit(out, path, "journal", msg.buf, false);
		mmf_sb_free(&msg);
		rep->live++;
		recs_free(&jf.recs);
		goto out;
	}
	undo_all(path, &jf, !strcmp(jf.boot, cur_boot), out, rep, &err);
	if (!err) {
		if (unlink(path) && errno != ENOENT)
			err = mmf_sys_fail(errno, "unlink %s", path);
		rep->replayed++;
	} else {
		int r2 = rewrite_kept(path, &jf);

		if (r2 < 0)
			mmf_warnx_("%s", mmf_sys_err());
		rep->kept++;
	}
	recs_free(&jf.recs);
out:
	mmf_sb_free(&sb);
	close(fd);	/* drops the lock */
	return err;
}

/* The first len bytes of n are "journal.<pid>". */
static bool is_journal_prefix(const char *n, size_t len, pid_t *pid)
{
	size_t i;

	if (len <= 8 || strncmp(n, "journal.", 8))
		return false;
	for (i = 8; i < len; i++)
		if (n[i] < '0' || n[i] > '9')
			return false;
	*pid = atoi(n + 8);
	return true;
}

static bool is_journal_name(const char *n, pid_t *pid)
{
	return is_journal_prefix(n, strlen(n), pid);
}

/* "journal.<pid>.tmp.<rewriter>" of a rewrite that was killed midway. */
static void remove_stale_tmp(const char *dir, const char *name, FILE *out)
{
	const char *t = strstr(name, ".tmp.");
	unsigned long long start;
	char *path, state;
	pid_t pid, rewriter;

	if (!t || !is_journal_prefix(name, t - name, &pid))
		return;
	rewriter = atoi(t + 5);
	if (rewriter <= 0 || (!proc_start(rewriter, &start, &state) && state != 'Z'))
		return;
	/* The rename never happened, so the journal itself is intact. */
	path = mmf_xasprintf("%s/%s", dir, name);
	if (!unlink(path))
		emit(out, path, "journal", "removed (interrupted rewrite)", false);
	free(path);
}

int mmf_cleanup(const char *state_dir, FILE *out, struct mmf_cleanup_report *rep)
{
	struct mmf_cleanup_report dummy;
	struct dirent *de;
	int err = 0;
	DIR *d;

	if (!rep)
		rep = &dummy;
	memset(rep, 0, sizeof(*rep));
	if (!state_dir)
		state_dir = mmf_state_dir();
	d = opendir(state_dir);
	if (!d)
		return errno == ENOENT ? 0 : mmf_sys_fail(errno, "open %s", state_dir);
	while ((de = readdir(d))) {
		char *path;
		pid_t pid;
		int ret;

		if (!is_journal_name(de->d_name, &pid)) {
			remove_stale_tmp(state_dir, de->d_name, out);
			continue;
		}
		path = mmf_xasprintf("%s/%s", state_dir, de->d_name);
		ret = replay(path, false, out, rep);
		if (ret < 0 && !err)
			err = ret;
		free(path);
	}
	closedir(d);
	fsync_dir(state_dir);
	return err;
}

/* ---- the owner's side ------------------------------------------------ */

static int write_header(int fd)
{
	unsigned long long start;
	char boot[64], state;
	struct strbuf sb;
	int ret = 0;

	ret = proc_start(getpid(), &start, &state);
	if (ret < 0)
		return ret;
	boot_id(boot, sizeof(boot));
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "%s %d %d %llu %s\n", JOURNAL_MAGIC, JOURNAL_VERSION, (int)getpid(),
		  start, boot);
	if (mmf_write_all(fd, sb.buf, sb.len) || fsync(fd))
		ret = -errno;
	mmf_sb_free(&sb);
	return ret;
}

/*
 * Write the header to journal.<pid>.tmp.<pid>, then link() it into place:
 * a journal never exists without its header, so a cleanup racing with us
 * cannot mistake ours for the remains of a run killed while starting.
 * Returns an O_APPEND fd of the journal or -errno.
 */
static int create_journal(const char *dir, const char *path)
{
	char *tmp = mmf_xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = -1, ret = 0;

	for (int tries = 0; tries < 3; tries++) {
		unlink(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		/* A run that just finished removed the (then empty) state dir. */
		if (fd < 0 && errno == ENOENT && !mmf_mkdir_p(dir, 0700))
			continue;
		if (fd < 0) {
			ret = mmf_sys_fail(errno, "create %s", tmp);
			break;
		}
		ret = write_header(fd);
		if (ret < 0) {
			ret = mmf_sys_fail(-ret, "write %s", tmp);
			break;
		}
		if (!link(tmp, path))
			break;
		ret = -errno;
		if (ret == -EEXIST && tries == 0) {
			struct mmf_cleanup_report rep = { 0 };

			/* Our pid, so its owner is dead (or it is ours from a prior open). */
			mmf_warnx_("replaying stale journal %s of an earlier process with pid %d",
			       path, (int)getpid());
			if (replay(path, true, stderr, &rep) < 0) {
				ret = mmf_sys_fail(EEXIST, "%s has items that cannot be undone "
						   "(see above)", path);
				break;
			}
		} else if (ret != -ENOENT || tries == 2) {
			ret = mmf_sys_fail(-ret, "create %s", path);
			break;
		}
		close(fd);
		fd = -1;
	}
	unlink(tmp);
	free(tmp);
	if (ret < 0 || fd < 0) {
		if (fd >= 0)
			close(fd);
		return ret < 0 ? ret : mmf_sys_fail(ENOENT, "create %s", path);
	}
	return fd;
}

int mmf_journal_open(const char *state_dir, struct mmf_journal **jp)
{
	struct mmf_journal *j;
	char *path;
	int fd;

	*jp = NULL;
	if (!state_dir)
		state_dir = mmf_state_dir();
	if (mmf_mkdir_p(state_dir, 0700))
		return mmf_sys_fail(errno, "create state dir %s", state_dir);
	path = mmf_xasprintf("%s/journal.%d", state_dir, (int)getpid());
	fd = create_journal(state_dir, path);
	if (fd < 0) {
		free(path);
		return fd;
	}
	fsync_dir(state_dir);
	j = mmf_xcalloc(1, sizeof(*j));
	pthread_mutex_init(&j->lock, NULL);
	j->fd = fd;
	j->pid = getpid();
	j->dir = mmf_xstrdup(state_dir);
	j->path = path;
	*jp = j;
	return 0;
}

static int append(struct mmf_journal *j, const char *line, size_t n)
{
	/* One write() per record: O_APPEND keeps records whole across forks. */
	if (mmf_write_all(j->fd, line, n) || fdatasync(j->fd))
		return mmf_sys_fail(errno, "append to %s", j->path);
	return 0;
}

int mmf_journal_add(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		    const char *key, const char *arg)
{
	struct strbuf sb;
	int ret;

	if (!kind || !key || !*key)
		return mmf_sys_fail(EINVAL, "bad journal record");
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "%s ", kind->name);
	esc(&sb, key);
	if (arg) {
		mmf_sb_puts(&sb, " ");
		esc(&sb, arg);
	}
	mmf_sb_puts(&sb, "\n");
	pthread_mutex_lock(&j->lock);
	ret = append(j, sb.buf, sb.len);
	if (!ret)
		recs_push(&j->recs, kind, mmf_xstrdup(kind->name), mmf_xstrdup(key),
			  arg ? mmf_xstrdup(arg) : NULL);
	pthread_mutex_unlock(&j->lock);
	mmf_sb_free(&sb);
	return ret;
}

int mmf_journal_done(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		     const char *key)
{
	struct strbuf sb;
	struct jrec *r;
	int ret = 0;

	if (!kind || !key)
		return mmf_sys_fail(EINVAL, "bad journal record");
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "done %s ", kind->name);
	esc(&sb, key);
	mmf_sb_puts(&sb, "\n");
	pthread_mutex_lock(&j->lock);
	r = recs_find(&j->recs, kind->name, key);
	if (r) {
		ret = append(j, sb.buf, sb.len);
		if (!ret)
			r->done = true;
	}
	pthread_mutex_unlock(&j->lock);
	mmf_sb_free(&sb);
	return ret;
}

bool mmf_journal_has(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		     const char *key)
{
	bool has;

	pthread_mutex_lock(&j->lock);
	has = recs_find(&j->recs, kind->name, key) != NULL;
	pthread_mutex_unlock(&j->lock);
	return has;
}

static void free_journal(struct mmf_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	recs_free(&j->recs);
	pthread_mutex_destroy(&j->lock);
	free(j->dir);
	free(j->path);
	free(j);
}

int mmf_journal_close(struct mmf_journal *j, bool undo)
{
	struct mmf_cleanup_report rep = { 0 };
	int ret = 0;

	if (!j)
		return 0;
	if (getpid() == j->pid) {
		if (undo) {
			close(j->fd);
			j->fd = -1;
			ret = replay(j->path, true, NULL, &rep);
			if (ret < 0)
				mmf_warnx_("%s: %d item(s) could not be undone and stay there for "
				       "'mmfuzz cleanup'", j->path, rep.failed);
			else
				rmdir(j->dir);	/* ours too; fails harmlessly unless empty */
		} else if (fsync(j->fd)) {
			ret = mmf_sys_fail(errno, "fsync %s", j->path);
		}
	}
	free_journal(j);
	return ret;
}

/* ---- guardian -------------------------------------------------------- */

static void guardian_wait(pid_t owner, int pidfd)
{
	if (pidfd >= 0) {
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

		while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
			;
		return;
	}
	/* No pidfd (kernel < 5.3): we were reparented when the owner died. */
	while (getppid() == owner)
		usleep(200 * 1000);
}

int mmf_journal_guard(struct mmf_journal *j)
{
	return mmf_state_guard(j->dir);
}

/* In the guardian: the owner is gone, undo what it (and others) left. */
static void __attribute__((noreturn)) guardian_cleanup(const char *dir)
{
	/* Quiet unless something could not be undone: other runs' live
	 * journals are none of the owner's business.
	 */
	FILE *out = NULL;

	/*
	 * Retry briefly: the owner's children mmf_die a moment after it (journals
	 * still live), and while they mmf_die swapoff can fail with ENOMEM.
	 */
	for (int i = 0; i < 10; i++) {
		struct mmf_cleanup_report rep;

		mmf_cleanup(dir, out, &rep);
		if (!rep.live && !rep.kept)
			break;
		out = rep.kept ? stderr : NULL;
		usleep(300 * 1000);
	}
	rmdir(dir);
	_exit(0);
}

int mmf_state_guard(const char *state_dir)
{
	pid_t owner = getpid(), child, g = -1;
	int pfd[2], pidfd = -1, st;
	char *dir = mmf_xstrdup(state_dir ? state_dir : mmf_state_dir());

#ifdef SYS_pidfd_open
	pidfd = syscall(SYS_pidfd_open, owner, 0);
#endif
	if (pipe2(pfd, O_CLOEXEC)) {
		int ret = mmf_sys_fail(errno, "pipe");

		if (pidfd >= 0)
			close(pidfd);
		free(dir);
		return ret;
	}
	child = fork();
	if (child < 0) {
		int ret = mmf_sys_fail(errno, "fork guardian");

		close(pfd[0]);
		close(pfd[1]);
		if (pidfd >= 0)
			close(pidfd);
		free(dir);
		return ret;
	}
	if (child == 0) {
		close(pfd[0]);
		if (pidfd < 0) {
			/* Without pidfd the guardian must stay the owner's child. */
			g = getpid();
			if (write(pfd[1], &g, sizeof(g)) < 0)
				_exit(1);
			close(pfd[1]);
			goto guard;
		}
		/* Double fork: the owner's wait() loops must never see us. */
		g = fork();
		if (g != 0) {
			if (write(pfd[1], &g, sizeof(g)) < 0)
				_exit(1);
			_exit(g < 0);
		}
		close(pfd[1]);
guard:
		setsid();	/* no ^C from the owner's terminal */
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		mmf_sysfs_write("/proc/self/oom_score_adj", "-1000");
		/* Hold none of the owner's pipes or files open past its death. */
		if (pidfd >= 0 && dup2(pidfd, 3) == 3)
			pidfd = 3;
		close_range(pidfd >= 0 ? 4 : 3, ~0U, 0);	/* also j->fd */
		guardian_wait(owner, pidfd);
		guardian_cleanup(dir);
	}
	free(dir);
	close(pfd[1]);
	if (pidfd >= 0) {
		close(pidfd);
		while (waitpid(child, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (read(pfd[0], &g, sizeof(g)) != sizeof(g) || g <= 0) {
		close(pfd[0]);
		return mmf_sys_fail(ECHILD, "start guardian");
	}
	close(pfd[0]);
	return g;
}
