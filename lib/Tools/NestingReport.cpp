//===- NestingReport.cpp - The tools' error for too deep nesting ----------===//

#include "sluice/Tools/ToolSupport.h"

#include "sluice/Support/SourceNesting.h"

using namespace sluice;

bool sluice::tools::reportTooDeepNesting(const llvm::MemoryBuffer &buffer) {
  llvm::StringRef text = buffer.getBuffer();
  std::optional<size_t> at =
      findTooDeepNesting(std::string_view(text.data(), text.size()));
  if (!at)
    return false;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, buffer.getBufferIdentifier(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(text.data() + *at), llvm::SourceMgr::DK_Error,
      "brackets and regions nest deeper than " +
          llvm::Twine(kMaxSourceNesting) +
          " levels here; the parser does not take programs nested this deep");
  return true;
}
