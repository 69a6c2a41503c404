//===- sluice-run.cpp - Compile and run a usm program ---------------------===//
//
// The tool is sluiceRunMain (lib/Tools/SluiceRunMain.cpp).
//
//===----------------------------------------------------------------------===//

#include "sluice/Tools/ToolMains.h"

int main(int argc, char **argv) { return sluiceRunMain(argc, argv); }
