//===- sluice-compile.cpp - Compile a usm program ahead of time -----------===//
//
// The tool is sluiceCompileMain (lib/Tools/SluiceCompileMain.cpp).
//
//===----------------------------------------------------------------------===//

#include "sluice/Tools/ToolMains.h"

int main(int argc, char **argv) { return sluiceCompileMain(argc, argv); }
