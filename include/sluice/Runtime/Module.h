//===- Module.h - Loaded device binaries and their kernels ------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_MODULE_H
#define SLUICE_RUNTIME_MODULE_H

#include "sluice/Runtime/Device.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace sluice::rt {

class Module;

/// A kernel of a module; owned by the module.
class Kernel {
public:
  Kernel(Module &module, std::string name)
      : mod(module), kernelName(std::move(name)) {}
  virtual ~Kernel() = default;
  Module &module() const { return mod; }
  const std::string &name() const { return kernelName; }

private:
  Module &mod;
  std::string kernelName;
};

/// A built binary for one context.
class Module : public RefCounted {
public:
  Module(Context &context, std::string buildLog)
      : ctx(context), log(std::move(buildLog)) {}

  Context &context() const { return ctx; }
  const std::string &buildLog() const { return log; }
  /// Looks up (once) and returns the kernel called `name`.
  SluiceStatus getKernel(const std::string &name, Kernel *&out);

protected:
  /// Creates the backend's kernel object, or fails with
  /// SLUICE_ERROR_KERNEL_NOT_FOUND.
  virtual SluiceStatus createKernel(const std::string &name,
                                    std::unique_ptr<Kernel> &out) = 0;

private:
  Context &ctx;
  std::string log;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_MODULE_H
