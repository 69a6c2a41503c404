/* Kernels for the host backend's tests, written against the host kernel ABI
 * of sluice-c/Runtime.h and built into a shared object at build time. */
#include "sluice-c/Runtime.h"

#include <stdatomic.h>

/* y[i] = a * x[i] + y[i] for i < n. args: float a, float *x, float *y,
 * uint64_t n. */
void axpy(void **args, const SluiceHostGroup *g) {
  float a = *(float *)args[0];
  const float *x = *(float **)args[1];
  float *y = *(float **)args[2];
  uint64_t n = *(uint64_t *)args[3];
  uint64_t base = g->group_id[0] * g->local_size[0];
  for (uint64_t l = 0; l < g->local_size[0]; ++l) {
    uint64_t i = base + l;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
}

/* Counts visits per work-item in a 3-D grid: counts[flat global id] += 1.
 * Also records the grid shape the runtime passed in shape[0..5]. */
void count_items(void **args, const SluiceHostGroup *g) {
  _Atomic uint32_t *counts = *(_Atomic uint32_t **)args[0];
  uint64_t *shape = *(uint64_t **)args[1];
  uint64_t gx = g->num_groups[0] * g->local_size[0];
  uint64_t gy = g->num_groups[1] * g->local_size[1];
  for (int d = 0; d < 3; ++d) {
    shape[d] = g->num_groups[d];
    shape[3 + d] = g->local_size[d];
  }
  for (uint64_t k = 0; k < g->local_size[2]; ++k)
    for (uint64_t j = 0; j < g->local_size[1]; ++j)
      for (uint64_t i = 0; i < g->local_size[0]; ++i) {
        uint64_t x = g->group_id[0] * g->local_size[0] + i;
        uint64_t y = g->group_id[1] * g->local_size[1] + j;
        uint64_t z = g->group_id[2] * g->local_size[2] + k;
        atomic_fetch_add(&counts[(z * gy + y) * gx + x], 1u);
      }
}

/* Spins until *gate becomes non-zero, then writes 42 to out[0]. args:
 * int *gate, int *out. Lets tests hold a task running. */
void wait_gate(void **args, const SluiceHostGroup *g) {
  (void)g;
  _Atomic int *gate = *(_Atomic int **)args[0];
  int *out = *(int **)args[1];
  while (!atomic_load(gate)) {
  }
  out[0] = 42;
}
