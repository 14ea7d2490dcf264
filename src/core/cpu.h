/*
 * What the processor runs, for the cores' choice of a path at run time.
 * CPU_HAS(GLIBC_NAME, "gcc-name") asks glibc (2.33 and later) where it can,
 * which answers from what its loader already read; __builtin_cpu_supports()
 * otherwise, which runs cpuid at every start of the program.
 */
#ifndef DROPJUDGE_CORE_CPU_H
#define DROPJUDGE_CORE_CPU_H

#include <stdbool.h>
#include <stddef.h>

/* 0 in a SIMD=0 build: the kernels are left out, the portable code runs whatever the CPU has. */
#ifndef DROPJUDGE_SIMD
#define DROPJUDGE_SIMD 1
#endif

/* The run-time switch of one kernel: `has` asks on first use whether the processor runs it
 * (NULL, state 0, in a build without it); state -1 not asked yet, 0 off, 1 on (a race only
 * writes the same value twice). */
struct cpu_switch {
	int state;
	bool (*has)(void);
};

static inline bool cpu_switch_on(struct cpu_switch *s)
{
	int on = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
	if (on < 0) {
		on = s->has();
		__atomic_store_n(&s->state, on, __ATOMIC_RELAXED);
	}
	return on;
}

static inline void cpu_switch_set(struct cpu_switch *s, bool on)
{
	__atomic_store_n(&s->state, on && s->has ? (int)s->has() : 0, __ATOMIC_RELAXED);
}

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>

/* CPU_FEATURE_ACTIVE() of the header, with the bit taken as unsigned (the
 * header's shifts a signed 1 into the sign bit for bit 31). */
static inline bool cpu_active(unsigned index)
{
	const unsigned bits = 8 * sizeof(unsigned);
	const struct cpuid_feature *leaf = __x86_get_cpuid_feature_leaf(index / (bits * 4));
	unsigned reg = (index % (bits * 4)) / bits;
	return (leaf->active_array[reg] >> (index % bits)) & 1u;
}
#define CPU_HAS(glibc, gcc) cpu_active(x86_cpu_##glibc)
#endif
#endif

#if defined(__x86_64__) && !defined(CPU_HAS)
#define CPU_HAS(glibc, gcc) __builtin_cpu_supports(gcc)
#endif

#endif
