//===- CApi.h - Helpers shared by the C API implementation ------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CAPI_H
#define SLUICE_LIB_RUNTIME_CAPI_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/Event.h"
#include "sluice/Runtime/Module.h"
#include "sluice/Runtime/Platform.h"
#include "sluice/Runtime/Queue.h"

#include <exception>
#include <new>
#include <string>

namespace sluice::rt {

inline Device *unwrap(SluiceDevice d) { return reinterpret_cast<Device *>(d); }
inline Queue *unwrap(SluiceQueue q) { return reinterpret_cast<Queue *>(q); }
inline Event *unwrap(SluiceEvent e) { return reinterpret_cast<Event *>(e); }
inline Module *unwrap(SluiceModule m) { return reinterpret_cast<Module *>(m); }
inline Kernel *unwrap(SluiceKernel k) { return reinterpret_cast<Kernel *>(k); }
inline SluiceDevice wrap(Device *d) {
  return reinterpret_cast<SluiceDevice>(d);
}
inline SluiceQueue wrap(Queue *q) { return reinterpret_cast<SluiceQueue>(q); }
inline SluiceEvent wrap(Event *e) { return reinterpret_cast<SluiceEvent>(e); }
inline SluiceModule wrap(Module *m) {
  return reinterpret_cast<SluiceModule>(m);
}
inline SluiceKernel wrap(Kernel *k) {
  return reinterpret_cast<SluiceKernel>(k);
}

/// Runs an API body, turning escaping C++ exceptions into statuses: no
/// exception ever crosses the C boundary.
template <typename Fn> SluiceStatus guarded(Fn &&fn) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc &) {
    return fail(SLUICE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return fail(SLUICE_ERROR_BACKEND,
                std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(SLUICE_ERROR_BACKEND, "internal error: unknown exception");
  }
}

inline SluiceStatus nullArgument(const char *function, const char *name) {
  return fail(SLUICE_ERROR_INVALID_VALUE,
              std::string(function) + ": '" + name + "' is NULL");
}

#define SLUICE_CHECK_ARG(arg)                                                  \
  do {                                                                         \
    if (!(arg))                                                                \
      return ::sluice::rt::nullArgument(__func__, #arg);                       \
  } while (false)

/// Converts a C dependency list (entries must not be NULL).
SluiceStatus toEventList(uint32_t num, const SluiceEvent *events,
                         EventList &out);
/// Hands an event to the caller if they asked for one (pinned: see
/// Event::pin, unless keepEventsInternal).
void returnEvent(Ref<Event> event, SluiceEvent *out);
/// Set while the runtime's own layers (compiled programs' launches) call
/// the C API for events they keep to themselves, for ordering only: those
/// are not pinned, so a backend may mark their completion lazily.
extern thread_local bool keepEventsInternal;

} // namespace sluice::rt

#endif // SLUICE_LIB_RUNTIME_CAPI_H
