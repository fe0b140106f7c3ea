// SPDX-License-Identifier: GPL-2.0
/*
 * Frame lines: what the kernel prints for one stack frame, after the
 * console's level, timestamp and caller id:
 *
 *    func+0x1f/0x280                       x86_64 and arm64 call traces
 *    ? func+0x1f/0x280                     x86 unreliable frame
 *    [<ffffffff81234567>] func+0x1f/0x280  with hashed-or-not addresses
 *    func+0x1f/0x280 [mod]                 module, maybe "[mod buildid]"
 *    func+0x1f/0x280 (P)                   arm64 since 6.13: (P) pc, (L) lr
 *    RIP: 0010:func+0x1f/0x280             x86 faulting pc
 *    pc : func+0x1f/0x280, lr : ...        arm64 registers
 *
 * Only whole lines of these forms: a function named in a sentence (the
 * "in func+0x" of a KASAN title, lockdep's "at: func+0x") is left alone,
 * because extra lines there would change what the report parser sees.
 *
 * A frame in a call trace is a return address: the call is the
 * instruction before it, so the symbolizer looks up one byte earlier, as
 * syzkaller does (decode_stacktrace.sh looks up the address itself and
 * may name the line after the call). A faulting pc is the instruction
 * itself.
 */
#include <string.h>

#include "symbolize/internal.h"

static const struct label {
	const char *text;
	bool exact;
} labels[] = {
	{ "RIP: ", true },
	{ "EIP: ", true },
	{ "IP: ", true },
	{ "pc : ", true },
	{ "lr : ", false },
	{ "PC is at ", true },
	{ "LR is at ", false },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hexval(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
	       c == '_' || c == '.' || c == '$';
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* "0x1f" at s + i: index past it and *v, or 0. */
static size_t parse_hex(const char *s, size_t i, size_t n, uint64_t *v)
{
	size_t start;

	if (n - i < 3 || s[i] != '0' || s[i + 1] != 'x')
		return 0;
	i += 2;
	start = i;
	*v = 0;
	while (i < n && hexval(s[i]) >= 0 && i - start < 16)
		*v = *v << 4 | hexval(s[i++]);
	if (i == start || (i < n && hexval(s[i]) >= 0))
		return 0;
	return i;
}

/* "<4>", "[  12.345678]", "[ T123]", "[  C1]": the console's, not a pc. */
static size_t skip_console(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n && s[0] == '<') {
		for (j = 1; j < n && is_digit(s[j]); j++)
			;
		if (j > 1 && j < n && s[j] == '>')
			i = j + 1;
	}
	while (i < n && s[i] == '[') {
		j = skip_blanks(s, i + 1, n);
		if (j < n && (s[j] == 'T' || s[j] == 'C'))
			j++;
		else
			while (j < n && (is_digit(s[j]) || s[j] == '.'))
				j++;
		while (j < n && is_digit(s[j]))
			j++;
		if (j >= n || s[j] != ']' || !is_digit(s[j - 1]))
			break;
		i = j + 1;
	}
	return i;
}

/* "[<ffffffff81234567>]" and blanks, any number of them. */
static size_t skip_pcs(const char *s, size_t i, size_t n)
{
	for (;;) {
		size_t j = skip_blanks(s, i, n);

		if (n - j < 4 || s[j] != '[' || s[j + 1] != '<')
			return j;
		for (j += 2; j < n && hexval(s[j]) >= 0; j++)
			;
		if (n - j < 2 || s[j] != '>' || s[j + 1] != ']')
			return i;
		i = j + 2;
	}
}

/* " [mod]" or " [mod buildid]" at s + i: index past it, or i. */
static size_t parse_module(const char *s, size_t i, size_t n, struct sym_frame *f)
{
	size_t j = skip_blanks(s, i, n), k;

	if (j == i || j >= n || s[j] != '[')
		return i;
	for (k = j + 1; k < n && (is_name_char(s[k]) || s[k] == '-') && s[k] != '.'; k++)
		;
	if (k == j + 1)
		return i;
	f->mod = j + 1;
	f->mod_len = k - j - 1;
	if (k < n && s[k] == ' ')
		for (k++; k < n && hexval(s[k]) >= 0; k++)
			;
	if (k >= n || s[k] != ']') {
		f->mod_len = 0;
		return i;
	}
	return k + 1;
}

/* arm64's " (P)" or " (L)" after the frame. */
static size_t parse_marker(const char *s, size_t i, size_t n, struct sym_frame *f)
{
	size_t j = skip_blanks(s, i, n), k;

	if (j == i || j >= n || s[j] != '(')
		return i;
	for (k = j + 1; k < n && s[k] >= 'A' && s[k] <= 'Z'; k++)
		;
	if (k == j + 1 || k >= n || s[k] != ')')
		return i;
	if (k == j + 2 && s[j + 1] == 'P')
		f->exact = true;
	return k + 1;
}

bool mmf_sym_parse_frame(const char *s, size_t n, struct sym_frame *f)
{
	size_t i = skip_blanks(s, skip_console(s, n), n), j;
	bool labelled = false;

	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < ARRAY_SIZE(labels); k++) {
		size_t len = strlen(labels[k].text);

		if (n - i < len || memcmp(s + i, labels[k].text, len))
			continue;
		i += len;
		f->exact = labels[k].exact;
		labelled = true;
		/* x86's code segment: "RIP: 0010:" */
		if (n - i > 5 && hexval(s[i]) >= 0 && hexval(s[i + 1]) >= 0 &&
		    hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0 && s[i + 4] == ':')
			i += 5;
		break;
	}
	i = skip_pcs(s, i, n);
	if (!labelled && n - i > 2 && s[i] == '?' && s[i + 1] == ' ')
		i = skip_blanks(s, i + 2, n);
	f->sym = i;
	while (i < n && is_name_char(s[i]))
		i++;
	if (i == f->sym || i >= n || s[i] != '+')
		return false;
	f->name_len = i - f->sym;
	i = parse_hex(s, i + 1, n, &f->off);
	if (!i || i >= n || s[i] != '/')
		return false;
	i = parse_hex(s, i + 1, n, &f->size);
	if (!i)
		return false;
	f->sym_end = i;
	i = parse_module(s, i, n, f);
	i = parse_marker(s, i, n, f);
	j = skip_blanks(s, i, n);
	if (j < n && s[j] == '\r')
		j++;
	return j == n;
}
