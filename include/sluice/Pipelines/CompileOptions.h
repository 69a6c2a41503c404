//===- CompileOptions.h - Compile options and their binder ------*- C++ -*-===//
//
// What a user chooses about compiling a program, as one type, and the one
// binder of command-line flags to it. sluice-compile and sluice-run bind the
// flags as llvm::cl options (CompileFlagOptions), the C API's sessions apply
// them one by one (sluiceCompilerSessionSetFlags), and the
// `sluice-compile-program` pipeline and all of them build their pipeline
// from CompileOptions::pipelineOptions().
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_PIPELINES_COMPILEOPTIONS_H
#define SLUICE_PIPELINES_COMPILEOPTIONS_H

#include "sluice/Pipelines/Pipelines.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

/// The defaults are the pipeline's (Pipelines.h), written once there.
struct CompileOptions {
  /// --device=SELECTOR: the device every queue is bound to ("" or
  /// --device=none keeps the program's queues).
  std::string device;
  /// --fusion, --no-fusion: fuse elementwise groups (default on).
  bool fuse = ProgramPipelineOptions().fuse;
  /// -O0..-O3: LLVM optimisation level of host code and CUDA kernels
  /// (default 3).
  unsigned optLevel = ProgramPipelineOptions().cudaOptLevel;
  /// --cuda-chip=sm_NN: NVIDIA chip of CUDA kernels (default sm_90).
  std::string cudaChip = ProgramPipelineOptions().cudaChip;
  /// --workgroup-size=N: work-items per workgroup (a power of 2, 1-1024;
  /// default 256).
  int64_t workgroupSize = KernelPipelineOptions().workgroupSize;
  /// --spirv-native-f16: OpenCL/Level Zero kernels compute f16 as half.
  bool spirvNativeF16 = ProgramPipelineOptions().spirvNativeF16;

  /// The whole-program pipeline these options select (every stage).
  ProgramPipelineOptions pipelineOptions() const;
};

/// The binder: applies one flag (`--device=gpu`, `--no-fusion`, `-O2`, ...)
/// to `options`. False with `error` set for an unknown flag or a bad value.
bool applyCompileFlag(llvm::StringRef flag, CompileOptions &options,
                      std::string &error);

/// The flags that select `options`, one a line.
std::string compileFlagsText(const CompileOptions &options);

/// The compile flags as llvm::cl options of a tool, listed in `category`:
/// each one is applied with applyCompileFlag as the command line is parsed.
/// `deviceHelp` says what --device does for the tool.
class CompileFlagOptions {
public:
  CompileFlagOptions(llvm::cl::OptionCategory &category,
                     const char *deviceHelp);
  ~CompileFlagOptions();

  /// The options the command line chose.
  const CompileOptions &options() const { return chosen; }
  /// Why a flag was wrong (the first one); empty when all were good.
  const std::string &error() const { return firstError; }
  /// The flags given other than --device, as written.
  const std::vector<std::string> &givenOtherThanDevice() const {
    return others;
  }

private:
  void apply(const std::string &flag, bool isDevice);

  std::vector<std::unique_ptr<llvm::cl::Option>> flags;
  CompileOptions chosen;
  std::string firstError;
  std::vector<std::string> others;
};

} // namespace sluice

#endif // SLUICE_PIPELINES_COMPILEOPTIONS_H
