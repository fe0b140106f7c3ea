// SPDX-License-Identifier: GPL-2.0
/*
 * What the binutils say about a vmlinux, kept in a file so that the next
 * run reads it in milliseconds instead of seconds: beside the vmlinux
 * ("vmlinux.mmfuzz-funcs") where that directory is writable, else under
 * $XDG_CACHE_HOME/mmfuzz or /var/tmp/mmfuzz-cache.UID, named by the
 * vmlinux's device and inode. The first line (the stamp) names the format
 * and the vmlinux's size and mtime: a vmlinux rebuilt in place makes the
 * file stale, and it is made again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/binutils.h"

/* A directory of our own for the caches of vmlinuxes we may not write beside. */
static char *private_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	struct stat st;
	char *dir;

	if (xdg && xdg[0] == '/')
		dir = mmf_xasprintf("%s/mmfuzz", xdg);
	else
		dir = mmf_xasprintf("/var/tmp/mmfuzz-cache.%u", (unsigned int)geteuid());
	/* in /var/tmp anyone could have made it first: it must be ours alone */
	if (mmf_mkdir_p(dir, 0700) || lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022)) {
		free(dir);
		return NULL;
	}
	return dir;
}

int mmf_sym_cache_open(struct sym_cache *c, const char *vmlinux, const char *what)
{
	const char *slash = strrchr(vmlinux, '/');
	char *dir = slash ? mmf_xasprintf("%.*s", (int)(slash - vmlinux + 1), vmlinux) :
		    mmf_xstrdup(".");
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (stat(vmlinux, &st)) {
		free(dir);
		return -errno;
	}
	c->stamp = mmf_xasprintf("mmfuzz-%s size=%lld mtime=%lld.%09ld\n", what,
				 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
	if (!access(dir, W_OK)) {
		c->path = mmf_xasprintf("%s.mmfuzz-%.*s", vmlinux, (int)strcspn(what, " "), what);
	} else {
		char *priv = private_dir();

		if (priv)
			c->path = mmf_xasprintf("%s/%llx-%llx-%s.mmfuzz-%.*s", priv,
						(unsigned long long)st.st_dev,
						(unsigned long long)st.st_ino, slash ? slash + 1 : vmlinux,
						(int)strcspn(what, " "), what);
		free(priv);
	}
	free(dir);
	return 0;
}

char *mmf_sym_cache_get(const struct sym_cache *c)
{
	size_t n, slen = strlen(c->stamp);
	char *text = c->path ? mmf_read_file(c->path, &n) : NULL;

	if (!text)
		return NULL;
	/* a NUL in it would cut what the parsers see: stale too */
	if (n < slen || memcmp(text, c->stamp, slen) || strlen(text) != n) {
		free(text);
		return NULL;
	}
	memmove(text, text + slen, n - slen + 1);
	return text;
}

void mmf_sym_cache_put(const struct sym_cache *c, const char *body, size_t len)
{
	struct strbuf sb;

	if (!c->path)
		return;
	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, c->stamp);
	mmf_sb_add(&sb, body, len);
	/* a cache that cannot be written costs time, not results */
	mmf_write_file_atomic(c->path, sb.buf, sb.len);
	mmf_sb_free(&sb);
}

void mmf_sym_cache_free(struct sym_cache *c)
{
	free(c->path);
	free(c->stamp);
	memset(c, 0, sizeof(*c));
}
