/*
 * Gravity of the Puyo chain loop with BMI2 (see puyo_bmi2.h): per half of
 * the field (columns 0-3, columns 4-5), pext packs the kept cells of each
 * plane and pdep lays them, in order, on the floor of each column. Chosen
 * at run time, and compiled to the portable answer only in a SIMD=0 build.
 */
#include "puyo_bmi2.h"

#if DROPJUDGE_SIMD && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/*
 * The floor of each column for `keep`: its lowest popcount(column) cells of
 * 13, every column at once in SSSE3 (every processor with BMI2 has it). A
 * nibble table counts the kept cells of each byte, the two bytes of a lane
 * are added, and the count looks up both bytes of the lane's mask.
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

__attribute__((target("bmi2,popcnt,ssse3,sse4.1"))) void puyo_bmi2_gravity(struct planes *p,
									   plane_t keep)
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

/* Whether pext and pdep are fast: AMD before Zen 3 (family 0x19) runs them as slow microcode. */
static bool pext_is_fast(void)
{
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
}

static bool processor_has_it(void)
{
	return CPU_HAS(BMI2, "bmi2") && CPU_HAS(POPCNT, "popcnt") && CPU_HAS(SSSE3, "ssse3") &&
	       CPU_HAS(SSE4_1, "sse4.1") && pext_is_fast();
}

struct cpu_switch puyo_bmi2 = {-1, processor_has_it};
#else
void puyo_bmi2_gravity(struct planes *p, plane_t keep)
{
	(void)p;
	(void)keep;
}

struct cpu_switch puyo_bmi2 = {0, NULL}; /* off, whatever the processor has */
#endif
