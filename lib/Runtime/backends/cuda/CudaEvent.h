//===- CudaEvent.h - CUevents as Sluice events ------------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H

#include "CudaDevice.h"

#include "sluice/Runtime/Event.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace sluice::rt::cuda {

/// The completion of one task on a CUDA stream: a CUevent recorded after
/// the task (and, when timestamps are on, one recorded before it). Status
/// and waits go to the driver; timestamps are the events' times relative to
/// the context's clock base, on the steady clock.
class CudaEvent final : public Event {
public:
  /// Acquires the events and records the start event on `stream` (the
  /// context is current). The caller records the end with recordEnd().
  static SluiceStatus begin(CudaContext &ctx, CUstream stream, bool recordStart,
                            Ref<CudaEvent> &out);
  SluiceStatus recordEnd();
  ~CudaEvent() override;

  CUevent endEvent() const { return end; }
  CUstream stream() const { return onStream; }
  CudaContext &context() const { return ctx; }

  SluiceBackend backend() const override { return SLUICE_BACKEND_CUDA; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;

private:
  CudaEvent(CudaContext &ctx, CUstream stream, uint64_t submitNs)
      : ctx(ctx), onStream(stream), submitNs(submitNs) {}
  /// Caches a final state (complete, or failed with the driver's reason).
  SluiceEventStatus settle(CUresult r);

  CudaContext &ctx;
  CUstream onStream;
  CUevent start = nullptr, end = nullptr;
  std::shared_ptr<ClockBase> clock;
  uint64_t submitNs;
  std::atomic<int> state{SLUICE_EVENT_SUBMITTED};
  std::mutex errorMutex;
  std::string error;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H
