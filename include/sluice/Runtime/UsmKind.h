//===- UsmKind.h - The names of USM kinds -----------------------*- C++ -*-===//
//
// One table of the names of SluiceUsmKind ("device", "shared", "host"), for
// the runtime's messages and sluice-ls.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_RUNTIME_USMKIND_H
#define SLUICE_RUNTIME_USMKIND_H

#include "sluice-c/Runtime.h"

namespace sluice::rt {

/// The name of `kind`: "device", "shared" or "host"; "unknown" for
/// SLUICE_USM_UNKNOWN or a value that is no kind.
inline const char *usmKindName(SluiceUsmKind kind) {
  switch (kind) {
  case SLUICE_USM_DEVICE:
    return "device";
  case SLUICE_USM_SHARED:
    return "shared";
  case SLUICE_USM_HOST:
    return "host";
  default:
    return "unknown";
  }
}

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_USMKIND_H
