/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - text that came from outside, written where it goes: one
 * function per sink, and the one check of text at the boundary.
 *
 * Every string nasbench did not write itself (a result file, an import,
 * a load file, a label, what the box said) reaches a sink only through
 * the function of that sink here (docs/security.md has the table, with
 * each sink's test in tests/unit/test_escape.c):
 *
 *   sink                          function
 *   the terminal                  nb_term_escape(), NB_TERM(), nb_term_text(),
 *                                 nb_term_open()
 *   HTML, SVG, XML (JUnit)        nb_xml_escape()
 *   Markdown                      nb_md_escape()
 *   CSV                           nb_csv_cell()
 *   OpenMetrics                   nb_om_name(), nb_om_value(), nb_om_help()
 *   gnuplot                       nb_gp_str(), nb_gp_datum()
 *   a shell (a script over ssh)   nb_sh_quote()
 *   JSON (jansson)                nb_json_text()
 *
 * Bytes that are not UTF-8 never pass: each sink shows them its own way
 * (the terminal as \xE9, the others as U+FFFD), so every output stays
 * valid text for the program that reads it.  Core holds these (not
 * formats/) because the terminal's sink is core's own messages
 * (nb_die_msg(), nb_warn()).
 */
#ifndef NB_ESCAPE_H
#define NB_ESCAPE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- UTF-8 ---- */

/* The length (1 to 4) of the UTF-8 character S starts, its code point in
 * *CP; 0 when S starts no valid one (a stray byte, an overlong form, a
 * surrogate, past U+10FFFF, or cut short by the end of the string). */
size_t nb_utf8_char(const char *s, uint32_t *cp);

/* -1 when S is valid UTF-8, else the offset of its first bad byte. */
long nb_utf8_bad(const char *s);

/* Text at the boundary: 0 when S is valid UTF-8 holding no control
 * character (tab excepted), else -EINVAL with "WHAT: not UTF-8 text
 * (byte 0xE9 at byte 4)" or "WHAT: a control character (0x1b at byte 4)"
 * set.  WHAT names the option or file:line the user can fix. */
int nb_text_check(const char *s, const char *what);

/* ---- the terminal ---- */

/* S shown, never sent: every control character (C0, DEL, C1), the
 * bidirectional overrides (U+202A-U+202E, U+2066-U+2069) and bytes that
 * are not UTF-8 written as \n \r \t \xHH or \uHHHH; the rest as is. */
void nb_term_escape(FILE *out, const char *s);

/* The same for a message of nasbench's own words around outside text:
 * its line breaks and tabs kept. */
void nb_term_text(FILE *out, const char *s);

/* nb_term_escape() into BUF (LEN bytes; cut at a character, "..." added
 * when it did not fit); returns BUF.  NB_TERM(s) for a printf argument:
 * its buffer lives to the end of the enclosing block. */
const char *nb_term_str(char *buf, size_t len, const char *s);
#define NB_TERM_LEN 512
#define NB_TERM(s) nb_term_str((char[NB_TERM_LEN]){ 0 }, NB_TERM_LEN, (s))

/* A stream writing to UNDER through nb_term_text(): what a text writer
 * prints of results, imports and the box reaches a terminal (or a log a
 * CI shows) escaped however it was formatted.  Unbuffered (each write
 * goes on to UNDER at once); fclose() it, UNDER stays open.  NULL when out
 * of memory.  nb_term_raw() writes nasbench's own escape sequences (the
 * colours of 'compare') past the filter. */
FILE *nb_term_open(FILE *under);
void nb_term_raw(FILE *out, const char *seq);

/* ---- HTML, SVG and XML (JUnit) ---- */

/* S with < > & " as entities; the characters XML 1.0 forbids (C0 but
 * \t \n \r, U+FFFE, U+FFFF), DEL, C1, bidirectional overrides and bytes
 * that are not UTF-8 as U+FFFD: valid in HTML text, XML text and attribute values (nasbench
 * writes every attribute between double quotes). */
void nb_xml_escape(FILE *out, const char *s);

/* ---- Markdown ---- */

/* S as one line of Markdown text or a table cell: ASCII punctuation that
 * Markdown (CommonMark, GitHub's tables) reads backslash-escaped, line
 * breaks and tabs as spaces, other control characters, bidirectional
 * overrides and bytes that are not UTF-8 as U+FFFD. */
void nb_md_escape(FILE *out, const char *s);

/* ---- CSV ---- */

/* S as a CSV text cell (RFC 4180: quoted when it holds , ; " CR or LF,
 * a quote doubled), formula-safe as OWASP's "CSV injection" asks: a cell
 * starting with = + - @ tab or CR gets a leading ' unless S is a plain
 * decimal number ("-3.5", "+1e6"), which stays a number.  Bytes that are
 * not UTF-8 as U+FFFD. */
void nb_csv_cell(FILE *out, const char *s);

/* ---- OpenMetrics ---- */

/* S as a metric or label name in snake_case ([a-z_][a-z0-9_]*, as
 * promtool's lint wants: "diskType" disk_type; never empty: "_"), into
 * OUT (LEN bytes). */
void nb_om_name(char *out, size_t len, const char *s);

/* S as a label value between double quotes (\\ \" \n escaped, bytes
 * that are not UTF-8 as U+FFFD). */
void nb_om_value(FILE *out, const char *s);

/* S as the text of a # HELP line (\\ \n escaped, as nb_om_value). */
void nb_om_help(FILE *out, const char *s);

/* ---- gnuplot ---- */

/* S as a gnuplot string in a command: single-quoted (gnuplot runs no
 * `command` and no @macro inside single quotes; a quote is doubled, a
 * leading one written "'". before it), line breaks and tabs as spaces,
 * other control characters, bidirectional overrides and bytes that are
 * not UTF-8 as U+FFFD. */
void nb_gp_str(FILE *out, const char *s);

/* S as a string field of an inline data block ($data << EOD): double-
 * quoted (data lines run nothing; gnuplot's data reader knows no escape,
 * so a double quote becomes two single ones), otherwise as nb_gp_str(). */
void nb_gp_datum(FILE *out, const char *s);

/* ---- a shell ---- */

/* S as one word of a POSIX shell command line: single-quoted, a quote as
 * '\''.  Into OUT (LEN bytes): 0, or -ENOSPC (OUT "") when it does not
 * fit.  The command strings nasbench hands to a shell are its own or the
 * user's (a box file's commands); outside text enters them only so. */
int nb_sh_quote(char *out, size_t len, const char *s);

/* ---- JSON ---- */

/* S as a JSON string: never NULL for text that is not UTF-8 (as
 * json_string() is, which made results lose what it carried); such bytes
 * are carried as \xHH, visible.  NULL only when out of memory. */
json_t *nb_json_text(const char *s);

#endif
