//===- ArrayPrinter.cpp - arrays as text in the input spec syntax ---------===//
//
// `2x2xf32=[[1 2][3 4]]`: the shape and type, then nested brackets, elements
// separated by a space, sub-arrays by nothing. Floats print with the fewest
// digits that read back to the same value, so the text parses back to the
// same array (parseInputSpec).
//
//===----------------------------------------------------------------------===//
#include "ArrayIOInternal.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sluice::io {

namespace {

std::string formatNonFinite(double value) {
  if (std::isnan(value))
    return "nan";
  return value < 0 ? "-inf" : "inf";
}

template <typename T> std::string formatShortest(T value) {
  if (!std::isfinite(value))
    return formatNonFinite(double(value));
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (ec != std::errc())
    return "?";
  return std::string(buffer, end);
}

std::string formatHalf(uint16_t bits) {
  double value = halfToDouble(bits);
  if (!std::isfinite(value))
    return formatNonFinite(value);
  // Integers print whole (65504, not 6.55e+04).
  char buffer[64];
  if (value == std::trunc(value)) {
    auto [end, ec] =
        std::to_chars(buffer, buffer + sizeof buffer, int64_t(value));
    if (ec != std::errc())
      return "?";
    if (value == 0 && std::signbit(value))
      return "-0";
    return std::string(buffer, end);
  }
  // binary16 round-trips with 5 significant digits; use fewer when they do.
  for (int precision = 1;; ++precision) {
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value,
                                   std::chars_format::general, precision);
    if (ec != std::errc())
      return "?";
    double back = 0;
    std::from_chars(buffer, end, back);
    if (precision >= 5 || doubleToHalf(back) == bits)
      return std::string(buffer, end);
  }
}

/// The number of edge items per dimension that keeps about `maxElements`
/// printed: the largest that does, at least 1.
int64_t chooseEdge(const std::vector<int64_t> &shape, int64_t maxElements) {
  auto shown = [&](int64_t edge) {
    double count = 1;
    for (int64_t dim : shape)
      count *= double(std::min(dim, 2 * edge));
    return count;
  };
  int64_t largest = 0;
  for (int64_t dim : shape)
    largest = std::max(largest, dim);
  int64_t edge = 1;
  while (2 * edge < largest && shown(edge + 1) <= double(maxElements))
    ++edge;
  return edge;
}

class Printer {
public:
  Printer(const HostArray &array, int64_t edge) : array(array), edge(edge) {
    strides.assign(array.shape.size(), 1);
    for (size_t i = array.shape.size(); i-- > 1;)
      strides[i - 1] = strides[i] * array.shape[i];
  }

  void print(size_t dim, int64_t offset) {
    int64_t size = array.shape[dim];
    bool last = dim + 1 == array.shape.size();
    bool elide = edge > 0 && size > 2 * edge;
    out += '[';
    for (int64_t i = 0; i < size; ++i) {
      if (elide && i == edge) {
        out += last ? " ..." : "...";
        i = size - edge - 1;
        continue;
      }
      if (last) {
        if (i)
          out += ' ';
        out += formatElement(array, offset + i);
      } else {
        print(dim + 1, offset + i * strides[dim]);
      }
    }
    out += ']';
  }

  std::string out;

private:
  const HostArray &array;
  int64_t edge;
  std::vector<int64_t> strides;
};

} // namespace

std::string clip(std::string_view text, size_t max) {
  if (text.size() <= max)
    return std::string(text);
  return std::string(text.substr(0, max)) + "...";
}

std::string formatElement(const HostArray &array, int64_t index) {
  const uint8_t *p = array.data.data() + size_t(index) * dtypeSize(array.dtype);
  switch (array.dtype) {
  case DType::Bool:
    return *p ? "true" : "false";
  case DType::I8:
    return std::to_string(load<int8_t>(p));
  case DType::I16:
    return std::to_string(load<int16_t>(p));
  case DType::I32:
    return std::to_string(load<int32_t>(p));
  case DType::I64:
    return std::to_string(load<int64_t>(p));
  case DType::U8:
    return std::to_string(load<uint8_t>(p));
  case DType::U16:
    return std::to_string(load<uint16_t>(p));
  case DType::U32:
    return std::to_string(load<uint32_t>(p));
  case DType::U64:
    return std::to_string(load<uint64_t>(p));
  case DType::F16:
    return formatHalf(load<uint16_t>(p));
  case DType::F32:
    return formatShortest(load<float>(p));
  case DType::F64:
    return formatShortest(load<double>(p));
  case DType::C64:
    return "(" + formatShortest(load<float>(p)) + "," +
           formatShortest(load<float>(p + 4)) + ")";
  case DType::C128:
    return "(" + formatShortest(load<double>(p)) + "," +
           formatShortest(load<double>(p + 8)) + ")";
  }
  return "?";
}

std::string formatArray(const HostArray &array, const PrintOptions &options) {
  std::string type = formatShapeType(array.shape, array.dtype);
  if (Status valid = array.validate(); !valid)
    return type + "=<invalid: " + valid.error() + ">";
  if (array.shape.empty())
    return type + "=" + formatElement(array, 0);
  int64_t edge = 0;
  if (options.maxElements > 0 && array.numElements() > options.maxElements)
    edge = chooseEdge(array.shape, options.maxElements);
  Printer printer(array, edge);
  printer.out = type + "=";
  printer.print(0, 0);
  return std::move(printer.out);
}

} // namespace sluice::io
