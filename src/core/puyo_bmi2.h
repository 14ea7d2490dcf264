/*
 * The Puyo chain loop's bit planes, and its gravity with BMI2's pext and
 * pdep (private to the core), which puyo.c takes in place of its portable
 * gravity where the processor runs them fast: the two leave the same planes.
 */
#ifndef DROPJUDGE_CORE_PUYO_BMI2_H
#define DROPJUDGE_CORE_PUYO_BMI2_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

/*
 * A plane: a column per 16-bit lane (lanes 6 and 7 stay empty), bit h of
 * a lane the cell at row h counted from the top of a 13-row field, three
 * guard bits above it (GCC and Clang vector extensions).
 */
typedef uint16_t plane_t __attribute__((vector_size(16)));

/* A field as planes: bit k of each cell value (enum puyo_cell) in bit[k]. */
struct planes {
	plane_t bit[3];
};

/* The cells of a lane: h = 0..12. */
#define LANE_CELLS 0x1FFFu

/*
 * Whether the chain loop takes puyo_bmi2_gravity() (cpu_switch_on()): the
 * processor has BMI2 (and POPCNT, SSSE3, SSE4.1) and runs pext and pdep
 * fast, the build is not SIMD=0, and the tests have not turned it off
 * (cpu_switch_set(), not while other threads run the core).
 */
extern struct cpu_switch puyo_bmi2;

/* Lets the kept cells (`keep`) of every column of p fall to its floor, in
 * order, and clears the rest. Only when puyo_bmi2 is on. */
void puyo_bmi2_gravity(struct planes *p, plane_t keep);

#endif
