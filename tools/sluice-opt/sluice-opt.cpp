//===- sluice-opt.cpp - Sluice's opt-style driver -------------------------===//
//
// The tool is sluiceOptMain (lib/Tools/SluiceOptMain.cpp).
//
//===----------------------------------------------------------------------===//

#include "sluice/Tools/ToolMains.h"

int main(int argc, char **argv) { return sluiceOptMain(argc, argv); }
