/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A flattened mail (kernel/ only): one whose line breaks and indentation
 * were lost on the way, so the whole mail is one line of words. What is
 * left is split here into its header fields and, after quoted-printable
 * decoding, the words of its body, for kernel_mail_recover.c to rebuild
 * the inline patch against a tree.
 */
#ifndef RTGATE_KERNEL_MAIL_FLAT_H
#define RTGATE_KERNEL_MAIL_FLAT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A space or tab the mail encoded (=20, =09: white space at a line's end,
 * such as the lone space of an empty context line) is kept as a mark, so
 * that it stays a word of its own; kernel_mail_flat_text() turns marks
 * back into white space.
 */
#define MAIL_FLAT_SPACE	'\x01'
#define MAIL_FLAT_TAB	'\x02'

static inline bool kernel_mail_flat_mark(char c)
{
	return c == MAIL_FLAT_SPACE || c == MAIL_FLAT_TAB;
}

struct kernel_mail_flat {
	char from[256], date[128], subject[512], message_id[256];
	char *body;		/* the decoded body, NUL between words */
	char **word;		/* its words, in order */
	int nword;
	int diff;		/* first word of the first "diff --git" */
	bool qp;		/* the body was quoted-printable */
};

/*
 * Reads path: the header fields (the mail's own, never decoded), then the
 * body, quoted-printable decoded when the mail says so (soft breaks, =XX),
 * as words. Errors (not a flattened mail, bad quoted-printable, no
 * "diff --git") name the file and the offset; the caller frees with
 * kernel_mail_flat_free().
 */
int kernel_mail_flat_read(const char *path, struct kernel_mail_flat *m);
void kernel_mail_flat_free(struct kernel_mail_flat *m);

/* A word with its marks turned back into white space (in place). */
char *kernel_mail_flat_text(char *word);

#endif
