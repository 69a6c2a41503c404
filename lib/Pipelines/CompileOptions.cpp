//===- CompileOptions.cpp - One compile-options type and its binder -------===//

#include "sluice/Pipelines/CompileOptions.h"

using namespace sluice;
namespace cl = llvm::cl;

ProgramPipelineOptions CompileOptions::pipelineOptions() const {
  ProgramPipelineOptions options;
  options.fuse = fuse;
  options.kernels.workgroupSize = workgroupSize;
  options.cudaChip = cudaChip;
  options.cudaOptLevel = optLevel; // -O: host code and CUDA kernels
  options.spirvNativeF16 = spirvNativeF16;
  return options;
}

namespace {
/// One flag: `--name=value`, `--name` (a switch: no value) or `-Ovalue`.
struct Flag {
  const char *name;
  /// Null for a switch.
  const char *valueName;
  const char *help;
};

/// Every compile flag (--device's help is the tool's).
const Flag kFlags[] = {
    {"device", "selector", nullptr},
    {"fusion", nullptr, "fuse elementwise groups (the default)"},
    {"no-fusion", nullptr, "compile without elementwise fusion"},
    {"O", "level",
     "LLVM optimisation level of host code and CUDA kernels (0-3; "
     "default 3)"},
    {"cuda-chip", "sm_NN", "NVIDIA chip of CUDA kernels (default sm_90)"},
    {"workgroup-size", "n",
     "work-items per workgroup of GPU kernels (a power of 2 up to 1024; "
     "default 256)"},
    {"spirv-native-f16", nullptr,
     "OpenCL/Level Zero kernels compute f16 as half (devices with "
     "cl_khr_fp16) instead of in f32"},
};
} // namespace

bool sluice::applyCompileFlag(llvm::StringRef flag, CompileOptions &options,
                              std::string &error) {
  llvm::StringRef value = flag;
  if (value.consume_front("--device=")) {
    options.device = value == "none" ? "" : value.str();
  } else if (flag == "--fusion") {
    options.fuse = true;
  } else if (flag == "--no-fusion") {
    options.fuse = false;
  } else if (flag == "--spirv-native-f16") {
    options.spirvNativeF16 = true;
  } else if (value.consume_front("-O")) {
    unsigned level;
    if (value.getAsInteger(10, level) || level > 3) {
      error = (flag + ": expected -O0 to -O3").str();
      return false;
    }
    options.optLevel = level;
  } else if (value.consume_front("--cuda-chip=")) {
    unsigned number;
    llvm::StringRef digits = value;
    if (!digits.consume_front("sm_") || digits.getAsInteger(10, number) ||
        number < 50) {
      error = (flag + ": expected an NVIDIA chip such as sm_80 or sm_90").str();
      return false;
    }
    options.cudaChip = value.str();
  } else if (value.consume_front("--workgroup-size=")) {
    int64_t size;
    if (value.getAsInteger(10, size) || size < 1 || size > 1024 ||
        (size & (size - 1)) != 0) {
      error = (flag + ": expected a power of 2 from 1 to 1024").str();
      return false;
    }
    options.workgroupSize = size;
  } else {
    error = ("unknown flag '" + flag +
             "' (expected --device=, --fusion, --no-fusion, -O0..-O3, "
             "--cuda-chip=, --workgroup-size=, --spirv-native-f16)")
                .str();
    return false;
  }
  return true;
}

std::string sluice::compileFlagsText(const CompileOptions &options) {
  std::string text;
  if (!options.device.empty())
    text += "--device=" + options.device + "\n";
  text += options.fuse ? "--fusion\n" : "--no-fusion\n";
  text += "-O" + std::to_string(options.optLevel) + "\n";
  text += "--cuda-chip=" + options.cudaChip + "\n";
  text += "--workgroup-size=" + std::to_string(options.workgroupSize) + "\n";
  if (options.spirvNativeF16)
    text += "--spirv-native-f16\n";
  return text;
}

CompileFlagOptions::CompileFlagOptions(cl::OptionCategory &category,
                                       const char *deviceHelp) {
  for (const Flag &flag : kFlags) {
    std::string name = flag.name;
    bool isDevice = name == "device";
    const char *help = isDevice ? deviceHelp : flag.help;
    if (!flag.valueName) {
      flags.push_back(std::make_unique<cl::opt<bool>>(
          llvm::StringRef(flag.name), cl::desc(help), cl::cat(category),
          cl::callback([this, name](const bool &on) {
            if (on)
              apply("--" + name, /*isDevice=*/false);
          })));
      continue;
    }
    std::string spelling = name == "O" ? "-O" : "--" + name + "=";
    auto option = std::make_unique<cl::opt<std::string>>(
        llvm::StringRef(flag.name), cl::desc(help),
        cl::value_desc(flag.valueName), cl::cat(category),
        cl::callback([this, spelling, isDevice](const std::string &value) {
          apply(spelling + value, isDevice);
        }));
    if (name == "O")
      option->setFormattingFlag(cl::Prefix);
    flags.push_back(std::move(option));
  }
}

CompileFlagOptions::~CompileFlagOptions() = default;

void CompileFlagOptions::apply(const std::string &flag, bool isDevice) {
  std::string error;
  if (!applyCompileFlag(flag, chosen, error) && firstError.empty())
    firstError = error;
  if (!isDevice)
    others.push_back(flag);
}
