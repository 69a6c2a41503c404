/*===- SluiceZeTestDriver.h - Introspection of the test driver ----*- C -*-===//
 *
 * The Level Zero test driver (libsluice_ze_test_driver.so) exports this
 * function besides the DDI tables the loader asks for, so that tests can
 * check what the backend left alive. Tests find it with
 * dlopen(path, RTLD_NOW | RTLD_NOLOAD) + dlsym once the loader loaded the
 * driver.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_ZE_TEST_DRIVER_H
#define SLUICE_ZE_TEST_DRIVER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SluiceZeTestDriverStats {
  /* Objects alive now. */
  uint64_t contexts, command_lists, event_pools, events, modules, kernels,
      build_logs, allocations;
  /* Objects made since the driver was loaded. */
  uint64_t event_pools_created, events_created, modules_created,
      commands_appended;
  /* API misuse the driver reported (each also printed to stderr). */
  uint64_t errors;
} SluiceZeTestDriverStats;

typedef void (*SluiceZeTestDriverGetStatsFn)(SluiceZeTestDriverStats *stats);

/* Fills `stats`. */
__attribute__((visibility("default"))) void
sluiceZeTestDriverGetStats(SluiceZeTestDriverStats *stats);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_ZE_TEST_DRIVER_H */
