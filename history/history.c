/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.c - the SQLite history of results (history.h).
 */
#include "history.h"
#include "../core/err.h"
#include "../core/result.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUSY_MS 60000            /* a writer waits this long for the others */

struct nb_history {
	sqlite3 *db;
	char path[4096];
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS runs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT UNIQUE NOT NULL,"
	" started TEXT, added TEXT, host TEXT, version TEXT, labels TEXT,"
	" source TEXT, doc TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS figures ("
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" target TEXT, workload TEXT, status TEXT, metric TEXT, n INTEGER,"
	" median REAL, spec TEXT);"
	"CREATE INDEX IF NOT EXISTS figures_run ON figures(run);"
	"CREATE INDEX IF NOT EXISTS figures_wl ON figures(target, workload, metric);"
	"INSERT OR IGNORE INTO meta VALUES ('format', 'nasbench-history');"
	"INSERT OR IGNORE INTO meta VALUES ('schema', '1');";

void nb_history_path(char *buf, size_t len)
{
	const char *env = getenv("NASBENCH_DB"), *home = getenv("HOME");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else
		snprintf(buf, len, "%s/.local/share/nasbench/history.db",
			 home && *home ? home : ".");
}

const char *nb_history_file(const struct nb_history *h)
{
	return h->path;
}

static int mkdirs(const char *path)
{
	char d[4096], *p;

	snprintf(d, sizeof(d), "%s", path);
	p = strrchr(d, '/');
	if (!p || p == d)
		return 0;
	*p = '\0';
	for (p = d + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(d, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(d, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int db_err(struct nb_history *h, int rc, const char *what)
{
	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		return nb_err(-EINVAL, "'%s' is not a nasbench history (%s: %s); "
			      "not touching it", h->path, what, sqlite3_errstr(rc));
	return nb_err(-EIO, "history '%s': %s: %s", h->path, what,
		      h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc));
}

static int exec(struct nb_history *h, const char *sql, const char *what)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_err(h, rc, what);
}

/* Into WAL mode.  Changing the journal mode needs the database to itself,
 * and when several first users race for that SQLite returns SQLITE_BUSY
 * at once rather than call the busy handler (waiting could deadlock, see
 * sqlite3_busy_handler()): so wait here, as long as the busy timeout. */
static int set_wal(struct nb_history *h)
{
	int rc, waited = 0;

	while ((rc = sqlite3_exec(h->db, "PRAGMA journal_mode = WAL", NULL, NULL,
				  NULL)) == SQLITE_BUSY && waited < BUSY_MS)
		waited += sqlite3_sleep(5 + (getpid() + waited) % 20);
	return rc == SQLITE_OK ? 0 : db_err(h, rc, "setting WAL mode");
}

/* Is this database a nasbench history?  1 yes, 0 empty (no table at all),
 * or -EINVAL. */
static int check(struct nb_history *h)
{
	sqlite3_stmt *st;
	int rc, tables = 0, ours = 0;

	rc = sqlite3_prepare_v2(h->db, "SELECT name FROM sqlite_master WHERE "
				"type = 'table'", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_err(h, rc, "reading its tables");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		tables++;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_err(h, rc, "reading its tables");
	if (!tables)
		return 0;
	rc = sqlite3_prepare_v2(h->db, "SELECT value FROM meta WHERE key = 'format'",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    !strcmp((const char *)sqlite3_column_text(st, 0) ?: "",
			    "nasbench-history"))
			ours = 1;
		sqlite3_finalize(st);
	}
	if (!ours)
		return nb_err(-EINVAL, "'%s' is an SQLite database but not a nasbench "
			      "history; not touching it (set NASBENCH_DB to another "
			      "file)", h->path);
	return 1;
}

int nb_history_open(const char *path, struct nb_history **out)
{
	struct nb_history *h = calloc(1, sizeof(*h));
	struct stat sb;
	int rc, exists;

	*out = NULL;
	if (!h)
		return nb_err(-ENOMEM, "out of memory");
	if (path)
		snprintf(h->path, sizeof(h->path), "%s", path);
	else
		nb_history_path(h->path, sizeof(h->path));
	exists = !stat(h->path, &sb);
	if (exists && !S_ISREG(sb.st_mode)) {
		rc = nb_err(-EINVAL, "history '%s' is not a regular file", h->path);
		goto fail;
	}
	if (!exists && (rc = mkdirs(h->path))) {
		rc = nb_err(-EIO, "cannot create the directory of history '%s': %s",
			    h->path, strerror(-rc));
		goto fail;
	}
	rc = sqlite3_open_v2(h->path, &h->db, SQLITE_OPEN_READWRITE |
			     (exists ? 0 : SQLITE_OPEN_CREATE), NULL);
	if (rc != SQLITE_OK) {
		rc = db_err(h, rc, "open");
		goto fail;
	}
	sqlite3_busy_timeout(h->db, BUSY_MS);
	rc = check(h);
	if (rc < 0)
		goto fail;
	if (rc == 0) {
		/* new (or empty): the schema, once, whoever comes first */
		if ((rc = set_wal(h)) ||
		    (rc = exec(h, "BEGIN IMMEDIATE", "creating it")))
			goto fail;
		if ((rc = check(h)) < 0 ||
		    (rc = exec(h, schema, "creating it")) ||
		    (rc = exec(h, "COMMIT", "creating it"))) {
			sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
			rc = rc < 0 ? rc : -EIO;
			goto fail;
		}
	}
	if ((rc = exec(h, "PRAGMA foreign_keys = ON", "setting it up")))
		goto fail;
	*out = h;
	return 0;
fail:
	if (h->db)
		sqlite3_close(h->db);
	free(h);
	return rc;
}

void nb_history_close(struct nb_history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h);
}

/* ---- add ---- */

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

static char *dump(const json_t *v)
{
	return json_dumps(v ? v : json_null(), JSON_COMPACT | JSON_SORT_KEYS |
			  JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
}

static int find_run_id(struct nb_history *h, const char *run_id, long long *id)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, "SELECT id FROM runs WHERE run_id = ?",
				    -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_err(h, rc, "reading");
	bind_text(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : db_err(h, rc, "reading");
}

static int add(struct nb_history *h, const json_t *doc, const char *source,
	       long long *id);

static int add_figures(struct nb_history *h, long long id, const json_t *doc)
{
	sqlite3_stmt *st;
	json_t *wl, *sum, *s;
	const char *name;
	size_t i;
	int rc = sqlite3_prepare_v2(h->db, "INSERT INTO figures VALUES "
				    "(?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_err(h, rc, "recording");
	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		char *spec = dump(json_object_get(wl, "spec"));

		sum = json_object_get(wl, "summary");
		if (!json_object_size(sum))
			sum = json_pack("{s:{s:i}}", "-", "n", 0);
		else
			json_incref(sum);
		json_object_foreach(sum, name, s) {
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, id);
			bind_text(st, 2, nb_jstr(wl, "target"));
			bind_text(st, 3, nb_jstr(wl, "workload"));
			bind_text(st, 4, nb_jstr(wl, "status"));
			bind_text(st, 5, name);
			sqlite3_bind_int64(st, 6, json_integer_value(json_object_get(s, "n")));
			if (json_is_number(json_object_get(s, "median")))
				sqlite3_bind_double(st, 7, json_number_value(
					json_object_get(s, "median")));
			else
				sqlite3_bind_null(st, 7);
			bind_text(st, 8, spec);
			if ((rc = sqlite3_step(st)) != SQLITE_DONE)
				break;
		}
		json_decref(sum);
		free(spec);
		if (rc != SQLITE_DONE && rc != SQLITE_OK) {
			sqlite3_finalize(st);
			return db_err(h, rc, "recording");
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* DOC with every entry's summary (a result made by hand may lack them). */
static json_t *summarised(const json_t *doc)
{
	json_t *d = json_deep_copy(doc), *fin, *comp;

	fin = json_incref(json_object_get(d, "finished"));
	comp = json_incref(json_object_get(d, "complete"));
	nb_result_finish(d, 1);
	if (fin)
		json_object_set(d, "finished", fin);
	else
		json_object_del(d, "finished");
	if (comp)
		json_object_set(d, "complete", comp);
	else
		json_object_del(d, "complete");
	json_decref(fin);
	json_decref(comp);
	return d;
}

int nb_history_add(struct nb_history *h, const json_t *orig, const char *source,
		   long long *id)
{
	json_t *doc = summarised(orig);
	int rc = add(h, doc, source, id);

	json_decref(doc);
	return rc;
}

static int add(struct nb_history *h, const json_t *doc, const char *source,
	       long long *id)
{
	sqlite3_stmt *st = NULL;
	char now[32], *labels = NULL, *text = NULL;
	const char *run_id = nb_jstr(doc, "run_id");
	json_t *client = json_object_get(doc, "client");
	int rc;

	*id = 0;
	if (!*run_id)
		return nb_err(-EINVAL, "'%s' has no run_id", source);
	if ((rc = exec(h, "BEGIN IMMEDIATE", "recording")))
		return rc;
	rc = find_run_id(h, run_id, id);
	if (rc) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	nb_iso_now(now, sizeof(now));
	labels = dump(json_object_get(doc, "labels"));
	text = dump(doc);
	rc = sqlite3_prepare_v2(h->db, "INSERT INTO runs (run_id, started, added, "
				"host, version, labels, source, doc) VALUES "
				"(?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		bind_text(st, 1, run_id);
		bind_text(st, 2, *nb_jstr(doc, "started") ? nb_jstr(doc, "started") : now);
		bind_text(st, 3, now);
		bind_text(st, 4, *nb_jstr(client, "hostname") ? nb_jstr(client, "hostname") :
			  nb_jstr(client, "host"));
		bind_text(st, 5, nb_jstr(doc, "version"));
		bind_text(st, 6, labels);
		bind_text(st, 7, source);
		bind_text(st, 8, text);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	free(labels);
	free(text);
	if (rc != SQLITE_OK) {
		rc = db_err(h, rc, "recording");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	*id = sqlite3_last_insert_rowid(h->db);
	if ((rc = add_figures(h, *id, doc)) || (rc = exec(h, "COMMIT", "recording"))) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return 0;
}

/* ---- list, get, rm ---- */

int nb_history_labels_equal(const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;

	if (json_object_size(a) != json_object_size(b))
		return 0;
	json_object_foreach((json_t *)a, k, v)
		if (!json_equal(v, json_object_get(b, k)))
			return 0;
	return 1;
}

static int matches(const struct nb_history_filter *f, const json_t *labels,
		   const char *run_id)
{
	if (f->exclude_run_id && !strcmp(run_id, f->exclude_run_id))
		return 0;
	if (f->same_labels && !f->nlabels &&
	    !nb_history_labels_equal(labels, f->same_labels))
		return 0;
	for (int i = 0; i < f->nlabels; i++) {
		const char *eq = strchr(f->labels[i], '=');
		char key[256];
		const char *v;

		if (!eq)
			return 0;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - f->labels[i]), f->labels[i]);
		v = json_string_value(json_object_get(labels, key));
		if (!v || strcmp(v, eq + 1))
			return 0;
	}
	return 1;
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i) ?: "";
}

/* Runs matching F, newest first; WITH_DOC: each carries "doc". */
static int select_runs(struct nb_history *h, const struct nb_history_filter *f,
		       int with_doc, json_t **out)
{
	sqlite3_stmt *st;
	json_t *runs = json_array();
	int rc = sqlite3_prepare_v2(h->db, "SELECT id, run_id, started, added, host, "
				    "version, labels, source, doc FROM runs WHERE "
				    "started >= ? ORDER BY started DESC, id DESC",
				    -1, &st, NULL);

	*out = NULL;
	if (rc != SQLITE_OK) {
		json_decref(runs);
		return db_err(h, rc, "reading");
	}
	bind_text(st, 1, f && f->since ? f->since : "");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *labels = json_loads(col(st, 6), 0, NULL), *r;

		if (!json_is_object(labels)) {
			json_decref(labels);
			labels = json_object();
		}
		if (f && !matches(f, labels, col(st, 1))) {
			json_decref(labels);
			continue;
		}
		r = json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:o, s:s}",
			      "id", (json_int_t)sqlite3_column_int64(st, 0),
			      "run_id", col(st, 1), "started", col(st, 2),
			      "added", col(st, 3), "host", col(st, 4),
			      "version", col(st, 5), "labels", labels,
			      "source", col(st, 7));
		if (with_doc) {
			json_t *doc = json_loads(col(st, 8), 0, NULL);

			json_object_set_new(r, "doc", doc ? doc : json_null());
		} else {
			json_t *doc = json_loads(col(st, 8), 0, NULL), *wl, *names = json_array();
			size_t i;

			json_array_foreach(json_object_get(doc, "results"), i, wl)
				json_array_append_new(names, json_sprintf("%s/%s",
					nb_jstr(wl, "target"), nb_jstr(wl, "workload")));
			json_object_set_new(r, "workloads", names);
			json_decref(doc);
		}
		json_array_append_new(runs, r);
		if (f && f->last && (int)json_array_size(runs) == f->last)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		json_decref(runs);
		return db_err(h, rc, "reading");
	}
	*out = runs;
	return 0;
}

int nb_history_list(struct nb_history *h, const struct nb_history_filter *f,
		    json_t **runs)
{
	return select_runs(h, f, 0, runs);
}

int nb_history_list_docs(struct nb_history *h, const struct nb_history_filter *f,
			 json_t **runs)
{
	return select_runs(h, f, 1, runs);
}

/* The row id of RUN (an id or a run_id); 0, or -ENOENT with a message. */
static int resolve(struct nb_history *h, const char *run, long long *id)
{
	char *end;
	long long v = strtoll(run, &end, 10);
	sqlite3_stmt *st;
	int rc;

	if (*run && !*end) {
		rc = sqlite3_prepare_v2(h->db, "SELECT id FROM runs WHERE id = ?", -1,
					&st, NULL);
		if (rc != SQLITE_OK)
			return db_err(h, rc, "reading");
		sqlite3_bind_int64(st, 1, v);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW) {
			*id = v;
			return 0;
		}
	}
	rc = find_run_id(h, run, id);
	if (rc < 0)
		return rc;
	if (!rc)
		return nb_err(-ENOENT, "no run '%s' in the history '%s' (see 'nasbench "
			      "history list')", run, h->path);
	return 0;
}

int nb_history_get(struct nb_history *h, const char *run, json_t **doc,
		   long long *id)
{
	sqlite3_stmt *st;
	int rc;

	*doc = NULL;
	if ((rc = resolve(h, run, id)))
		return rc;
	rc = sqlite3_prepare_v2(h->db, "SELECT doc FROM runs WHERE id = ?", -1, &st,
				NULL);
	if (rc != SQLITE_OK)
		return db_err(h, rc, "reading");
	sqlite3_bind_int64(st, 1, *id);
	if (sqlite3_step(st) == SQLITE_ROW)
		*doc = json_loads(col(st, 0), 0, NULL);
	sqlite3_finalize(st);
	if (!*doc)
		return nb_err(-EIO, "history '%s': run %lld: its result is unreadable",
			      h->path, *id);
	return 0;
}

int nb_history_rm(struct nb_history *h, const char *run, long long *id)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = exec(h, "BEGIN IMMEDIATE", "removing")))
		return rc;
	if ((rc = resolve(h, run, id))) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	rc = sqlite3_prepare_v2(h->db, "DELETE FROM runs WHERE id = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, *id);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_OK) {
		rc = db_err(h, rc, "removing");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return exec(h, "COMMIT", "removing");
}

/* ---- baseline ---- */

static int same_settings(const json_t *a, const json_t *b)
{
	const json_t *sa = json_object_get(a, "spec"), *sb = json_object_get(b, "spec");

	for (size_t i = 0; nb_result_settings[i]; i++) {
		json_t *x = json_object_get(sa, nb_result_settings[i]);
		json_t *y = json_object_get(sb, nb_result_settings[i]);

		if (x && y && !json_equal(x, y))
			return 0;
	}
	return 1;
}

static json_t *entry_of(const json_t *doc, const json_t *like)
{
	return nb_result_find(doc, nb_jstr(like, "target"), nb_jstr(like, "workload"));
}

/* The entry of RESULTS for WL's target and workload, made (with WL's
 * spec and no iterations) when there is none. */
static json_t *pooled_entry(json_t *results, const json_t *wl)
{
	json_t *mine = NULL, *it;
	size_t j;

	json_array_foreach(results, j, it)
		if (!strcmp(nb_jstr(it, "target"), nb_jstr(wl, "target")) &&
		    !strcmp(nb_jstr(it, "workload"), nb_jstr(wl, "workload")))
			mine = it;
	if (!mine) {
		mine = json_pack("{s:s, s:s, s:s, s:O, s:[]}", "target",
				 nb_jstr(wl, "target"), "workload",
				 nb_jstr(wl, "workload"), "status", "ok",
				 "spec", json_object_get(wl, "spec") ?: json_object(),
				 "iterations");
		json_array_append_new(results, mine);
	}
	return mine;
}

/* Run DOC's ok entries at NEW_'s settings into RESULTS, each iteration
 * marked as run USED.  Whether it gave any. */
static int pool_run(json_t *results, const json_t *doc, const json_t *new_,
		    int used)
{
	json_t *wl, *it;
	size_t i, j;
	int took = 0;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		json_t *nw = entry_of(new_, wl), *mine;

		if (strcmp(nb_jstr(wl, "status"), "ok") ||
		    (nw && !same_settings(wl, nw)))
			continue;
		mine = pooled_entry(results, wl);
		json_array_foreach(json_object_get(wl, "iterations"), j, it) {
			json_t *c = json_deep_copy(it);

			json_object_set_new(c, "run", json_integer(used));
			json_array_append_new(json_object_get(mine, "iterations"), c);
		}
		took = 1;
	}
	return took;
}

int nb_history_baseline(struct nb_history *h, const json_t *new_,
			const struct nb_history_filter *f, json_t **base,
			int *nruns, char *name, size_t len)
{
	struct nb_history_filter ff = *f;
	json_t *runs, *results, *targets = NULL;
	size_t k, l;
	int rc, used = 0;

	*base = NULL;
	*nruns = 0;
	ff.same_labels = json_object_get(new_, "labels");
	ff.exclude_run_id = nb_jstr(new_, "run_id");
	if ((rc = select_runs(h, &ff, 1, &runs)))
		return rc;
	if (!json_array_size(runs)) {
		json_decref(runs);
		return nb_err(-ENOENT, "no run in the history '%s' matches %s (see "
			      "'nasbench history list'; record one with 'nasbench "
			      "history add' or 'run --history')", h->path,
			      f->nlabels ? "the --label filters" : "the new result's labels");
	}
	results = json_array();
	snprintf(name, len, "history (");
	/* oldest first, so run K counts from the oldest used */
	for (k = json_array_size(runs); k-- > 0;) {
		json_t *run = json_array_get(runs, k), *doc = json_object_get(run, "doc");

		if (!pool_run(results, doc, new_, used))
			continue;
		l = strlen(name);
		snprintf(name + l, len - l, "%s%lld", used ? ", " : "runs ",
			 (long long)json_integer_value(json_object_get(run, "id")));
		json_decref(targets);
		targets = json_incref(json_object_get(doc, "targets"));
		used++;
	}
	l = strlen(name);
	snprintf(name + l, len - l, ")");
	json_decref(runs);
	if (!used) {
		json_decref(results);
		json_decref(targets);
		return nb_err(-ENOENT, "no run in the history '%s' matching the labels "
			      "has the new result's workloads at the same settings",
			      h->path);
	}
	*base = json_pack("{s:i, s:s, s:s, s:O, s:o, s:o}", "schema", NB_RESULT_SCHEMA,
			  "tool", "nasbench", "run_id", "history",
			  "labels", json_object_get(new_, "labels"),
			  "targets", targets ? targets : json_array(), "results", results);
	*nruns = used;
	return 0;
}
