//===- ArrayIO.h - host arrays, .npy files, input specs ---------*- C++ -*-===//
//
// A small library, with no MLIR or LLVM inside, that tools such as
// `sluice-run` use to get program inputs and to show program outputs:
//
//   - HostArray: a dense, C-order, little-endian array in host memory;
//   - .npy files (NumPy's format, versions 1.0, 2.0 and 3.0) read and written;
//   - `--input=` values in the style of IREE's run tool
//     (`2x3xf32=[[1,2,3],[4,5,6]]`, `f32=2.5`, `@x.npy`) parsed;
//   - arrays printed in the same syntax (`2x2xf32=[[1 2][3 4]]`);
//   - allClose, NumPy's comparison, for tests.
//
// Nothing here throws or aborts: every failure is a Result holding an error
// message meant for the user.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_SUPPORT_ARRAYIO_H
#define SLUICE_SUPPORT_ARRAYIO_H

#include "sluice-c/DType.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sluice::io {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// A failure: a message for the user, without a trailing newline.
struct Error {
  std::string message;
};

/// A value or an Error, like llvm::Expected without its checking. Converts to
/// true when it holds a value.
///
///   Result<HostArray> a = readNpyFile("x.npy");
///   if (!a) { std::cerr << a.error() << "\n"; return 1; }
///   use(*a);
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : storage(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : storage(std::in_place_index<1>, std::move(error)) {}

  explicit operator bool() const { return storage.index() == 0; }
  T &operator*() {
    assert(*this && "no value in a failed Result");
    return std::get<0>(storage);
  }
  const T &operator*() const {
    assert(*this && "no value in a failed Result");
    return std::get<0>(storage);
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }
  /// The message of a failed Result.
  const std::string &error() const {
    assert(!*this && "no error in a successful Result");
    return std::get<1>(storage).message;
  }
  /// Moves the value out.
  T take() { return std::move(**this); }

private:
  std::variant<T, Error> storage;
};

/// Success or an Error. Converts to true on success.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : failure(std::move(error)) {}
  static Status success() { return Status(); }

  explicit operator bool() const { return !failure; }
  const std::string &error() const {
    assert(failure && "no error in a successful Status");
    return failure->message;
  }

private:
  std::optional<Error> failure;
};

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// The element types a HostArray holds, numbered as SluiceDType (one list:
/// sluice-c/DType.h). Their names are MLIR's: i1 is bool, iN signless (read
/// as signed) integers, uiN unsigned integers, C64/C128 complex<f32/f64>.
enum class DType : uint8_t {
#define SLUICE_DTYPE_ENUMERATOR(c, cpp, numpy, bytes) cpp,
  SLUICE_DTYPE_LIST(SLUICE_DTYPE_ENUMERATOR)
#undef SLUICE_DTYPE_ENUMERATOR
};

/// Every DType, in declaration order.
inline constexpr DType allDTypes[] = {
#define SLUICE_DTYPE_ENUMERATOR(c, cpp, numpy, bytes) DType::cpp,
    SLUICE_DTYPE_LIST(SLUICE_DTYPE_ENUMERATOR)
#undef SLUICE_DTYPE_ENUMERATOR
};

/// The MLIR spelling: "i1", "i8", ..., "ui8", ..., "f16", "f32", "f64".
const char *dtypeName(DType dtype);
/// Parses an MLIR element type name; std::nullopt for anything else.
std::optional<DType> parseDTypeName(std::string_view name);
/// The size of one element in bytes (1 for i1).
size_t dtypeSize(DType dtype);
bool isFloat(DType dtype);
bool isSignedInteger(DType dtype);
bool isUnsignedInteger(DType dtype);

/// NumPy's descr string of the type as Sluice stores it: "|b1", "|i1", "|u1",
/// "<i2", ..., "<f2", "<f4", "<f8".
const char *dtypeToNumpyDescr(DType dtype);

/// A NumPy descr string understood.
struct NumpyDescr {
  DType dtype;
  /// The data is big-endian and must be byte-swapped to be stored.
  bool bigEndian = false;
};
/// Parses a NumPy descr string of a supported type: a byte order
/// ('<' little, '>' big, '|' not applicable, '=' native) and a kind and size
/// ("b1", "i1".."i8", "u1".."u8", "f2", "f4", "f8"). '|' is accepted only for
/// one-byte types. The error names the text.
Result<NumpyDescr> dtypeFromNumpyDescr(std::string_view descr);

//===----------------------------------------------------------------------===//
// Host arrays
//===----------------------------------------------------------------------===//

/// A dense array in host memory: C order (row-major), little-endian elements,
/// bools one byte each (0 or 1). An empty shape is a 0-d array (one element).
struct HostArray {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// A zero-filled array. The shape must be valid (see checkShape).
  static HostArray zeros(DType dtype, std::vector<int64_t> shape);

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// The product of the dimensions (1 for a 0-d array).
  int64_t numElements() const;
  /// numElements() * dtypeSize(dtype).
  size_t byteSize() const;

  /// Checks that dimensions are non-negative, that the element count fits
  /// and that `data` holds exactly the elements of the shape.
  Status validate() const;
};

/// Checks that every dimension is non-negative and that the byte size of an
/// array of that shape and type fits in memory sizes; returns the element
/// count.
Result<int64_t> checkShape(const std::vector<int64_t> &shape, DType dtype);

/// "2x3xf32", or "f32" for a 0-d array (the type part of an input spec).
std::string formatShapeType(const std::vector<int64_t> &shape, DType dtype);
/// "2x3" ("" for 0-d).
std::string formatShape(const std::vector<int64_t> &shape);

/// IEEE binary16 conversions (round to nearest, ties to even).
double halfToDouble(uint16_t bits);
uint16_t doubleToHalf(double value);

/// Element `index` (in C order) converted to double; integers of more than
/// 53 bits may round.
double elementAsDouble(const HostArray &array, int64_t index);

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

/// Reads an .npy image held in memory. Versions 1.0, 2.0 and 3.0; C order
/// only; big-endian data is converted to little-endian; bools are
/// normalised to 0/1. `name` is used in error messages.
Result<HostArray> readNpy(const uint8_t *bytes, size_t size,
                          std::string_view name = "<memory>");
/// Reads an .npy file.
Result<HostArray> readNpyFile(const std::string &path);

/// Encodes an array as an .npy image: version 1.0, or 2.0 when the header
/// does not fit in 1.0's 64 KiB. Fails when the array is not valid.
Result<std::vector<uint8_t>> writeNpy(const HostArray &array);
/// Writes an .npy file.
Status writeNpyFile(const std::string &path, const HostArray &array);

//===----------------------------------------------------------------------===//
// Input specs
//===----------------------------------------------------------------------===//

/// Parses an `--input=` value, the syntax of IREE's run tool:
///
///   2x3xf32=[[1,2,3],[4,5,6]]   nested brackets that match the shape
///   2x3xf32=[1 2 3 4 5 6]       a flat list with exactly the element count
///   2x3xf32=[1 2 3][4 5 6]      IREE's form, without the outer brackets
///   2x3xf32=1.5                 a splat
///   f32=3   i64=-3              0-d arrays (scalars)
///   4xi1=[true,false,1,0]       bools
///   @path/x.npy                 an .npy file
///   2x3xf32=@path/x.npy         an .npy file that must have this type
///
/// Elements are separated by commas and/or whitespace. Integers are decimal
/// or hexadecimal (0x..., with an optional sign) and must fit the type;
/// floats take the usual forms plus inf, -inf and nan; a finite value too
/// large for the type is an error. The error names the offending text.
Result<HostArray> parseInputSpec(std::string_view spec);

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

struct PrintOptions {
  /// When positive and the array has more elements, the middle of each
  /// dimension is elided with `...` so that about this many are printed
  /// (at least the first and last of each dimension). The result no longer
  /// parses as an input spec.
  int64_t maxElements = 0;
};

/// Prints an array in the input spec syntax, on one line:
/// `2x2xf32=[[1 2][3 4]]`, `f32=2.5`, `3xi1=[true false true]`, `0xf32=[]`.
/// Floats print with the fewest digits that read back to the same value
/// (nan, inf, -inf as such); so the output parses back to the same array
/// unless elided. An invalid array prints as a message that says so.
std::string formatArray(const HostArray &array,
                        const PrintOptions &options = {});

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// NumPy's allclose for two arrays of one dtype and shape: floats match when
/// |a - b| <= atol + rtol * |b| (b is the reference), infinities when equal,
/// nans only with `equalNan`; integers and bools must be equal. On a mismatch
/// returns false and says why in `why`: differing dtypes or shapes, or how
/// many elements differ, the first of them and the largest difference.
bool allClose(const HostArray &a, const HostArray &b, double rtol, double atol,
              std::string &why, bool equalNan = false);

} // namespace sluice::io

#endif // SLUICE_SUPPORT_ARRAYIO_H
