/*
 * The Puyo chain loop's gravity with BMI2's pext and pdep on the bit planes
 * of planes.h (private to the core), which puyo.c takes in place of its
 * portable gravity where the processor runs them fast: the two leave the
 * same planes.
 */
#ifndef DROPJUDGE_CORE_PUYO_BMI2_H
#define DROPJUDGE_CORE_PUYO_BMI2_H

#include "cpu.h"
#include "planes.h"

/* Whether the chain loop takes puyo_bmi2_gravity() (cpu_switch_on()): the processor runs
 * pext and pdep fast (and has POPCNT, SSSE3, SSE4.1), the build is not SIMD=0, and the tests
 * have not turned it off (cpu_switch_set(), not while other threads run the core). */
extern struct cpu_switch puyo_bmi2;

/* Lets the kept cells (`keep`) of every column of p fall to its floor, in
 * order, and clears the rest. Only when puyo_bmi2 is on. */
void puyo_bmi2_gravity(struct planes *p, plane_t keep);

#endif
