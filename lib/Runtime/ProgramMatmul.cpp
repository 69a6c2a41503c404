//===- ProgramMatmul.cpp - Library matrix products of compiled programs ---===//
#include "ProgramState.h"
#include "UsmAccess.h"

#include "sluice-c/Program.h"

#include <cstdlib>
#include <cstring>

using namespace sluice::rt;
using namespace sluice::rt::program;

namespace {

/// $SLUICE_MATMUL_PRECISION (the Python package's set_matmul_precision
/// writes it too), read at each product so that a change takes effect at
/// once.
int32_t matmulPrecision() {
  const char *env = std::getenv("SLUICE_MATMUL_PRECISION");
  if (!env)
    return MatmulDesc::Highest;
  if (!std::strcmp(env, "tf32"))
    return MatmulDesc::TF32;
  if (!std::strcmp(env, "bf16"))
    return MatmulDesc::BF16;
  return MatmulDesc::Highest;
}

} // namespace

extern "C" {

void sluiceProgramMatmul(void *queue, int32_t type, uint64_t batch, uint64_t m,
                         uint64_t n, uint64_t k, const void *a, int64_t aBatch,
                         int64_t aRow, int64_t aCol, const void *b,
                         int64_t bBatch, int64_t bRow, int64_t bCol, void *c,
                         int64_t cBatch, int64_t cRow) {
  Invocation &inv = Invocation::current();
  run(inv, [&] {
    if (!queue)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramMatmul: the queue is NULL");
    if (type < MatmulDesc::F32 || type > MatmulDesc::C128)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramMatmul: unknown element type code " +
                      std::to_string(type));
    if (!batch || !m || !n)
      return SLUICE_SUCCESS; // an empty result
    if (!a || !b || !c)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramMatmul: an operand is NULL");
    MatmulDesc d;
    d.type = type;
    d.precision = matmulPrecision();
    d.batch = batch;
    d.m = m;
    d.n = n;
    d.k = k;
    d.a = a;
    d.aBatch = aBatch;
    d.aRow = aRow;
    d.aCol = aCol;
    d.b = b;
    d.bBatch = bBatch;
    d.bRow = bRow;
    d.bCol = bCol;
    d.c = c;
    d.cBatch = cBatch;
    d.cRow = cRow;
    Queue *q = unwrap(static_cast<SluiceQueue>(queue));
    // USM operands: reachable from the queue, and kept until the product
    // has run (deferred frees wait for it).
    std::vector<std::shared_ptr<Allocation>> used;
    const void *operands[3] = {a, b, c};
    for (int i = 0; i < 3; ++i)
      if (std::shared_ptr<Allocation> alloc =
              Platform::get().usm().find(operands[i])) {
        if (!kernelReaches(*q, alloc.get()))
          return fail(SLUICE_ERROR_INVALID_POINTER,
                      "sluiceProgramMatmul: operand " + std::to_string(i) +
                          " is memory of device " +
                          alloc->device->filterString() + ", which device " +
                          q->device().filterString() +
                          " cannot access; migrate it first");
        used.push_back(std::move(alloc));
      }
    QueueSlot &slot = inv.slot(inv.slotIndex(q));
    EventList deps;
    if (slot.after)
      deps.push_back(slot.after);
    Ref<Event> event;
    if (SluiceStatus status = q->matmul(d, deps, event))
      return status;
    for (auto &alloc : used)
      alloc->noteUse(event);
    slot.after = nullptr;
    slot.last = event;
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
