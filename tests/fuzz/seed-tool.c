// SPDX-License-Identifier: GPL-2.0
/*
 * Seeds and dictionaries for the self-fuzzing harnesses, without the
 * mmfuzz binary (scripts/fuzz-self.sh runs it):
 *
 *	seed-tool encode IN OUT	the byte form of the text program IN
 *	seed-tool dict		an AFL++ dictionary of the text form: call
 *				names, flag names, resources and syntax
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/prog.h"
#include "util/util.h"

static int encode(const char *in, const char *out)
{
	static struct mmf_prog p;
	char *text = mmf_read_file(in, NULL), err[200];
	uint8_t *buf;
	size_t n;

	if (!text)
		mmf_die("%s: %s", in, strerror(errno));
	if (mmf_prog_parse(text, &p, err, sizeof(err)))
		mmf_die("%s: %s", in, err);
	n = mmf_prog_encode(&p, NULL, 0);
	buf = mmf_xmalloc(n ? n : 1);
	mmf_prog_encode(&p, buf, n);
	if (mmf_write_file_atomic(out, buf, n))
		mmf_die("%s: %s", out, strerror(errno));
	free(buf);
	free(text);
	return 0;
}

static void word(const char *w)
{
	printf("\"");
	for (const unsigned char *p = (const unsigned char *)w; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	printf("\"\n");
}

static int dict(void)
{
	static const char *const syntax[] = {
		"m0", "m7", "f0", "f3", "c0", "c3", "s0", "s3", "anon", "self", " = ", ", ",
		"(", ")", " {", "}", "|", "\t", "# ", "0x", "1024", "\n" MMF_PROG_EXEC_MARK "\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(syntax); i++)
		word(syntax[i]);
	for (int c = 0; c < MMF_NR_CALLS; c++) {
		const struct mmf_call_desc *d = &mmf_calls[c];

		word(d->name);
		for (int a = 0; a < d->nr_args; a++) {
			const struct mmf_flag_set *set = d->args[a].set;

			/* each set once: at the first argument that uses it */
			for (int e = 0; set && e < c; e++)
				for (int k = 0; set && k < mmf_calls[e].nr_args; k++)
					if (mmf_calls[e].args[k].set == set)
						set = NULL;
			for (int k = 0; set && k < a; k++)
				if (d->args[k].set == set)
					set = NULL;
			for (int f = 0; set && f < set->nr; f++)
				word(set->flags[f].name);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "encode"))
		return encode(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "dict"))
		return dict();
	fprintf(stderr, "usage: seed-tool encode IN OUT | seed-tool dict\n");
	return 2;
}
