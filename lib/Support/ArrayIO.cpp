//===- ArrayIO.cpp - element types, host arrays, comparison ---------------===//
#include "sluice/Support/ArrayIO.h"

#include "ArrayIOInternal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace sluice::io {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::C64:
    return "complex<f32>";
  case DType::C128:
    return "complex<f64>";
  }
  return "?";
}

std::optional<DType> parseDTypeName(std::string_view name) {
  for (DType dtype : allDTypes)
    if (name == dtypeName(dtype))
      return dtype;
  return std::nullopt;
}

size_t dtypeSize(DType dtype) {
  switch (dtype) {
#define SLUICE_DTYPE_SIZE(c, cpp, numpy, bytes)                                \
  case DType::cpp:                                                             \
    return bytes;
    SLUICE_DTYPE_LIST(SLUICE_DTYPE_SIZE)
#undef SLUICE_DTYPE_SIZE
  }
  return 1;
}

bool isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::F32 || dtype == DType::F64;
}

bool isSignedInteger(DType dtype) {
  return dtype == DType::I8 || dtype == DType::I16 || dtype == DType::I32 ||
         dtype == DType::I64;
}

bool isUnsignedInteger(DType dtype) {
  return dtype == DType::U8 || dtype == DType::U16 || dtype == DType::U32 ||
         dtype == DType::U64;
}

const char *dtypeToNumpyDescr(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::F16:
    return "<f2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::C64:
    return "<c8";
  case DType::C128:
    return "<c16";
  }
  return "?";
}

Result<NumpyDescr> dtypeFromNumpyDescr(std::string_view descr) {
  auto fail = [&](const std::string &why) -> Error {
    return Error{"unsupported dtype '" + std::string(descr) + "'" +
                 (why.empty() ? "" : ": " + why)};
  };
  if (descr.size() < 3)
    return fail("expected a byte order, a kind and a size, such as '<f4'");
  char order = descr[0];
  std::string_view kindSize = descr.substr(1);
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return fail("expected a byte order '<', '>', '|' or '=' first");
  static const struct {
    const char *kindSize;
    DType dtype;
  } known[] = {
      {"b1", DType::Bool}, {"i1", DType::I8},    {"i2", DType::I16},
      {"i4", DType::I32},  {"i8", DType::I64},   {"u1", DType::U8},
      {"u2", DType::U16},  {"u4", DType::U32},   {"u8", DType::U64},
      {"f2", DType::F16},  {"f4", DType::F32},   {"f8", DType::F64},
      {"c8", DType::C64},  {"c16", DType::C128},
  };
  for (const auto &k : known) {
    if (kindSize != k.kindSize)
      continue;
    NumpyDescr result{k.dtype, false};
    if (dtypeSize(k.dtype) == 1)
      return result;
    if (order == '|')
      return fail("a multi-byte type needs a byte order '<' or '>'");
    // Sluice runs on little-endian hosts only, so native ('=') is little.
    result.bigEndian = order == '>';
    return result;
  }
  return fail("supported: b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8");
}

//===----------------------------------------------------------------------===//
// Host arrays
//===----------------------------------------------------------------------===//

Result<int64_t> checkShape(const std::vector<int64_t> &shape, DType dtype) {
  // Sizes stay below 2^62 bytes so that no product overflows.
  const int64_t limit = (int64_t(1) << 62) / int64_t(dtypeSize(dtype));
  int64_t count = 1;
  bool empty = false;
  for (int64_t dim : shape) {
    if (dim < 0)
      return Error{"negative dimension " + std::to_string(dim) + " in shape " +
                   formatShape(shape)};
    if (dim == 0)
      empty = true;
  }
  if (empty)
    return int64_t(0);
  for (int64_t dim : shape) {
    if (count > limit / dim)
      return Error{"shape " + formatShape(shape) + " of " + dtypeName(dtype) +
                   " is too large"};
    count *= dim;
  }
  return count;
}

HostArray HostArray::zeros(DType dtype, std::vector<int64_t> shape) {
  HostArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  Result<int64_t> count = checkShape(array.shape, dtype);
  assert(count && "HostArray::zeros of an invalid shape");
  array.data.assign(size_t(count ? *count : 0) * dtypeSize(dtype), 0);
  return array;
}

int64_t HostArray::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

size_t HostArray::byteSize() const {
  return size_t(numElements()) * dtypeSize(dtype);
}

Status HostArray::validate() const {
  Result<int64_t> count = checkShape(shape, dtype);
  if (!count)
    return Error{count.error()};
  size_t expected = size_t(*count) * dtypeSize(dtype);
  if (data.size() != expected)
    return Error{"array " + formatShapeType(shape, dtype) + " needs " +
                 std::to_string(expected) + " bytes of data, has " +
                 std::to_string(data.size())};
  return Status::success();
}

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += 'x';
    text += std::to_string(shape[i]);
  }
  return text;
}

std::string formatShapeType(const std::vector<int64_t> &shape, DType dtype) {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + dtypeName(dtype);
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

double halfToDouble(uint16_t bits) {
  bool negative = bits & 0x8000;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0x1f)
    value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    value = std::ldexp(double(mantissa), -24);
  else
    value = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return negative ? -value : value;
}

uint16_t doubleToHalf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint16_t sign = uint16_t((bits >> 48) & 0x8000);
  int exponent = int((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & ((uint64_t(1) << 52) - 1);
  if (exponent == 0x7ff)
    return sign | (mantissa ? 0x7e00 : 0x7c00);
  if (exponent == 0) // zero or a double subnormal: far below half's range
    return sign;
  int unbiased = exponent - 1023;
  if (unbiased > 15)
    return sign | 0x7c00;
  uint64_t significand = mantissa | (uint64_t(1) << 52);
  // Keep 10 mantissa bits for a normal half; fewer for a subnormal one, whose
  // unit is 2^-24.
  int shift = unbiased >= -14 ? 42 : 28 - unbiased;
  if (shift > 53)
    return sign;
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t halfway = uint64_t(1) << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1)))
    ++kept;
  if (unbiased < -14) // subnormal; rounding up may reach the smallest normal
    return sign | uint16_t(kept);
  // kept holds the implicit bit at 1 << 10; a carry out moves the exponent.
  uint32_t halfExponent = uint32_t(unbiased + 15);
  if (kept == (uint64_t(1) << 11)) {
    kept >>= 1;
    ++halfExponent;
  }
  if (halfExponent >= 31)
    return sign | 0x7c00;
  return sign | uint16_t(halfExponent << 10) | uint16_t(kept & 0x3ff);
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

double elementAsDouble(const HostArray &array, int64_t index) {
  const uint8_t *p = array.data.data() + size_t(index) * dtypeSize(array.dtype);
  switch (array.dtype) {
  case DType::Bool:
    return *p ? 1.0 : 0.0;
  case DType::I8:
    return double(load<int8_t>(p));
  case DType::I16:
    return double(load<int16_t>(p));
  case DType::I32:
    return double(load<int32_t>(p));
  case DType::I64:
    return double(load<int64_t>(p));
  case DType::U8:
    return double(load<uint8_t>(p));
  case DType::U16:
    return double(load<uint16_t>(p));
  case DType::U32:
    return double(load<uint32_t>(p));
  case DType::U64:
    return double(load<uint64_t>(p));
  case DType::F16:
    return halfToDouble(load<uint16_t>(p));
  case DType::F32:
    return double(load<float>(p));
  case DType::F64:
    return load<double>(p);
  case DType::C64: // the real part
    return double(load<float>(p));
  case DType::C128:
    return load<double>(p);
  }
  return 0.0;
}

/// The element's bits, widened: what integers and bools compare by.
static uint64_t elementBits(const HostArray &array, int64_t index) {
  size_t size = dtypeSize(array.dtype);
  uint64_t bits = 0;
  std::memcpy(&bits, array.data.data() + size_t(index) * size, size);
  return bits;
}

/// "[1, 2]" for index 5 of shape 2x3; "[]" for a 0-d array.
static std::string formatIndex(const std::vector<int64_t> &shape,
                               int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i)
    text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

bool allClose(const HostArray &a, const HostArray &b, double rtol, double atol,
              std::string &why, bool equalNan) {
  why.clear();
  if (a.dtype != b.dtype) {
    why = std::string("dtype mismatch: ") + dtypeName(a.dtype) + " vs " +
          dtypeName(b.dtype);
    return false;
  }
  if (a.shape != b.shape) {
    why = "shape mismatch: " + formatShapeType(a.shape, a.dtype) + " vs " +
          formatShapeType(b.shape, b.dtype);
    return false;
  }
  for (const HostArray *array : {&a, &b})
    if (Status valid = array->validate(); !valid) {
      why = "invalid array: " + valid.error();
      return false;
    }

  bool floating = isFloat(a.dtype);
  int64_t count = a.numElements();
  int64_t mismatches = 0;
  int64_t first = -1;
  double maxDiff = 0;
  for (int64_t i = 0; i < count; ++i) {
    bool close;
    if (!floating) {
      close = elementBits(a, i) == elementBits(b, i);
    } else {
      double x = elementAsDouble(a, i);
      double y = elementAsDouble(b, i);
      if (std::isnan(x) || std::isnan(y))
        close = equalNan && std::isnan(x) && std::isnan(y);
      else if (std::isinf(x) || std::isinf(y))
        close = x == y;
      else
        close = std::fabs(x - y) <= atol + rtol * std::fabs(y);
      if (!close && !std::isnan(x) && !std::isnan(y))
        maxDiff = std::max(maxDiff, std::fabs(x - y));
    }
    if (!close) {
      ++mismatches;
      if (first < 0)
        first = i;
    }
  }
  if (!mismatches)
    return true;

  why = std::to_string(mismatches) + " of " + std::to_string(count) +
        " elements differ; first at " + formatIndex(a.shape, first) + ": " +
        formatElement(a, first) + " vs " + formatElement(b, first);
  if (floating) {
    char tolerance[128];
    std::snprintf(tolerance, sizeof tolerance,
                  " (rtol %g, atol %g%s); largest difference %g", rtol, atol,
                  equalNan ? ", nan == nan" : "", maxDiff);
    why += tolerance;
  }
  return false;
}

} // namespace sluice::io
