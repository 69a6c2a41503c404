//===- CApiModule.cpp - C API: modules, kernels, launches -----------------===//
#include "CApi.h"

#include "UsmAccess.h"

#include <cstring>

using namespace sluice::rt;

namespace {

const char *formatName(SluiceModuleFormat format) {
  switch (format) {
  case SLUICE_MODULE_SPIRV:
    return "SPIR-V";
  case SLUICE_MODULE_NATIVE_OBJECT:
    return "native object";
  case SLUICE_MODULE_PTX:
    return "PTX";
  case SLUICE_MODULE_CUBIN:
    return "CUBIN";
  default:
    break;
  }
  return "unknown";
}

/// The allocations a launch's arguments point into; the usual counts need
/// no heap allocation.
class UsedAllocations {
public:
  void push(std::shared_ptr<Allocation> a) {
    if (count < kInline)
      inlineUsed[count++] = std::move(a);
    else
      more.push_back(std::move(a));
  }
  void noteUse(const Ref<Event> &event) {
    for (size_t i = 0; i < count; ++i)
      inlineUsed[i]->noteUse(event);
    for (auto &a : more)
      a->noteUse(event);
  }

private:
  static constexpr size_t kInline = 16;
  std::shared_ptr<Allocation> inlineUsed[kInline];
  size_t count = 0;
  std::vector<std::shared_ptr<Allocation>> more;
};

/// Copies the arguments; pointers into USM allocations are checked against
/// the queue and recorded so that deferred frees wait for the launch.
SluiceStatus collectArgs(Queue &queue, uint32_t num,
                         const SluiceKernelArg *args, KernelArgs &out,
                         UsedAllocations &used, EventList &deps) {
  if (num && !args)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "sluiceLaunch: argument list is NULL but has " +
                    std::to_string(num) + " entries");
  out.reserve(num);
  for (uint32_t i = 0; i < num; ++i) {
    const SluiceKernelArg &arg = args[i];
    if (!arg.value || !arg.size)
      return fail(
          SLUICE_ERROR_INVALID_VALUE,
          "sluiceLaunch: argument " + std::to_string(i) +
              (arg.value ? " has size 0" : " has a NULL value pointer"));
    bool usmPointer = false;
    if (arg.size == sizeof(void *)) {
      const void *p;
      std::memcpy(&p, arg.value, sizeof p);
      if (std::shared_ptr<Allocation> a = Platform::get().usm().find(p)) {
        if (!kernelReaches(queue, a.get()))
          return fail(
              SLUICE_ERROR_INVALID_POINTER,
              "sluiceLaunch: argument " + std::to_string(i) +
                  " points to memory of device " + a->device->filterString() +
                  ", which kernels on device " + queue.device().filterString() +
                  " cannot access; migrate it first");
        usmPointer = &a->device->context() == &queue.device().context();
        a->addReuseFence(queue, deps);
        used.push(std::move(a));
      }
    }
    out.add(arg.value, arg.size, usmPointer);
  }
  return SLUICE_SUCCESS;
}

} // namespace

extern "C" {

SluiceStatus sluiceModuleCreate(SluiceDevice device, SluiceModuleFormat format,
                                const void *bytes, size_t size,
                                SluiceModule *module) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(bytes);
  SLUICE_CHECK_ARG(module);
  return guarded([&] {
    Device &d = *unwrap(device);
    if (format < SLUICE_MODULE_SPIRV || format > SLUICE_MODULE_CUBIN)
      return fail(SLUICE_ERROR_INVALID_VALUE, "unknown module format");
    if (!size)
      return fail(SLUICE_ERROR_INVALID_VALUE, "module binary is empty");
    if (!(d.properties().moduleFormats & (1u << format)))
      return fail(SLUICE_ERROR_UNSUPPORTED,
                  std::string("device ") + d.filterString() + " cannot load " +
                      formatName(format) + " modules");
    Ref<Module> m;
    std::string log;
    if (SluiceStatus status = Platform::get().modules().getOrBuild(
            d, format, bytes, size, m, log)) {
      setLastBuildLog(log);
      if (status == SLUICE_ERROR_BUILD_FAILED)
        return fail(status, std::string(formatName(format)) +
                                " module failed to build for " +
                                d.filterString() + ":\n" + log);
      return status;
    }
    *module = wrap(m.leak());
    return SLUICE_SUCCESS;
  });
}

const char *sluiceGetLastBuildLog(void) { return lastBuildLog().c_str(); }

SluiceStatus sluiceModuleGetBuildLog(SluiceModule module, const char **log) {
  SLUICE_CHECK_ARG(module);
  SLUICE_CHECK_ARG(log);
  *log = unwrap(module)->buildLog().c_str();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceModuleRetain(SluiceModule module) {
  SLUICE_CHECK_ARG(module);
  unwrap(module)->retain();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceModuleRelease(SluiceModule module) {
  SLUICE_CHECK_ARG(module);
  return guarded([&] {
    unwrap(module)->release();
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceKernelGet(SluiceModule module, const char *name,
                             SluiceKernel *kernel) {
  SLUICE_CHECK_ARG(module);
  SLUICE_CHECK_ARG(name);
  SLUICE_CHECK_ARG(kernel);
  return guarded([&] {
    Kernel *k = nullptr;
    if (SluiceStatus status = unwrap(module)->getKernel(name, k))
      return status;
    *kernel = wrap(k);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceLaunch(SluiceQueue queue, SluiceKernel kernel,
                          const uint64_t grid[3], const uint64_t local[3],
                          uint32_t num_args, const SluiceKernelArg *args,
                          uint32_t num_deps, const SluiceEvent *deps,
                          SluiceEvent *event) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(kernel);
  SLUICE_CHECK_ARG(grid);
  SLUICE_CHECK_ARG(local);
  return guarded([&] {
    Queue &q = *unwrap(queue);
    Kernel &k = *unwrap(kernel);
    if (&k.module().context() != &q.device().context())
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceLaunch: kernel '" + k.name() +
                      "' was built for another context than the queue's (" +
                      q.device().filterString() + ")");
    uint64_t groupSize = 1;
    for (int d = 0; d < 3; ++d) {
      if (!grid[d] || !local[d])
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "sluiceLaunch: grid and local sizes must be >= 1 (got "
                    "grid[" +
                        std::to_string(d) + "]=" + std::to_string(grid[d]) +
                        ", local[" + std::to_string(d) +
                        "]=" + std::to_string(local[d]) + ")");
      groupSize *= local[d];
    }
    if (groupSize > q.device().properties().maxWorkGroupSize)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceLaunch: workgroup of " + std::to_string(groupSize) +
                      " work-items exceeds the device maximum of " +
                      std::to_string(q.device().properties().maxWorkGroupSize));
    EventList depList;
    if (SluiceStatus s = toEventList(num_deps, deps, depList))
      return s;
    KernelArgs kernelArgs;
    UsedAllocations used;
    if (SluiceStatus s =
            collectArgs(q, num_args, args, kernelArgs, used, depList))
      return s;
    Ref<Event> out;
    if (SluiceStatus s =
            q.launch(k, grid, local, std::move(kernelArgs), depList, out))
      return s;
    used.noteUse(out);
    returnEvent(out, event);
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
