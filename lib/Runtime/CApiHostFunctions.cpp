//===- CApiHostFunctions.cpp - C API: functions of this process as kernels ===//
#include "CApi.h"

#include <cstring>
#include <set>
#include <string_view>

using namespace sluice::rt;

extern "C" {

SluiceStatus sluiceModuleCreateHostFunctions(SluiceDevice device,
                                             uint32_t count,
                                             const char *const *names,
                                             const SluiceHostKernelFn *fns,
                                             SluiceModule *module) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(module);
  *module = nullptr;
  if (!count)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "sluiceModuleCreateHostFunctions: no functions (count is 0)");
  SLUICE_CHECK_ARG(names);
  SLUICE_CHECK_ARG(fns);
  return guarded([&] {
    std::vector<std::pair<std::string, SluiceHostKernelFn>> functions;
    std::set<std::string_view> seen;
    for (uint32_t i = 0; i < count; ++i) {
      std::string index = std::to_string(i);
      if (!names[i] || !*names[i])
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "sluiceModuleCreateHostFunctions: name " + index +
                        " is NULL or empty");
      if (!fns[i])
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "sluiceModuleCreateHostFunctions: function " + index +
                        " ('" + names[i] + "') is NULL");
      if (!seen.insert(names[i]).second)
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "sluiceModuleCreateHostFunctions: kernel name '" +
                        std::string(names[i]) + "' appears twice");
      functions.emplace_back(names[i], fns[i]);
    }
    Ref<Module> m;
    if (SluiceStatus status =
            unwrap(device)->createFunctionModule(functions, m))
      return status;
    *module = wrap(m.leak());
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
