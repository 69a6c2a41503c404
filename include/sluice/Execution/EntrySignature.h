//===- EntrySignature.h - What an entry function takes and gives -*- C++
//-*-===//
//
// The interface of a compiled program's entry point, with no MLIR inside, so
// that whatever calls the program (sluice-run, the C API, Python) can lay out
// its arguments: arrays by shape, element type and placement, scalars by
// type. It has a one-line text form that artifacts embed.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_ENTRYSIGNATURE_H
#define SLUICE_EXECUTION_ENTRYSIGNATURE_H

#include "sluice/Support/ArrayIO.h"

#include <string>
#include <vector>

namespace sluice::exec {

/// One argument or result.
struct ValueInfo {
  bool isArray = false;
  io::DType dtype = io::DType::F32;
  /// Arrays: the static shape, -1 for dynamic dimensions.
  std::vector<int64_t> shape;
  /// Arrays: the queue ("backend:type:index" and an optional name) and the
  /// USM kind (SluiceUsmKind).
  std::string device, queueName;
  int kind = 1;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// How many packed slots it takes in the entry point's argument list.
  size_t numSlots() const { return isArray ? 3 + 2 * shape.size() : 1; }
};

struct EntrySignature {
  std::string name;
  std::vector<ValueInfo> args, results;

  /// `name(2x?xf32@host:cpu:0/device,f32)->(f32@host:cpu:0/shared)`; queue
  /// names follow the device in parentheses.
  std::string toString() const;
  static io::Result<EntrySignature> parse(const std::string &text);
};

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_ENTRYSIGNATURE_H
