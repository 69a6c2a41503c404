//===- Errors.h - Errors raised by the extension as Python exceptions -----===//
//
// C++ code of the extension throws sluice::py::Error; a translator turns it
// into the Python exception class registered for its kind (the classes are
// defined in sluice/_errors.py and handed over at import).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_ERRORS_H
#define SLUICE_PYTHON_ERRORS_H

#include "sluice-c/Runtime.h"

#include <stdexcept>
#include <string>

namespace sluice::py {

/// Which Python exception an Error becomes.
enum class ErrorKind {
  /// sluice.SluiceError: the runtime or a task failed.
  Runtime,
  /// sluice.DeviceNotFoundError (a SluiceError and a ValueError).
  DeviceNotFound,
  /// ValueError: a bad argument.
  Value,
  /// TypeError.
  Type,
  /// sluice.CompileError: the compiler rejected a program.
  Compile,
  /// MemoryError.
  OutOfMemory,
  /// BufferError (DLPack).
  Buffer,
};

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message, SluiceStatus status = {})
      : std::runtime_error(message), kind(kind), status(status) {}
  ErrorKind kind;
  SluiceStatus status;
};

/// An Error for a failed runtime call: `what` and the runtime's last-error
/// message; the kind follows the status.
Error runtimeError(SluiceStatus status, const std::string &what);

/// The Error of a failed task or queue: sluice.OutOfMemoryError (a
/// SluiceError and a MemoryError) for out-of-memory statuses, else
/// sluice.SluiceError.
inline Error taskError(SluiceStatus status, const std::string &message) {
  bool oom = status == SLUICE_ERROR_OUT_OF_HOST_MEMORY ||
             status == SLUICE_ERROR_OUT_OF_DEVICE_MEMORY;
  return Error(oom ? ErrorKind::OutOfMemory : ErrorKind::Runtime, message,
               status);
}

/// Throws runtimeError(status, what) unless status is SLUICE_SUCCESS.
inline void check(SluiceStatus status, const char *what) {
  if (status != SLUICE_SUCCESS)
    throw runtimeError(status, what);
}

} // namespace sluice::py

#endif // SLUICE_PYTHON_ERRORS_H
