/*
 * lockstep's user-space model of KUnit, as a module sees it from outside:
 * the suites its files registered (kunit_test_suite()), by name, as
 * module.h's struct lockstep_kunit_suite. The model itself, what a tree's
 * KUnit file includes, is <kunit/test.h> in include/lockstep/kernel; its
 * runtime is trees/support/kunit.c, built into the module.
 */
#ifndef LOCKSTEP_KUNIT_MODEL_H
#define LOCKSTEP_KUNIT_MODEL_H

#include "module.h"

/* The suite named `name` among those the module's files registered, or
 * NULL where none is (the tree has no such file). */
const struct lockstep_kunit_suite *lockstep_kunit_find(const char *name);

#endif /* LOCKSTEP_KUNIT_MODEL_H */
