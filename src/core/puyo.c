/*
 * The Puyo Puyo chain simulator (Baekjoon 11559) with the Puyo Puyo Tsu
 * extensions: score, garbage puyos and the hidden 13th row.
 *
 * A step looks for groups in the 12 visible rows only, pops every group of
 * four or more at once, removes garbage next to a popped puyo (visible rows
 * only), then lets everything, the hidden row included, fall. Each step
 * removes at least PUYO_POP_SIZE puyos, so a run ends after at most
 * PUYO_MAX_CHAINS steps; the run loop is bounded by that number as well.
 *
 * The chain loop works on bit planes: the field is three 128-bit planes,
 * bit k of each cell's value, with a column per 16 bits (bit 16*c + h, h
 * the row counted from the top of a 13-row field, so h = 12 is the floor)
 * and three empty guard bits per column. Shifting a plane by 1 meets the
 * cell above or below, by 16 the cell beside. A colour has a group of four
 * or more exactly where one of its puyos has three neighbours of its
 * colour or two neighbouring puyos have two each (a grid has no
 * triangles); those puyos seed a fill that grows within the colour to the
 * whole popping groups at once. Gravity squeezes the removed cells out of
 * each column: with BMI2 (chosen at run time) pext packs the kept cells and
 * pdep lays them on the floor, four columns per instruction pair; the
 * portable fallback packs every column at once by shifts (compress). Both are
 * tested against a straightforward reference.
 *
 * Pure: the C library and compiler intrinsics only, no allocation, no
 * global state.
 */
#include "dropjudge/puyo.h"

#include <limits.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#include "cpu.h"
#define PUYO_HAVE_BMI2 1
#else
#define PUYO_HAVE_BMI2 0
#endif

#define PUYO_VISIBLE_CELLS (PUYO_ROWS * PUYO_COLS)
/* Groups that can pop in one step: 72 / 4. */
#define PUYO_MAX_GROUPS (PUYO_VISIBLE_CELLS / PUYO_POP_SIZE)
/* Steps a run can have: every step removes at least 4 of at most 78 puyos. */
#define PUYO_MAX_CHAINS ((PUYO_ROWS_MAX * PUYO_COLS) / PUYO_POP_SIZE)
#define PUYO_BONUS_MAX	999

static const char puyo_chars[] = ".RGBPYO";

/* Chain power by chain number 1..19; later chains use the last entry. */
static const unsigned short puyo_chain_power[] = {
    0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512,
};

/* Colour bonus by distinct colours popped 0..5 (0 never happens in a step). */
static const unsigned char puyo_color_bonus[] = {0, 0, 3, 6, 12, 24};

/* The rows a field really has: 13 only when it says so, else 12. */
static unsigned field_rows(const struct puyo_field *field)
{
	return field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
}

void puyo_field_init(struct puyo_field *field, unsigned rows)
{
	memset(field, 0, sizeof *field);
	field->rows = rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
}

int puyo_cell_from_char(char c)
{
	switch (c) {
	case '.':
		return PUYO_EMPTY;
	case 'R':
		return PUYO_RED;
	case 'G':
		return PUYO_GREEN;
	case 'B':
		return PUYO_BLUE;
	case 'P':
		return PUYO_PURPLE;
	case 'Y':
		return PUYO_YELLOW;
	case 'O':
		return PUYO_GARBAGE;
	default:
		return -1;
	}
}

char puyo_cell_to_char(uint8_t cell)
{
	return cell <= PUYO_GARBAGE ? puyo_chars[cell] : '?';
}

bool puyo_field_is_floating(const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		bool gap = false; /* an empty cell seen below the current row */
		for (unsigned r = rows; r-- > 0;) {
			if (field->cell[r][c] == PUYO_EMPTY)
				gap = true;
			else if (gap)
				return true;
		}
	}
	return false;
}

void puyo_settle(struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned dst = rows; /* one below the next free cell, from the floor up */
		for (unsigned r = rows; r-- > 0;) {
			uint8_t v = field->cell[r][c];
			if (v == PUYO_EMPTY)
				continue;
			field->cell[r][c] = PUYO_EMPTY;
			field->cell[--dst][c] = v;
		}
	}
}

/* ---- bit planes -------------------------------------------------------- */

/*
 * A plane: a column per 16-bit lane (lanes 6 and 7 stay empty). Vector
 * extensions of GCC and Clang: one SSE2 instruction per operation on
 * x86-64, plain C code elsewhere.
 */
typedef uint16_t plane_t __attribute__((vector_size(16)));

#define LANE_CELLS 0x1FFFu /* h = 0..12 */
#define LANE_SEEN  0x1FFEu /* h = 1..12, the visible rows */

static const plane_t plane_seen = {LANE_SEEN, LANE_SEEN, LANE_SEEN, LANE_SEEN,
				   LANE_SEEN, LANE_SEEN, 0,	    0};

/* A field as planes: bit k of each cell value (enum puyo_cell) in bit[k]. */
struct planes {
	plane_t bit[3];
};

/* The two 64-bit halves of a plane: columns 0-3 and columns 4-5. */
static inline uint64_t half(plane_t x, unsigned i)
{
	uint64_t h[2];
	memcpy(h, &x, sizeof h);
	return h[i];
}

static inline plane_t from_halves(uint64_t lo, uint64_t hi)
{
	uint64_t h[2] = {lo, hi};
	plane_t x;
	memcpy(&x, h, sizeof x);
	return x;
}

static inline bool plane_any(plane_t x)
{
	return (half(x, 0) | half(x, 1)) != 0;
}

static inline unsigned count_cells(plane_t x)
{
	return (unsigned)__builtin_popcountll(half(x, 0)) +
	       (unsigned)__builtin_popcountll(half(x, 1));
}

/* Each column moved to the next (column c to c + 1) or the previous one. */
static inline plane_t to_right(plane_t x)
{
	const plane_t zero = {0};
	return __builtin_shufflevector(x, zero, 8, 0, 1, 2, 3, 4, 5, 6);
}

static inline plane_t to_left(plane_t x)
{
	const plane_t zero = {0};
	return __builtin_shufflevector(x, zero, 1, 2, 3, 4, 5, 6, 7, 8);
}

/* The cells of the four neighbours of x (not x itself). */
static inline plane_t neighbours(plane_t x)
{
	return (x << 1) | (x >> 1) | to_right(x) | to_left(x);
}

/* Grows `seed` within `within` to all the cells connected to it. */
static inline plane_t grow(plane_t seed, plane_t within)
{
	plane_t g = seed;
	for (unsigned i = 0; i < PUYO_ROWS_MAX * PUYO_COLS; i++) {
		plane_t n = (g | neighbours(g)) & within;
		if (!plane_any(n ^ g))
			break;
		g = n;
	}
	return g;
}

/*
 * Which colour puyos of the visible rows have a neighbour of their own
 * colour above, below, on the left, on the right. Computed once for all
 * colours: two cells have the same colour when all three bit planes agree,
 * and "the cell below has the same colour as its upper neighbour" is the
 * same fact seen from the other cell, so two directions give all four.
 */
struct same {
	plane_t up, down, left, right;
};

static inline void same_colour(const struct planes *p, plane_t colour, struct same *s)
{
	const plane_t *b = p->bit;
	plane_t diff_up = ((b[0] << 1) ^ b[0]) | ((b[1] << 1) ^ b[1]) | ((b[2] << 1) ^ b[2]);
	plane_t diff_left =
	    (to_right(b[0]) ^ b[0]) | (to_right(b[1]) ^ b[1]) | (to_right(b[2]) ^ b[2]);
	s->up = colour & (colour << 1) & ~diff_up;
	s->down = s->up >> 1;
	s->left = colour & to_right(colour) & ~diff_left;
	s->right = to_left(s->left);
}

/* The cells joined to g through same-colour neighbours. */
static inline plane_t same_spread(const struct same *s, plane_t g)
{
	return (s->up & (g << 1)) | (s->down & (g >> 1)) | (s->left & to_right(g)) |
	       (s->right & to_left(g));
}

/*
 * The colour puyos that belong to a group of four or more, all colours at
 * once: seeds are the puyos with three neighbours of their colour and
 * same-colour neighbouring pairs with two each; the fill grows them,
 * through same-colour neighbours only, to their whole groups.
 */
static inline plane_t popping(const struct same *s)
{
	plane_t ud = s->up & s->down, lr = s->left & s->right;
	plane_t v = s->up | s->down, h = s->left | s->right;
	plane_t two = ud | lr | (v & h);
	plane_t three = (ud & h) | (lr & v);
	plane_t g = three | (two & same_spread(s, two));
	if (!plane_any(g))
		return g;
	for (unsigned i = 0; i < PUYO_ROWS_MAX * PUYO_COLS; i++) {
		plane_t n = g | same_spread(s, g);
		if (!plane_any(n ^ g))
			break;
		g = n;
	}
	return g;
}

/* The one-cell plane of the lowest cell of a nonempty plane. */
static inline plane_t lowest_cell(plane_t x)
{
	uint64_t lo = half(x, 0), hi = half(x, 1);
	return lo ? from_halves(lo & (~lo + 1), 0) : from_halves(0, hi & (~hi + 1));
}

static void planes_from_field(struct planes *p, const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	plane_t b0 = {0}, b1 = {0}, b2 = {0};
	/* a row at a time: its six cells are the six lanes' bit h */
	for (unsigned r = 0; r < rows; r++) {
		const uint8_t *row = field->cell[r];
		plane_t v = {row[0], row[1], row[2], row[3], row[4], row[5], 0, 0};
		unsigned h = h0 + r;
		b0 |= (v & 1) << h;
		b1 |= ((v >> 1) & 1) << h;
		b2 |= ((v >> 2) & 1) << h;
	}
	p->bit[0] = b0;
	p->bit[1] = b1;
	p->bit[2] = b2;
}

static void planes_to_field(const struct planes *p, struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	for (unsigned r = 0; r < rows; r++) {
		unsigned h = h0 + r;
		plane_t v = ((p->bit[0] >> h) & 1) | ((p->bit[1] >> h) & 1) << 1 |
			    ((p->bit[2] >> h) & 1) << 2;
		for (unsigned c = 0; c < PUYO_COLS; c++)
			field->cell[r][c] = (uint8_t)v[c];
	}
}

static inline plane_t planes_occupied(const struct planes *p)
{
	return p->bit[0] | p->bit[1] | p->bit[2];
}

/*
 * Gravity, portable: keeps the cells `keep` and lets them fall, column by
 * column, closing each hole under the topmost kept cell from the top down
 * (closing a hole moves only the cells above it, so the holes below stay
 * where they are).
 */
static void gravity_portable(struct planes *p, plane_t keep)
{
	/*
	 * Every lane at once (Hacker's Delight's compress, toward the high
	 * end): in round i the kept cells with an odd count of holes above
	 * them, counted in units of 2^i, move 2^i down. Four rounds pack each
	 * lane's kept cells against bit 15; the guard bits above the floor
	 * are holes too, so a shift by three lays them on the floor (h = 12).
	 */
	plane_t m = keep;
	plane_t x0 = p->bit[0] & m, x1 = p->bit[1] & m, x2 = p->bit[2] & m;
	plane_t holes_above = ~m >> 1;
#pragma GCC unroll 4
	for (unsigned i = 0; i < 4; i++) {
		plane_t odd = holes_above ^ (holes_above >> 1);
		odd ^= odd >> 2;
		odd ^= odd >> 4;
		odd ^= odd >> 8;
		plane_t move = odd & m;
		unsigned by = 1u << i;
		m = (m ^ move) | (move << by);
		plane_t t0 = x0 & move, t1 = x1 & move, t2 = x2 & move;
		x0 = (x0 ^ t0) | (t0 << by);
		x1 = (x1 ^ t1) | (t1 << by);
		x2 = (x2 ^ t2) | (t2 << by);
		holes_above &= ~odd;
	}
	const unsigned guard = 16 - PUYO_ROWS_MAX;
	p->bit[0] = x0 >> guard;
	p->bit[1] = x1 >> guard;
	p->bit[2] = x2 >> guard;
}

#if PUYO_HAVE_BMI2
/*
 * The floor of each column for `keep`: its lowest popcount(column) cells of
 * 13, every column at once in SSSE3 (every processor with BMI2 has it). A
 * nibble table counts the kept cells of each byte, the two bytes of a lane
 * are added, and the count looks up both bytes of the lane's mask. No value
 * goes through memory: storing halves to read them back as one vector costs
 * a stalled load on every step.
 */
#define FLOOR_MASK(n) ((((1u << (n)) - 1u) << (PUYO_ROWS_MAX - (n))) & LANE_CELLS)
#define FLOOR_LO(n)   ((char)(FLOOR_MASK(n) & 0xFFu))
#define FLOOR_HI(n)   ((char)(FLOOR_MASK(n) >> 8))
__attribute__((target("bmi2,popcnt,ssse3"))) static inline __m128i floor_of(__m128i keep)
{
	const __m128i nibble_count = _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
	const __m128i low4 = _mm_set1_epi8(0x0F);
	const __m128i lo_of =
	    _mm_setr_epi8(FLOOR_LO(0), FLOOR_LO(1), FLOOR_LO(2), FLOOR_LO(3), FLOOR_LO(4),
			  FLOOR_LO(5), FLOOR_LO(6), FLOOR_LO(7), FLOOR_LO(8), FLOOR_LO(9),
			  FLOOR_LO(10), FLOOR_LO(11), FLOOR_LO(12), FLOOR_LO(13), 0, 0);
	const __m128i hi_of =
	    _mm_setr_epi8(FLOOR_HI(0), FLOOR_HI(1), FLOOR_HI(2), FLOOR_HI(3), FLOOR_HI(4),
			  FLOOR_HI(5), FLOOR_HI(6), FLOOR_HI(7), FLOOR_HI(8), FLOOR_HI(9),
			  FLOOR_HI(10), FLOOR_HI(11), FLOOR_HI(12), FLOOR_HI(13), 0, 0);
	__m128i bytes = _mm_add_epi8(
	    _mm_shuffle_epi8(nibble_count, _mm_and_si128(keep, low4)),
	    _mm_shuffle_epi8(nibble_count, _mm_and_si128(_mm_srli_epi16(keep, 4), low4)));
	/* the lane's count in both its bytes (at most 13: no carry) */
	__m128i n =
	    _mm_add_epi8(bytes, _mm_or_si128(_mm_slli_epi16(bytes, 8), _mm_srli_epi16(bytes, 8)));
	const __m128i low_bytes = _mm_set1_epi16(0x00FF);
	return _mm_or_si128(_mm_and_si128(_mm_shuffle_epi8(lo_of, n), low_bytes),
			    _mm_andnot_si128(low_bytes, _mm_shuffle_epi8(hi_of, n)));
}

/*
 * Gravity with BMI2: per half (columns 0-3, columns 4-5), pext packs the
 * kept cells of every plane and pdep lays them, in order, on the floor of
 * each column (floor_of()).
 */
__attribute__((target("bmi2,popcnt,ssse3,sse4.1"))) static inline void
gravity_bmi2(struct planes *p, plane_t keep)
{
	__m128i k = (__m128i)keep, f = floor_of(k);
	uint64_t keep_lo = (uint64_t)_mm_cvtsi128_si64(k),
		 keep_hi = (uint64_t)_mm_extract_epi64(k, 1);
	uint64_t floor_lo = (uint64_t)_mm_cvtsi128_si64(f),
		 floor_hi = (uint64_t)_mm_extract_epi64(f, 1);
	for (unsigned b = 0; b < 3; b++) {
		__m128i x = (__m128i)p->bit[b];
		uint64_t lo =
		    _pdep_u64(_pext_u64((uint64_t)_mm_cvtsi128_si64(x), keep_lo), floor_lo);
		uint64_t hi =
		    _pdep_u64(_pext_u64((uint64_t)_mm_extract_epi64(x, 1), keep_hi), floor_hi);
		p->bit[b] =
		    (plane_t)_mm_insert_epi64(_mm_cvtsi64_si128((long long)lo), (long long)hi, 1);
	}
}
#endif

/* Cell values as a plane, from the three bit planes. */
#define PLANE_OF(p, v)                                                                             \
	((((v)&1) ? (p)->bit[0] : ~(p)->bit[0]) & (((v)&2) ? (p)->bit[1] : ~(p)->bit[1]) &         \
	 (((v)&4) ? (p)->bit[2] : ~(p)->bit[2]))

/*
 * One chain step on settled planes, as puyo_step() says; step NULL only
 * counts (no colours, groups or score). Always inlined into the portable
 * and the BMI2 chain loops below, so that each is compiled for its
 * instruction set.
 */
static inline __attribute__((always_inline)) bool planes_step(struct planes *p, unsigned chain,
							      struct puyo_step *step, bool bmi2)
{
	const plane_t *b = p->bit;
	plane_t occupied = planes_occupied(p);
	/* values 6 (garbage) and 7 (none) have bits 1 and 2 set */
	plane_t colour = occupied & ~(b[1] & b[2]) & plane_seen;
	struct same same;

	same_colour(p, colour, &same);
	plane_t pop = popping(&same);
	if (!plane_any(pop))
		return false;

	plane_t garbage = b[1] & b[2] & ~b[0] & plane_seen & neighbours(pop);
	if (step) {
		unsigned sizes[PUYO_MAX_GROUPS];
		unsigned groups = 0, colors = 0;
		for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++) {
			plane_t g = pop & PLANE_OF(p, v);
			if (!plane_any(g))
				continue;
			unsigned n = count_cells(g);
			colors++;
			if (n < 2 * PUYO_POP_SIZE) { /* one group: two would have 8 or more */
				sizes[groups++] = n;
				continue;
			}
			while (plane_any(g) && groups < PUYO_MAX_GROUPS) {
				plane_t one = grow(lowest_cell(g), g);
				sizes[groups++] = count_cells(one);
				g &= ~one;
			}
		}
		unsigned popped = count_cells(pop);
		step->chain = chain;
		step->popped = popped;
		step->garbage = count_cells(garbage);
		step->groups = groups;
		step->colors = colors;
		step->score = puyo_step_score(chain, popped, colors, sizes, groups);
	}

	plane_t keep = occupied & ~(pop | garbage);
#if PUYO_HAVE_BMI2
	if (bmi2)
		gravity_bmi2(p, keep);
	else
		gravity_portable(p, keep);
#else
	(void)bmi2;
	gravity_portable(p, keep);
#endif
	return true;
}

/* Settles the planes (BMI2 or not). */
static inline __attribute__((always_inline)) void planes_settle(struct planes *p, bool bmi2)
{
#if PUYO_HAVE_BMI2
	if (bmi2)
		gravity_bmi2(p, planes_occupied(p));
	else
		gravity_portable(p, planes_occupied(p));
#else
	(void)bmi2;
	gravity_portable(p, planes_occupied(p));
#endif
}

/* Settles the planes, then counts the steps that pop. */
static inline __attribute__((always_inline)) unsigned planes_chains(struct planes *p, bool bmi2)
{
	unsigned chains = 0;
	planes_settle(p, bmi2);
	while (chains < PUYO_MAX_CHAINS && planes_step(p, chains + 1, NULL, bmi2))
		chains++;
	return chains;
}

/* Settles the planes, then steps until nothing pops; fills *res. */
static inline __attribute__((always_inline)) void planes_run(struct planes *p,
							     struct puyo_result *res, bool bmi2)
{
	struct puyo_step step;
	res->chains = 0;
	res->score = 0;
	planes_settle(p, bmi2);
	for (unsigned chain = 1; chain <= PUYO_MAX_CHAINS; chain++) {
		if (!planes_step(p, chain, &step, bmi2))
			break;
		res->chains = chain;
		res->score += step.score;
	}
	res->all_clear = res->chains > 0 && !plane_any(planes_occupied(p));
}

static bool step_portable(struct planes *p, unsigned chain, struct puyo_step *step)
{
	return planes_step(p, chain, step, false);
}

static void run_portable(struct planes *p, struct puyo_result *res)
{
	planes_run(p, res, false);
}

static unsigned chains_portable(struct planes *p)
{
	return planes_chains(p, false);
}

#if PUYO_HAVE_BMI2
__attribute__((target("bmi2,popcnt,ssse3,sse4.1"))) static bool
step_bmi2(struct planes *p, unsigned chain, struct puyo_step *step)
{
	return planes_step(p, chain, step, true);
}

__attribute__((target("bmi2,popcnt,ssse3,sse4.1"))) static void run_bmi2(struct planes *p,
									 struct puyo_result *res)
{
	planes_run(p, res, true);
}

__attribute__((target("bmi2,popcnt,ssse3,sse4.1"))) static unsigned chains_bmi2(struct planes *p)
{
	return planes_chains(p, true);
}
#endif

/* Whether to take the BMI2 path for `impl`. */
static bool use_bmi2(enum puyo_impl impl)
{
	if (impl == PUYO_IMPL_AUTO)
		impl = puyo_impl_auto();
	return impl == PUYO_IMPL_BMI2 || impl == PUYO_IMPL_AVX512;
}

/*
 * Whether pext and pdep are single instructions. AMD's processors before
 * Zen 3 (family 0x19) run them as microcode, one to three hundred cycles
 * each by the popcount of the mask: there the portable gravity is faster.
 */
static bool pext_is_fast(void)
{
#if PUYO_HAVE_BMI2
	unsigned a, b, c, d;
	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	/* "AuthenticAMD", as ebx, edx, ecx */
	if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u)
		return true;
	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	unsigned family = (a >> 8) & 0xF;
	if (family == 0xF)
		family += (a >> 20) & 0xFF;
	return family >= 0x19;
#else
	return false;
#endif
}

enum puyo_impl puyo_impl_auto(void)
{
	static int chosen = -1; /* a race only writes the same value twice */
	int impl = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
	if (impl < 0) {
		impl = !DROPJUDGE_SIMD || !puyo_impl_supported(PUYO_IMPL_BMI2) || !pext_is_fast()
			   ? PUYO_IMPL_PORTABLE
		       : puyo_impl_supported(PUYO_IMPL_AVX512) ? PUYO_IMPL_AVX512
							       : PUYO_IMPL_BMI2;
		__atomic_store_n(&chosen, impl, __ATOMIC_RELAXED);
	}
	return (enum puyo_impl)impl;
}

bool puyo_impl_supported(enum puyo_impl impl)
{
	if (impl != PUYO_IMPL_BMI2 && impl != PUYO_IMPL_AVX512)
		return impl == PUYO_IMPL_AUTO || impl == PUYO_IMPL_PORTABLE;
#if PUYO_HAVE_BMI2
	bool bmi2 = CPU_HAS(BMI2, "bmi2") && CPU_HAS(POPCNT, "popcnt") && CPU_HAS(SSSE3, "ssse3") &&
		    CPU_HAS(SSE4_1, "sse4.1");
	if (impl == PUYO_IMPL_AVX512)
		return bmi2 && CPU_HAS(AVX512F, "avx512f") && CPU_HAS(AVX512BW, "avx512bw") &&
		       CPU_HAS(AVX512_VBMI, "avx512vbmi");
	return bmi2;
#else
	return false;
#endif
}

bool puyo_step_impl(struct puyo_field *field, unsigned chain, struct puyo_step *step,
		    enum puyo_impl impl)
{
	struct planes p;
	bool popped;
	planes_from_field(&p, field);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		popped = step_bmi2(&p, chain, step);
	else
		popped = step_portable(&p, chain, step);
#else
	(void)impl;
	popped = step_portable(&p, chain, step);
#endif
	if (popped)
		planes_to_field(&p, field);
	return popped;
}

void puyo_run_impl(struct puyo_field *field, struct puyo_result *result, enum puyo_impl impl)
{
	struct planes p;
	struct puyo_result res;
	planes_from_field(&p, field);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		run_bmi2(&p, &res);
	else
		run_portable(&p, &res);
#else
	(void)impl;
	run_portable(&p, &res);
#endif
	planes_to_field(&p, field);
	if (result)
		*result = res;
}

unsigned puyo_planes_chains_impl(const struct puyo_planes *planes, enum puyo_impl impl)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		return chains_bmi2(&p);
#else
	(void)impl;
#endif
	return chains_portable(&p);
}

unsigned puyo_planes_chains(const struct puyo_planes *planes)
{
	return puyo_planes_chains_impl(planes, PUYO_IMPL_AUTO);
}

void puyo_planes_from_field(struct puyo_planes *planes, const struct puyo_field *field)
{
	struct planes p;
	planes_from_field(&p, field);
	memcpy(planes->word, p.bit, sizeof planes->word);
}

void puyo_planes_run_impl(struct puyo_planes *planes, struct puyo_result *result,
			  enum puyo_impl impl)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		run_bmi2(&p, result);
	else
		run_portable(&p, result);
#else
	(void)impl;
	run_portable(&p, result);
#endif
	memcpy(planes->word, p.bit, sizeof planes->word);
}

void puyo_planes_run(struct puyo_planes *planes, struct puyo_result *result)
{
	puyo_planes_run_impl(planes, result, PUYO_IMPL_AUTO);
}

void puyo_planes_to_field(const struct puyo_planes *planes, unsigned rows, struct puyo_field *field)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
	puyo_field_init(field, rows);
	planes_to_field(&p, field);
}

bool puyo_step(struct puyo_field *field, unsigned chain, struct puyo_step *step)
{
	return puyo_step_impl(field, chain, step, PUYO_IMPL_AUTO);
}

void puyo_run(struct puyo_field *field, struct puyo_result *result)
{
	puyo_run_impl(field, result, PUYO_IMPL_AUTO);
}

static bool field_is_empty(const struct puyo_field *field)
{
	for (unsigned r = 0; r < field->rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (field->cell[r][c] != PUYO_EMPTY)
				return false;
	return true;
}

void puyo_run_steps(struct puyo_field *field, struct puyo_result *result, puyo_step_fn *fn,
		    void *ctx)
{
	if (!fn) {
		puyo_run(field, result);
		return;
	}
	struct puyo_result res = {0, 0, false};
	struct puyo_step step;

	puyo_settle(field);
	for (unsigned chain = 1; chain <= PUYO_MAX_CHAINS; chain++) {
		if (!puyo_step(field, chain, &step))
			break;
		res.chains = chain;
		res.score += step.score;
		if (fn && !fn(ctx, &step, field))
			fn = NULL; /* the run goes on; only the telling stops */
	}
	res.all_clear = res.chains > 0 && field_is_empty(field);
	if (result)
		*result = res;
}

/* Group bonus of one popped group. */
static unsigned group_bonus(unsigned size)
{
	if (size <= PUYO_POP_SIZE)
		return 0;
	if (size >= 11)
		return 10;
	return size - 3; /* 5:2, 6:3, ..., 10:7 */
}

unsigned puyo_step_score(unsigned chain, unsigned popped, unsigned colors, const unsigned *sizes,
			 unsigned groups)
{
	const unsigned nchain = sizeof puyo_chain_power / sizeof puyo_chain_power[0];
	const unsigned ncolor = sizeof puyo_color_bonus / sizeof puyo_color_bonus[0];
	unsigned long long bonus;

	if (chain < 1)
		chain = 1;
	bonus = puyo_chain_power[chain > nchain ? nchain - 1 : chain - 1];
	bonus += puyo_color_bonus[colors >= ncolor ? ncolor - 1 : colors];
	for (unsigned i = 0; sizes && i < groups && bonus < PUYO_BONUS_MAX; i++)
		bonus += group_bonus(sizes[i]);
	if (bonus < 1)
		bonus = 1;
	if (bonus > PUYO_BONUS_MAX)
		bonus = PUYO_BONUS_MAX;

	unsigned long long points = 10ull * popped * bonus;
	return points > UINT_MAX ? UINT_MAX : (unsigned)points;
}
