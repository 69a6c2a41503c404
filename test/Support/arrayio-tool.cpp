//===- arrayio-tool.cpp - sluice-arrayio from the command line, for tests -===//
//
// Drives sluice-arrayio for the NumPy interoperability test (npy_interop.py):
//
//   arrayio-tool copy IN.npy OUT.npy     read an .npy file and write it back
//   arrayio-tool print IN.npy [MAX]      print an .npy file (MAX elements)
//   arrayio-tool parse SPEC OUT.npy      parse an input spec, write it
//
// Prints the array on stdout; on failure prints "error: ..." on stderr and
// exits with 1.
//
//===----------------------------------------------------------------------===//
#include "sluice/Support/ArrayIO.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace sluice::io;

static int failWith(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return failWith("usage: arrayio-tool copy|print|parse ...");
  std::string command = argv[1];
  Result<HostArray> array =
      command == "parse" ? parseInputSpec(argv[2]) : readNpyFile(argv[2]);
  if (!array)
    return failWith(array.error());
  PrintOptions options;
  if (command == "print" && argc > 3)
    options.maxElements = std::atoll(argv[3]);
  std::printf("%s\n", formatArray(*array, options).c_str());
  if (command == "copy" || command == "parse") {
    if (argc < 4)
      return failWith("missing output file");
    if (Status written = writeNpyFile(argv[3], *array); !written)
      return failWith(written.error());
  }
  return 0;
}
