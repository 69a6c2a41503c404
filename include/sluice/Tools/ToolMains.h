//===- ToolMains.h - The command-line tools' entry points -------*- C++ -*-===//
//
// sluice-opt, sluice-compile and sluice-run are these functions; their
// executables only call them (tools/). In the wheel they live in
// libsluice-compiler.so, which exports them and the C API and nothing else,
// so the linker drops every part of LLVM and MLIR that neither reaches.
// Each parses its own command line: its options are registered when it is
// first called, so the three can share one image.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_TOOLS_TOOLMAINS_H
#define SLUICE_TOOLS_TOOLMAINS_H

#define SLUICE_TOOL_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

SLUICE_TOOL_EXPORT int sluiceOptMain(int argc, char **argv);
SLUICE_TOOL_EXPORT int sluiceCompileMain(int argc, char **argv);
SLUICE_TOOL_EXPORT int sluiceRunMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif // SLUICE_TOOLS_TOOLMAINS_H
