/*
 * `dropjudge solve monomino-domino|puyo [FILE]`: reads the Baekjoon input
 * with the server's lenient text readers, runs the cores and prints the
 * Baekjoon output. Monomino-Domino streams: canonical placement lines go
 * straight into a fixed batch (md_text_take()), every other line through
 * md_text_feed(), and md_play() plays the batch; a regular file is read
 * with pread() into a window that stays in the cache, a large one by two
 * threads (see solve_md_file()). A Puyo field is small and is read whole.
 * See solve.h.
 */
#define _GNU_SOURCE /* sched_getcpu, pthread_attr_setaffinity_np */
#include "main/solve.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/error.h"
#include "codec/md_codec.h"
#include "codec/puyo_codec.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "mem/alloc.h"

/* Bytes read from the input at a time (and the window of a regular file). */
#define SOLVE_CHUNK ((size_t)1 << 16)

/*
 * A helper thread: started on a CPU other than the caller's when the
 * process may run on more than one. Linux starts a new thread on its
 * creator's CPU and moves it only at the next balancing tick, milliseconds
 * later, so two halves of a 4 ms job would run one after the other. Once
 * running, the thread takes back the process's whole CPU set, so the
 * scheduler may move it as it likes.
 */
struct solve_thread {
	pthread_t id;
	void *(*fn)(void *);
	void *arg;
	bool pinned;   /* started on `other`, to be let go */
	cpu_set_t all; /* the process's CPU set */
};

static void *solve_thread_run(void *arg)
{
	struct solve_thread *t = arg;
	if (t->pinned)
		pthread_setaffinity_np(pthread_self(), sizeof t->all, &t->all);
	return t->fn(t->arg);
}

/* Starts fn(arg) on t; false when no thread could be started. */
static bool solve_thread_start(struct solve_thread *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	t->fn = fn;
	t->arg = arg;
	t->pinned = false;
	if (pthread_attr_init(&attr) != 0)
		return false;
	int self = sched_getcpu();
	if (self >= 0 && sched_getaffinity(0, sizeof t->all, &t->all) == 0 &&
	    CPU_COUNT(&t->all) > 1) {
		for (size_t cpu = 0; cpu < CPU_SETSIZE && !t->pinned; cpu++) {
			if (cpu == (size_t)self || !CPU_ISSET(cpu, &t->all))
				continue;
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			t->pinned = pthread_attr_setaffinity_np(&attr, sizeof one, &one) == 0;
		}
	}
	bool ok = pthread_create(&t->id, &attr, solve_thread_run, t) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

/* Prints the first fault of err as "dropjudge: NAME:LINE:COLUMN: detail". */
static void solve_report(FILE *errout, const char *name, const struct codec_error *err)
{
	if (err->nfaults == 0) {
		fprintf(errout, "dropjudge: %s: %s\n", name, err->detail);
		return;
	}
	const struct codec_fault *f = &err->faults[0];
	if (f->line && f->column)
		fprintf(errout, "dropjudge: %s:%u:%u: %s\n", name, f->line, f->column, f->detail);
	else if (f->line)
		fprintf(errout, "dropjudge: %s:%u: %s\n", name, f->line, f->detail);
	else
		fprintf(errout, "dropjudge: %s: %s\n", name, f->detail);
}

/* Writes the answer text; 0, or 1 with a message when the write fails. */
static int solve_write(FILE *out, FILE *errout, const char *text, int len)
{
	if (len < 0 || fwrite(text, 1, (size_t)len, out) != (size_t)len || fflush(out) != 0) {
		fprintf(errout, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* Bytes of a regular file read at a time: a window that stays in the
 * cache, so the resident set stays flat whatever the file's size. Copies,
 * not mapped pages: on a virtual machine a page fault and the TLB
 * shootdown of an munmap() in a process of two threads cost more than
 * copying the page (10^6 placements: 9 ms against 15 ms), and a smaller
 * window has fewer pages to fault in once (64 KiB: 6.4 ms against 7.4 ms
 * with 128 KiB). */
#define SOLVE_WINDOW SOLVE_CHUNK

/* Takes the next bytes of the input; returns CODEC_OK to go on. */
typedef enum codec_status (*solve_chunk_fn)(void *ctx, const char *data, size_t len);

/*
 * Hands bytes [at, end) of the regular file fd to fn, a window
 * (SOLVE_WINDOW bytes at buf) at a time. Returns 0 when done, 1 when fn
 * did not return CODEC_OK (it is not called again), -1 when pread()
 * failed or the file ended early; *reached is then where the bytes not
 * handed on begin.
 */
static int solve_map(int fd, off_t at, off_t end, char *buf, solve_chunk_fn fn, void *ctx,
		     off_t *reached)
{
	int ret = 0;
	while (at < end) {
		size_t span = end - at > (off_t)SOLVE_WINDOW ? SOLVE_WINDOW : (size_t)(end - at);
		ssize_t got = pread(fd, buf, span, at);
		if (got <= 0) {
			ret = -1;
			break;
		}
		enum codec_status status = fn(ctx, buf, (size_t)got);
		at += got;
		if (status != CODEC_OK) {
			ret = 1;
			break;
		}
	}
	*reached = at;
	return ret;
}

/* Blocks held back to be played together by md_play(). */
#define SOLVE_MD_BATCH 16384

/* A game and the blocks read but not played yet. */
struct solve_md {
	struct md_text_reader *reader;
	struct md_game game;
	size_t held;				/* blocks[0..held) wait for md_play() */
	struct md_block blocks[SOLVE_MD_BATCH]; /* in reading order */
};

/* md_block_fn: holds each block, plays them a batch at a time. */
static int solve_md_hold(void *ctx, struct md_block block, unsigned long index)
{
	struct solve_md *s = ctx;
	(void)index;
	s->blocks[s->held++] = block;
	if (s->held == SOLVE_MD_BATCH) {
		md_play(&s->game, s->blocks, s->held);
		s->held = 0;
	}
	return 0;
}

/*
 * Feeds one chunk: canonical lines straight into the batch (md_text_take()),
 * every other line through md_text_feed() and solve_md_hold(), in reading
 * order. Returns the reader's status.
 */
static enum codec_status solve_md_chunk(void *ctx, const char *data, size_t len)
{
	struct solve_md *s = ctx;
	struct md_text_reader *reader = s->reader;
	size_t at = 0;
	while (at < len) {
		size_t taken;
		at += md_text_take(reader, data + at, len - at, s->blocks + s->held,
				   SOLVE_MD_BATCH - s->held, &taken);
		s->held += taken;
		if (s->held == SOLVE_MD_BATCH) {
			md_play(&s->game, s->blocks, s->held);
			s->held = 0;
			continue;
		}
		if (at == len)
			break;
		/* The line the fast path left, whole, or what is left of the chunk. */
		const char *nl = memchr(data + at, '\n', len - at);
		size_t line = nl ? (size_t)(nl - (data + at)) + 1 : len - at;
		enum codec_status status = md_text_feed(reader, data + at, line, solve_md_hold, s);
		if (status != CODEC_OK)
			return status;
		at += line;
	}
	return md_text_status(reader);
}

/*
 * A large regular file is read by two threads. It is cut into segments of
 * whole lines. This thread reads the first through the reader; the other
 * thread, then this one when done, take the others in turn and play the
 * canonical lines of each from an empty game (a guess, as md_play() does
 * with its stretches), keeping its first blocks. Taking segments in turn
 * keeps both threads busy to the end, however late the other one starts
 * and whatever its speed. Then, segment by segment, md_join() replays the
 * start of each from the boards the one before really left until they
 * meet the guess, and md_text_skip() tells the reader of the lines taken.
 * From the first segment not taken whole (a line that is not canonical, a
 * join that does not hold), this thread reads on as usual. The answer and
 * every message are those of reading the file from one end to the other.
 */
#define SOLVE_SPLIT_MIN ((off_t)1 << 20) /* smaller files are read by one thread */
/* Files from which this thread's window and batch are populated at once
 * (dj_populate()): all their pages will be written. */
#define SOLVE_POPULATE_MIN ((off_t)1 << 18)
#define SOLVE_SEGMENT	   ((off_t)1 << 19) /* bytes of a segment, at least */
#define SOLVE_SEGMENTS_MAX 64

/* Blocks of a segment kept for md_join(): stretches meet within a few
 * dozen blocks, and when they do not the segment is simply read again. */
#define SOLVE_HEAD 512

/* A segment of a split file, after the first. */
struct solve_segment {
	off_t from;			  /* first byte: the start of a line */
	off_t to;			  /* the start of the next segment, or the end */
	off_t stop;			  /* where its canonical lines ended */
	struct md_game guess;		  /* its blocks played from md_init() */
	size_t nhead;			  /* head[0..nhead): its first blocks */
	struct md_block head[SOLVE_HEAD]; /* for md_join() */
	atomic_bool done;		  /* set last: no thread touches it after */
};

/* The segments of a split file, and the next one to take. */
struct solve_split {
	int fd;
	size_t count;
	atomic_size_t next;
	atomic_bool planned;	 /* count and segment[] are set: the other thread may take */
	atomic_bool helper_left; /* set last: the other thread touches nothing after */
	struct solve_segment segment[SOLVE_SEGMENTS_MAX];
};

/* What a thread reads a segment with. */
struct solve_scratch {
	struct md_block *batch; /* SOLVE_MD_BATCH blocks */
	char *window;		/* SOLVE_WINDOW bytes */
};

/* Plays batch[0..n) on g's guess, the first blocks kept as its head. */
static void solve_segment_play(struct solve_segment *g, const struct md_block *batch, size_t n)
{
	if (g->nhead < SOLVE_HEAD) {
		size_t keep = SOLVE_HEAD - g->nhead < n ? SOLVE_HEAD - g->nhead : n;
		memcpy(g->head + g->nhead, batch, keep * sizeof batch[0]);
		g->nhead += keep;
	}
	md_play(&g->guess, batch, n);
}

/* Reads the canonical lines of g from its start on. */
static void solve_segment_read(struct solve_segment *g, int fd, struct solve_scratch w)
{
	off_t pos = g->from;
	size_t held = 0;
	bool more = true;
	while (more && pos < g->to) {
		size_t span =
		    g->to - pos > (off_t)SOLVE_WINDOW ? SOLVE_WINDOW : (size_t)(g->to - pos);
		ssize_t got = pread(fd, w.window, span, pos);
		if (got <= 0)
			break;
		size_t len = (size_t)got, used = 0;
		for (;;) {
			size_t taken;
			used += md_text_canonical(w.window + used, len - used, w.batch + held,
						  SOLVE_MD_BATCH - held, &taken);
			held += taken;
			if (held == SOLVE_MD_BATCH) {
				solve_segment_play(g, w.batch, held);
				held = 0;
				continue;
			}
			/* another line, or the window's last bytes: read on from there */
			more = len - used < 8 && pos + (off_t)len < g->to;
			break;
		}
		pos += (off_t)used;
	}
	if (held)
		solve_segment_play(g, w.batch, held);
	g->stop = pos;
	atomic_store_explicit(&g->done, true, memory_order_release);
}

/* Reads segments while any is left to take. */
static void solve_split_work(struct solve_split *sp, struct solve_scratch w)
{
	size_t k;
	while ((k = atomic_fetch_add(&sp->next, 1)) < sp->count)
		solve_segment_read(&sp->segment[k], sp->fd, w);
}

/* The other thread: its own scratch, then the segments. */
struct solve_helper {
	struct solve_split *split;
	struct md_block batch[SOLVE_MD_BATCH];
	char window[SOLVE_WINDOW];
};

static void *solve_helper_run(void *arg)
{
	struct solve_helper *h = arg;
	struct solve_split *split = h->split;
	dj_populate(h, sizeof *h);
	/* started before the plan, which the caller makes meanwhile */
	while (!atomic_load_explicit(&split->planned, memory_order_acquire))
		sched_yield();
	solve_split_work(split, (struct solve_scratch){h->batch, h->window});
	atomic_store_explicit(&split->helper_left, true, memory_order_release);
	return NULL;
}

/* The start of the first line that begins at or after `at`, or `end`. */
static off_t solve_line_after(int fd, off_t at, off_t end)
{
	char buf[256];
	ssize_t got = pread(fd, buf, sizeof buf, at - 1);
	const char *nl = got > 0 ? memchr(buf, '\n', (size_t)got) : NULL;
	return nl ? at + (nl - buf) : end;
}

/*
 * Cuts [at, end) into the first segment, [at, returned), and sp's; none
 * when the file is small or no line starts where a cut would be.
 */
static off_t solve_split_plan(struct solve_split *sp, int fd, off_t at, off_t end)
{
	off_t size = end - at;
	off_t step =
	    size / SOLVE_SEGMENTS_MAX > SOLVE_SEGMENT ? size / SOLVE_SEGMENTS_MAX : SOLVE_SEGMENT;
	off_t first = end;
	sp->fd = fd;
	sp->count = 0;
	for (off_t cut = at + step; cut < end && sp->count < SOLVE_SEGMENTS_MAX - 1; cut += step) {
		off_t line = solve_line_after(fd, cut, end);
		off_t prev = sp->count ? sp->segment[sp->count - 1].from : first;
		if (line >= end || (sp->count && line <= prev))
			break;
		if (first == end)
			first = line;
		else
			sp->segment[sp->count - 1].to = line;
		struct solve_segment *g = &sp->segment[sp->count++];
		g->from = line;
		g->to = end;
		g->stop = line;
		g->nhead = 0;
		md_init(&g->guess);
		atomic_init(&g->done, false);
		cut = line;
	}
	return first;
}

/* Joins g onto s when the reader can take its lines; true when it did. */
static bool solve_segment_join(struct solve_md *s, const struct solve_segment *g)
{
	md_play(&s->game, s->blocks, s->held);
	s->held = 0;
	struct md_game game = s->game;
	if (!md_join(&game, &g->guess, g->head, g->nhead) ||
	    !md_text_skip(s->reader, (size_t)g->guess.moves))
		return false;
	s->game = game;
	return true;
}

/*
 * Joins the segments of sp onto s in order, waiting for each, and reads
 * through the reader what a segment did not take: its last lines (the
 * canonical reader leaves the last 8 bytes it is given), or all of it from
 * a line that is not canonical, or all of it when the join does not hold.
 * Returns as solve_map() does, the first time it does not return 0; ret is
 * that of the reading before, and when not 0 nothing is joined or read.
 */
static int solve_split_join(struct solve_md *s, struct solve_split *sp, char *buf, int ret,
			    off_t *reached)
{
	for (size_t k = 0; k < sp->count; k++) {
		struct solve_segment *g = &sp->segment[k];
		/* Its answer is in once `done` is set, well before the other
		 * thread has ended: a join of the thread would wait for the C
		 * library and the kernel to take it down (a tenth of a
		 * millisecond here). */
		while (!atomic_load_explicit(&g->done, memory_order_acquire))
			sched_yield();
		if (ret != 0)
			continue;
		off_t from = solve_segment_join(s, g) ? g->stop : g->from;
		ret = solve_map(sp->fd, from, g->to, buf, solve_md_chunk, s, reached);
	}
	return ret;
}

/*
 * When `in` is a regular file, reads it from its position to its end with
 * pread() into buf (SOLVE_WINDOW bytes; in segments shared with another
 * thread when large) and leaves `in` after what was read, so that reading
 * on takes anything appended since, or what a failed pread() left. Returns
 * 1 when the reader found a fault, else 0.
 */
static int solve_md_file(FILE *in, struct solve_md *s, char *buf)
{
	struct stat st;
	int fd = fileno(in);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	off_t at = ftello(in), end = st.st_size, first = end, reached = at;
	if (at < 0 || at >= end)
		return 0;
	struct solve_split *split = NULL;
	struct solve_helper *helper = NULL;
	struct solve_thread thread;
	if (end - at >= SOLVE_SPLIT_MIN && (split = dj_malloc(sizeof *split)) != NULL) {
		/* The other thread first: it takes a few tenths of a millisecond
		 * to start running on another CPU (most of it waking that CPU on
		 * a virtual machine), time in which this thread populates its
		 * pages and plans the segments, which the other waits for. */
		atomic_init(&split->next, 0);
		atomic_init(&split->planned, false);
		atomic_init(&split->helper_left, false);
		helper = dj_malloc(sizeof *helper);
		if (helper) {
			helper->split = split;
			if (!solve_thread_start(&thread, solve_helper_run, helper)) {
				dj_free(helper);
				helper = NULL;
			}
		}
	}
	if (end - at >= SOLVE_POPULATE_MIN) {
		dj_populate(buf, SOLVE_WINDOW);
		dj_populate(s, sizeof *s);
	}
	if (split) {
		/* the segments the plan will cut, not all SOLVE_SEGMENTS_MAX */
		off_t step = (end - at) / SOLVE_SEGMENTS_MAX > SOLVE_SEGMENT
				 ? (end - at) / SOLVE_SEGMENTS_MAX
				 : SOLVE_SEGMENT;
		size_t cuts = (size_t)((end - at) / step) + 1;
		dj_populate(split, offsetof(struct solve_split, segment) +
				       (cuts < SOLVE_SEGMENTS_MAX ? cuts : SOLVE_SEGMENTS_MAX) *
					   sizeof split->segment[0]);
		first = solve_split_plan(split, fd, at, end);
		atomic_store_explicit(&split->planned, true, memory_order_release);
	}
	int ret = solve_map(fd, at, first, buf, solve_md_chunk, s, &reached);
	if (split && split->count) {
		/* the segments left, with this thread's window and batch */
		md_play(&s->game, s->blocks, s->held);
		s->held = 0;
		solve_split_work(split, (struct solve_scratch){s->blocks, buf});
		ret = solve_split_join(s, split, buf, ret, &reached);
	}
	if (helper) {
		/* not a join of the thread, which would wait for its end */
		while (!atomic_load_explicit(&split->helper_left, memory_order_acquire))
			sched_yield();
		pthread_detach(thread.id);
	}
	dj_free(helper);
	dj_free(split);
	if (ret == 1)
		return 1;
	fseeko(in, reached, SEEK_SET);
	return 0;
}

int solve_monomino_domino(FILE *in, const char *name, FILE *out, FILE *errout)
{
	const struct md_read_options opt = {.max_blocks = ULONG_MAX, .strict = false};
	struct md_text_reader *reader = NULL;
	struct codec_error err;
	struct solve_md *s;
	char *chunk;
	char answer[64];
	int ret = 1;

	chunk = dj_malloc(SOLVE_CHUNK);
	s = dj_malloc(sizeof *s);
	if (!chunk || !s) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_chunk;
	}
	codec_error_init(&err, 1);
	md_init(&s->game);
	s->held = 0;
	reader = md_text_new(&opt, &err);
	if (!reader) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_chunk;
	}
	s->reader = reader;
	if (solve_md_file(in, s, chunk) != 0) {
		solve_report(errout, name, &err);
		goto out_chunk;
	}
	for (;;) {
		size_t n = fread(chunk, 1, SOLVE_CHUNK, in);
		if (n > 0 && solve_md_chunk(s, chunk, n) != CODEC_OK) {
			solve_report(errout, name, &err);
			goto out_chunk;
		}
		if (n < SOLVE_CHUNK)
			break;
	}
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_chunk;
	}
	if (md_text_finish(reader, solve_md_hold, s) != CODEC_OK) {
		solve_report(errout, name, &err);
		goto out_chunk;
	}
	md_play(&s->game, s->blocks, s->held);
	ret = solve_write(out, errout, answer, md_text_result(&s->game, answer, sizeof answer));
out_chunk:
	md_text_free(reader);
	dj_free(s);
	dj_free(chunk);
	return ret;
}

/* Reads all of `in` (up to `limit` bytes) into a new buffer; NULL with a
 * message when it cannot. */
static char *solve_read_all(FILE *in, const char *name, size_t limit, size_t *len, FILE *errout)
{
	size_t cap = 4096, n = 0;
	char *buf = dj_malloc(cap);
	if (!buf)
		goto out_oom;
	for (;;) {
		if (n == cap) {
			if (cap >= limit) {
				fprintf(errout, "dropjudge: %s: input larger than %zu bytes\n",
					name, limit);
				goto out_buf;
			}
			char *p = dj_realloc(buf, cap * 2);
			if (!p)
				goto out_oom;
			buf = p;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_buf;
	}
	*len = n;
	return buf;
out_oom:
	fprintf(errout, "dropjudge: out of memory\n");
out_buf:
	dj_free(buf);
	return NULL;
}

int solve_puyo(FILE *in, const char *name, FILE *out, FILE *errout)
{
	struct codec_error err;
	struct puyo_field field;
	struct puyo_result result;
	char answer[32];
	size_t len = 0;
	int ret = 1;

	char *text = solve_read_all(in, name, SOLVE_PUYO_MAX_INPUT, &len, errout);
	if (!text)
		return 1;
	codec_error_init(&err, 1);
	if (puyo_text_read(text, len, false, &field, &err) != CODEC_OK) {
		solve_report(errout, name, &err);
		goto out_text;
	}
	puyo_run(&field, &result);
	ret = solve_write(out, errout, answer, puyo_text_result(&result, answer, sizeof answer));
out_text:
	dj_free(text);
	return ret;
}

/* Input and output buffers of `solve puyo --lines`. */
#define SOLVE_LINES_IN	((size_t)1 << 20) /* also the longest line taken */
#define SOLVE_LINES_OUT ((size_t)1 << 16)

/* Answers waiting to be written. */
struct solve_out {
	FILE *out;
	FILE *errout;
	size_t len;
	char buf[SOLVE_LINES_OUT];
};

/* Writes what is held; 0, or 1 with a message. */
static int solve_out_flush(struct solve_out *o)
{
	int ret = solve_write(o->out, o->errout, o->buf, (int)o->len);
	o->len = 0;
	return ret;
}

/* Appends a chain count and its newline to o; 0, or 1 with a message. */
static int solve_chains_answer(struct solve_out *o, unsigned chains)
{
	if (o->len + 4 > sizeof o->buf && solve_out_flush(o) != 0)
		return 1;
	/* at most PUYO_MAX_CHAINS (19): one or two digits */
	if (chains >= 10)
		o->buf[o->len++] = (char)('0' + chains / 10);
	o->buf[o->len++] = (char)('0' + chains % 10);
	o->buf[o->len++] = '\n';
	return 0;
}

/* Appends the chain count of planes to o; 0, or 1 with a message. */
static int solve_line_answer(struct solve_out *o, const struct puyo_planes *planes)
{
	return solve_chains_answer(o, puyo_planes_chains(planes));
}

/* The lengths of a line of 12 and of 13 rows, without its newline. */
#define SOLVE_LINE_12 (PUYO_ROWS * (PUYO_COLS + 1) - 1)
#define SOLVE_LINE_13 (PUYO_ROWS_MAX * (PUYO_COLS + 1) - 1)

/*
 * The line at s[0..left) when it is a good field of 12 or 13 rows ended by
 * a newline: its length (the newline not counted), with its planes read.
 * A good line holds no newline (no cell or space is one), so when the
 * byte after such a length is the newline, that is where the line ends and
 * no search for it is needed. 0 for any other line, which the caller splits
 * at its first newline and reads again.
 */
static size_t solve_line_known(const char *s, size_t left, unsigned line,
			       struct puyo_planes *planes)
{
	size_t len = 0;
	if (left > SOLVE_LINE_12 && s[SOLVE_LINE_12] == '\n')
		len = SOLVE_LINE_12;
	else if (left > SOLVE_LINE_13 && s[SOLVE_LINE_13] == '\n')
		len = SOLVE_LINE_13;
	if (len == 0 || puyo_lines_read(s, len, line, planes, NULL) != CODEC_OK)
		return 0;
	return len;
}

/* Solves one line of --lines; 0, or 1 with a message. */
static int solve_line(struct solve_out *o, const char *name, const char *s, size_t len,
		      unsigned line)
{
	struct puyo_planes planes;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (puyo_lines_read(s, len, line, &planes, NULL) != CODEC_OK) {
		/* Read again to say why: an error struct is filled only on the way out. */
		struct codec_error err;
		codec_error_init(&err, 1);
		puyo_lines_read(s, len, line, &planes, &err);
		solve_out_flush(o);
		solve_report(o->errout, name, &err);
		return 1;
	}
	return solve_line_answer(o, &planes);
}

/*
 * The answers of --lines are worked out two threads at a time: this thread
 * splits the whole lines of its buffer into a batch, both threads read and
 * solve the batch's lines a chunk at a time, and the answers go out in
 * order. The helper starts on the first chunk as soon as it is split and
 * follows the split a chunk behind, so that it solves while this thread
 * still looks for the ends of the lines after; and the answers of a batch
 * go out while the helper solves the next one. While the helper thread
 * solves the last batch of a buffer, this one reads the input that follows
 * into the other buffer (struct solve_in). A line that does not read as a
 * good field (a bad line, or one split at the wrong place by its length)
 * ends the batch's answers there; the line is then read on its own as
 * always, which reports it or, when it is good after all, solves it.
 */
#define SOLVE_BATCH	16384 /* lines of a batch: a whole buffer of fields */
#define SOLVE_BATCH_MIN 256   /* fewer are solved one by one */

/* A line of a batch and its answer. */
struct solve_slot {
	const char *s; /* the line, without its newline */
	size_t len;
	int chains; /* its chain count, -1 when it does not read as a good field */
};

/*
 * The helper thread and what it works on. A batch is handed over through
 * `job` while it is still being split (`ready` slots are filled so far,
 * all `njob` of them once `split` is set) and taken in chunks by both
 * threads (`next`), so that neither waits while the other still has lines
 * to solve; the helper hands it back by clearing `job`. The waiting side
 * spins a little before it sleeps on the condition variable, because a
 * batch takes about a millisecond and a sleeping thread takes tens of
 * microseconds to wake. The slots are in two sets: the answers of a batch
 * whose lines all read as good fields wait in theirs (`pending`) until the
 * next batch is handed over, and are written while the helper solves it.
 */
struct solve_pool {
	struct solve_thread thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* a job, or quit */
	pthread_cond_t done; /* the job is done */
	/* the batch slot[0..njob), NULL when none: set by the caller, cleared by the helper */
	_Atomic(struct solve_slot *) job;
	size_t njob;	     /* the slots of the batch, once split is set */
	atomic_size_t ready; /* slot[0..ready) are filled (a multiple of SOLVE_TAKE until split) */
	atomic_bool split;   /* the batch is whole: ready == njob */
	atomic_size_t next;  /* the first slot of the batch no thread has taken yet */
	atomic_bool quit;
	int side;	/* the set of slots of the next batch; the other holds pending */
	size_t pending; /* answers in slot[!side][0..pending) not written yet */
	struct solve_slot slot[2][SOLVE_BATCH];
};

/* Slots a thread takes at a time: some tens of microseconds of work. */
#define SOLVE_TAKE 256

/* Spins of a waiting thread before it sleeps: some tens of microseconds. */
#define SOLVE_SPINS 8192

static inline void solve_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Solves slot[0..n): the chain counts, or -1. */
static void solve_slots(struct solve_slot *slot, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct puyo_planes planes;
		size_t len = slot[i].len;
		if (len > 0 && slot[i].s[len - 1] == '\r')
			len--;
		slot[i].chains = puyo_lines_read(slot[i].s, len, 0, &planes, NULL) == CODEC_OK
				     ? (int)puyo_planes_chains(&planes)
				     : -1;
	}
}

/* Waits until a job is there (returns it) or the pool quits (NULL). */
static struct solve_slot *solve_pool_next(struct solve_pool *p)
{
	struct solve_slot *job;
	for (unsigned i = 0; i < SOLVE_SPINS; i++) {
		if ((job = atomic_load_explicit(&p->job, memory_order_acquire)) ||
		    atomic_load_explicit(&p->quit, memory_order_acquire))
			return job;
		solve_relax();
	}
	pthread_mutex_lock(&p->lock);
	while (!(job = atomic_load(&p->job)) && !atomic_load(&p->quit))
		pthread_cond_wait(&p->wake, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return job;
}

/*
 * The end of the chunk of job's slots from i on, once its slots are
 * filled: i + SOLVE_TAKE, or the end of the batch when that comes first
 * (then i may be past it: nothing is left to take).
 */
static size_t solve_pool_filled(struct solve_pool *p, size_t i)
{
	size_t want = i + SOLVE_TAKE;
	for (;;) {
		/* ready is read after split: once split is set, ready is final */
		bool split = atomic_load_explicit(&p->split, memory_order_acquire);
		size_t ready = atomic_load_explicit(&p->ready, memory_order_acquire);
		if (ready >= want)
			return want;
		if (split)
			return ready;
		solve_relax();
	}
}

/* Solves chunks of job's slots until none is left to take. */
static void solve_pool_take(struct solve_pool *p, struct solve_slot *job)
{
	for (;;) {
		size_t i = atomic_fetch_add_explicit(&p->next, SOLVE_TAKE, memory_order_relaxed);
		size_t end = solve_pool_filled(p, i);
		if (i >= end)
			return;
		solve_slots(job + i, end - i);
	}
}

static void *solve_pool_run(void *arg)
{
	struct solve_pool *p = arg;
	struct solve_slot *job;
	while ((job = solve_pool_next(p))) {
		solve_pool_take(p, job);
		pthread_mutex_lock(&p->lock);
		atomic_store_explicit(&p->job, NULL, memory_order_release);
		pthread_cond_signal(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Stops the helper thread, if it was started. */
static void solve_pool_stop(struct solve_pool *p)
{
	if (!p->started)
		return;
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->quit, true);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread.id, NULL);
	p->started = false;
}

/* Hands the batch whose slot[0..n) are filled so far (n a multiple of
 * SOLVE_TAKE) to the helper thread (started on first use); false when
 * there is none, and the caller solves the batch alone. */
static bool solve_pool_post(struct solve_pool *p, size_t n)
{
	if (!p->started) {
		atomic_init(&p->job, NULL);
		atomic_init(&p->ready, 0);
		atomic_init(&p->split, false);
		atomic_init(&p->next, 0);
		atomic_init(&p->quit, false);
		p->started = solve_thread_start(&p->thread, solve_pool_run, p);
	}
	if (!p->started)
		return false;
	/* no thread reads these now: the helper has handed the last batch back */
	atomic_store_explicit(&p->ready, n, memory_order_relaxed);
	atomic_store_explicit(&p->split, false, memory_order_relaxed);
	atomic_store_explicit(&p->next, 0, memory_order_relaxed);
	pthread_mutex_lock(&p->lock);
	atomic_store_explicit(&p->job, p->slot[p->side], memory_order_release);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	return true;
}

/* Slots up to n of the batch handed over are filled (n a multiple of
 * SOLVE_TAKE): the helper may take them. */
static void solve_pool_more(struct solve_pool *p, size_t n)
{
	atomic_store_explicit(&p->ready, n, memory_order_release);
}

/* The batch handed over is whole: slot[0..n). */
static void solve_pool_split(struct solve_pool *p, size_t n)
{
	p->njob = n;
	atomic_store_explicit(&p->ready, n, memory_order_release);
	atomic_store_explicit(&p->split, true, memory_order_release);
}

/* Solves what is left of the whole batch handed over, and waits until the
 * helper has handed it back. */
static void solve_pool_join(struct solve_pool *p)
{
	solve_pool_take(p, p->slot[p->side]);
	for (unsigned i = 0; i < SOLVE_SPINS; i++) {
		if (!atomic_load_explicit(&p->job, memory_order_acquire))
			return;
		solve_relax();
	}
	pthread_mutex_lock(&p->lock);
	while (atomic_load(&p->job))
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

/*
 * The input of --lines, in two buffers: the lines of buf[cur] are being
 * answered, and once they run short the input that follows is read into
 * the other one while the helper thread solves the last batch.
 */
struct solve_in {
	FILE *in;
	char *buf[2];
	int cur;	  /* the buffer being answered */
	size_t held;	  /* bytes in buf[cur] */
	bool ahead;	  /* buf[!cur] holds the input from buf[cur] + end on */
	size_t end;	  /* with ahead: the bytes of buf[cur] still to answer */
	size_t next_held; /* with ahead: the bytes in buf[!cur] */
	bool eof;	  /* a read gave nothing more */
};

/* Most bytes copied to the other buffer ahead of a read: what follows the
 * last batch of a buffer, less than a few hundred lines. */
#define SOLVE_AHEAD_MAX (SOLVE_BATCH_MIN * (SOLVE_LINE_13 + 1))

/* Reads into buf[k] from byte `from` on; the bytes read. */
static size_t solve_in_read(struct solve_in *in, int k, size_t from)
{
	size_t got = fread(in->buf[k] + from, 1, SOLVE_LINES_IN - from, in->in);
	if (got == 0)
		in->eof = true;
	return got;
}

/* The end of the bytes of buf[cur] to answer. */
static size_t solve_in_limit(const struct solve_in *in)
{
	return in->ahead ? in->end : in->held;
}

/*
 * Called while the helper solves a batch that ends at byte `from` of
 * buf[cur]: when little input follows it there, copies that to the other
 * buffer and reads on after it, so that the read is done meanwhile.
 */
static void solve_in_ahead(struct solve_in *in, size_t from)
{
	if (in->ahead || in->eof || in->held - from > SOLVE_AHEAD_MAX)
		return;
	int k = !in->cur;
	size_t r = in->held - from;
	memcpy(in->buf[k], in->buf[in->cur] + from, r);
	in->next_held = r + solve_in_read(in, k, r);
	in->end = from;
	in->ahead = true;
}

/* Appends the answers of slot[0..n); 0, or 1 with a message. */
static int solve_slots_answer(struct solve_out *o, const struct solve_slot *slot, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (solve_chains_answer(o, (unsigned)slot[i].chains) != 0)
			return 1;
	return 0;
}

/* Appends the answers of the last batch that wait; 0, or 1 with a message. */
static int solve_pending_answer(struct solve_pool *p, struct solve_out *o)
{
	size_t n = p->pending;
	p->pending = 0;
	return solve_slots_answer(o, p->slot[!p->side], n);
}

/*
 * Answers a batch of the whole lines of buf[cur] from byte `at` on, after
 * the answers of the batch before that wait (struct solve_pool): when each
 * of its lines reads as a good field, its answers wait in turn; otherwise
 * they are written up to the first line that does not. Returns the bytes
 * of the lines answered (0 when the lines are too few for a batch, or the
 * first does not read); *line counts them. Returns (size_t)-1 when writing
 * failed (a message was written). The answers that wait are written by the
 * next batch, or by solve_pending_answer() before any other answer.
 */
static size_t solve_lines_batch(struct solve_pool *p, struct solve_out *o, struct solve_in *in,
				size_t at, unsigned *line)
{
	const char *s = in->buf[in->cur] + at;
	size_t left = solve_in_limit(in) - at;
	struct solve_slot *slot = p->slot[p->side];
	size_t n = 0, took = 0;
	bool posted = false; /* the helper solves the batch while it is split */
	while (n < SOLVE_BATCH) {
		if (n % SOLVE_TAKE == 0 && n >= SOLVE_BATCH_MIN) {
			if (posted)
				solve_pool_more(p, n);
			else if (n == SOLVE_BATCH_MIN)
				posted = solve_pool_post(p, n);
		}
		size_t len;
		if (left - took > SOLVE_LINE_12 && s[took + SOLVE_LINE_12] == '\n') {
			len = SOLVE_LINE_12;
		} else if (left - took > SOLVE_LINE_13 && s[took + SOLVE_LINE_13] == '\n') {
			len = SOLVE_LINE_13;
		} else {
			const char *nl = memchr(s + took, '\n', left - took);
			if (!nl)
				break;
			len = (size_t)(nl - (s + took));
		}
		slot[n++] = (struct solve_slot){.s = s + took, .len = len};
		took += len + 1;
	}
	if (n < SOLVE_BATCH_MIN)
		return 0; /* not posted: that takes SOLVE_BATCH_MIN lines */
	if (!posted && n == SOLVE_BATCH_MIN)
		posted = solve_pool_post(p, n); /* the loop ended before it could */
	if (posted)
		solve_pool_split(p, n);
	/* the answers before go out while the helper solves, if there is one */
	int failed = solve_pending_answer(p, o);
	if (posted) {
		solve_in_ahead(in, at + took);
		solve_pool_join(p);
	} else {
		solve_slots(slot, n);
	}
	if (failed)
		return (size_t)-1;
	size_t good = 0, used = 0;
	while (good < n && slot[good].chains >= 0)
		used += slot[good++].len + 1;
	*line = UINT_MAX - *line < good ? UINT_MAX : *line + (unsigned)good;
	if (good == n) {
		p->pending = n;
		p->side = !p->side;
	} else if (solve_slots_answer(o, slot, good) != 0) {
		return (size_t)-1;
	}
	return used;
}

int solve_puyo_lines(FILE *in, const char *name, FILE *out, FILE *errout)
{
	struct solve_out *o = dj_malloc(sizeof *o);
	struct solve_in input = {.in = in,
				 .buf = {dj_malloc(SOLVE_LINES_IN), dj_malloc(SOLVE_LINES_IN)}};
	struct solve_pool *pool = dj_malloc(sizeof *pool);
	size_t at = 0; /* the first byte of buf[cur] not answered yet */
	unsigned line = 1;
	int ret = 1;

	if (pool) {
		pool->started = false;
		pool->side = 0;
		pool->pending = 0;
		pthread_mutex_init(&pool->lock, NULL);
		pthread_cond_init(&pool->wake, NULL);
		pthread_cond_init(&pool->done, NULL);
	}
	if (!o || !input.buf[0] || !input.buf[1] || !pool) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_buf;
	}
	o->out = out;
	o->errout = errout;
	o->len = 0;
	for (;;) {
		size_t limit = solve_in_limit(&input);
		if (input.ahead && at == limit) {
			/* The other buffer holds what follows: answer on in it. */
			input.cur = !input.cur;
			input.held = input.next_held;
			input.ahead = false;
			at = 0;
			continue;
		}
		size_t batch = solve_lines_batch(pool, o, &input, at, &line);
		if (batch == (size_t)-1)
			goto out_buf;
		at += batch;
		if (batch)
			continue;
		if (solve_pending_answer(pool, o) != 0)
			goto out_buf;
		char *buf = input.buf[input.cur];
		struct puyo_planes planes;
		size_t known = solve_line_known(buf + at, limit - at, line, &planes);
		if (known) {
			if (solve_line_answer(o, &planes) != 0)
				goto out_buf;
			line += line < UINT_MAX;
			at += known + 1;
			continue;
		}
		const char *nl = memchr(buf + at, '\n', limit - at);
		if (nl) {
			size_t len = (size_t)(nl - (buf + at));
			if (solve_line(o, name, buf + at, len, line) != 0)
				goto out_buf;
			line += line < UINT_MAX;
			at += len + 1;
			continue;
		}
		/*
		 * No whole line is left (the bytes before a buffer read ahead
		 * are whole lines: this is buf[cur] alone): the part of a line
		 * goes to the front, and more input after it.
		 */
		if (input.eof)
			break;
		memmove(buf, buf + at, input.held - at);
		input.held -= at;
		at = 0;
		if (input.held == SOLVE_LINES_IN) {
			solve_out_flush(o);
			fprintf(errout, "dropjudge: %s:%u: line longer than %zu bytes\n", name,
				line, SOLVE_LINES_IN);
			goto out_buf;
		}
		input.held += solve_in_read(&input, input.cur, input.held);
	}
	if (ferror(in)) {
		solve_out_flush(o);
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_buf;
	}
	/* A last line without its newline. */
	if (input.held > at &&
	    solve_line(o, name, input.buf[input.cur] + at, input.held - at, line) != 0)
		goto out_buf;
	ret = solve_out_flush(o);
out_buf:
	if (pool) {
		solve_pool_stop(pool);
		pthread_mutex_destroy(&pool->lock);
		pthread_cond_destroy(&pool->wake);
		pthread_cond_destroy(&pool->done);
	}
	dj_free(pool);
	dj_free(input.buf[0]);
	dj_free(input.buf[1]);
	dj_free(o);
	return ret;
}

int solve_main(int argc, char *const argv[], FILE *out, FILE *errout)
{
	int (*solve)(FILE *, const char *, FILE *, FILE *);

	if (argc < 1) {
		fprintf(errout, "dropjudge: solve: missing PROBLEM (monomino-domino or puyo); "
				"try 'dropjudge --help'\n");
		return 2;
	}
	if (strcmp(argv[0], "monomino-domino") == 0) {
		solve = solve_monomino_domino;
	} else if (strcmp(argv[0], "puyo") == 0) {
		solve = solve_puyo;
		if (argc > 1 && strcmp(argv[1], "--lines") == 0) {
			solve = solve_puyo_lines;
			argc--;
			argv++;
		}
	} else {
		fprintf(errout,
			"dropjudge: solve: unknown problem '%s' (expected monomino-domino or "
			"puyo); try 'dropjudge --help'\n",
			argv[0]);
		return 2;
	}
	if (argc > 2) {
		fprintf(errout,
			"dropjudge: solve: unexpected argument '%s'; try 'dropjudge --help'\n",
			argv[2]);
		return 2;
	}
	const char *path = argc == 2 ? argv[1] : "-";
	if (path[0] == '-' && path[1] != '\0') {
		fprintf(errout, "dropjudge: solve: unknown flag '%s'; try 'dropjudge --help'\n",
			path);
		return 2;
	}
	if (strcmp(path, "-") == 0)
		return solve(stdin, "<stdin>", out, errout);
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(errout, "dropjudge: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int ret = solve(in, path, out, errout);
	fclose(in);
	return ret;
}
