//===- Validate.cpp - In-process SPIR-V validation ------------------------===//

#include "sluice/Target/SPIRV/Validate.h"

#ifdef SLUICE_HAVE_SPIRV_TOOLS
#include "spirv-tools/libspirv.hpp"
#endif

bool sluice::canValidateSPIRV() {
#ifdef SLUICE_HAVE_SPIRV_TOOLS
  return true;
#else
  return false;
#endif
}

bool sluice::validateSPIRV(llvm::ArrayRef<uint32_t> words, std::string &log,
                           bool extensions) {
#ifdef SLUICE_HAVE_SPIRV_TOOLS
  spvtools::SpirvTools tools(extensions ? SPV_ENV_UNIVERSAL_1_0
                                        : SPV_ENV_OPENCL_2_0);
  tools.SetMessageConsumer([&log](spv_message_level_t, const char *,
                                  const spv_position_t &position,
                                  const char *message) {
    log += "word " + std::to_string(position.index) + ": " + message + "\n";
  });
  return tools.Validate(words.data(), words.size());
#else
  (void)words;
  (void)extensions;
  log = "this build has no SPIRV-Tools";
  return true;
#endif
}
