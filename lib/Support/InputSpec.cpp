//===- InputSpec.cpp - `--input=` values in the style of IREE's run tool --===//
//
//   spec  := '@' path | type '=' value
//   type  := (dim 'x')* element-type        2x3xf32, f32, 4xi1
//   value := '@' path | item+               a splat when one scalar
//   item  := scalar | '[' item* ']'         separated by ',' and/or spaces
//
// A value of several items, or of one bracketed list, is matched against the
// shape: nested lists must match it level by level; a list of scalars only
// may also be the flat list of all elements.
//
//===----------------------------------------------------------------------===//
#include "ArrayIOInternal.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sluice::io {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// Parses an integer, decimal or 0x-hexadecimal with an optional sign, into
/// a sign and a magnitude. Returns false when the text is not an integer;
/// sets `tooLarge` when its magnitude does not fit in 64 bits.
bool parseIntegerText(std::string_view text, bool &negative,
                      uint64_t &magnitude, bool &tooLarge) {
  negative = false;
  tooLarge = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty())
    return false;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (end != text.data() + text.size())
    return false;
  tooLarge = ec == std::errc::result_out_of_range;
  return ec == std::errc() || tooLarge;
}

/// Parses a float: decimal or hexadecimal (0x1.8p3) forms, inf, infinity,
/// nan, with an optional sign. Returns false when the text is not a number;
/// sets `tooLarge` when it overflows a double. Values below the smallest
/// subnormal become zero, as in NumPy.
bool parseFloatText(std::string_view text, double &value, bool &tooLarge) {
  tooLarge = false;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  std::string word = lower(text);
  if (word == "inf" || word == "infinity") {
    value = negative ? -std::numeric_limits<double>::infinity()
                     : std::numeric_limits<double>::infinity();
    return true;
  }
  if (word == "nan") {
    value = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  auto format = std::chars_format::general;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    format = std::chars_format::hex;
    text.remove_prefix(2);
  }
  // Letters other than exponents would be read as nan(...) or infinity.
  if (text.empty() ||
      !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
    return false;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, format);
  if (end != text.data() + text.size())
    return false;
  if (ec == std::errc::result_out_of_range) {
    // Overflow or underflow: strtod says which (the "C" locale's format is
    // the one from_chars accepted).
    std::string copy =
        (format == std::chars_format::hex ? "0x" : "") + std::string(text);
    value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value)) {
      tooLarge = true;
      return true;
    }
  } else if (ec != std::errc()) {
    return false;
  }
  if (negative)
    value = -value;
  return true;
}

/// Stores the element `token` of type `dtype` at `out`; on failure returns a
/// message that names the token.
std::optional<std::string> storeElement(std::string_view token, DType dtype,
                                        uint8_t *out) {
  std::string quoted = "'" + clip(token) + "'";
  if (dtype == DType::C64 || dtype == DType::C128) {
    // "(re,im)", as the printer writes them, or a real number.
    DType part = dtype == DType::C64 ? DType::F32 : DType::F64;
    size_t size = dtypeSize(part);
    std::string_view re = token, im = "0";
    if (!token.empty() && token.front() == '(') {
      size_t comma = token.find(',');
      if (token.back() != ')' || comma == std::string_view::npos)
        return quoted + " is not a complex number: write (real,imaginary)";
      re = token.substr(1, comma - 1);
      im = token.substr(comma + 1, token.size() - comma - 2);
    }
    if (std::optional<std::string> why = storeElement(re, part, out))
      return *why + " (the real part of " + quoted + ")";
    if (std::optional<std::string> why = storeElement(im, part, out + size))
      return *why + " (the imaginary part of " + quoted + ")";
    return std::nullopt;
  }
  if (dtype == DType::Bool) {
    if (token == "true" || token == "True" || token == "1")
      *out = 1;
    else if (token == "false" || token == "False" || token == "0")
      *out = 0;
    else
      return quoted + " is not an i1 (bool) value: use true, false, 1 or 0";
    return std::nullopt;
  }

  if (isFloat(dtype)) {
    double value;
    bool tooLarge;
    if (!parseFloatText(token, value, tooLarge))
      return quoted + " is not a number (" + dtypeName(dtype) + ")";
    const char *name = dtypeName(dtype);
    std::string range = std::string(" is out of range for ") + name;
    if (tooLarge)
      return quoted + range;
    switch (dtype) {
    case DType::F16: {
      uint16_t half = doubleToHalf(value);
      if (std::isfinite(value) && std::isinf(halfToDouble(half)))
        return quoted + range + " (largest 65504)";
      store(out, half);
      break;
    }
    case DType::F32: {
      // Finite doubles at or beyond FLT_MAX + half an ulp round to inf.
      const double overflow = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
      if (std::isfinite(value) && std::fabs(value) >= overflow)
        return quoted + range + " (largest 3.4028235e+38)";
      float f =
          std::isfinite(value) &&
                  std::fabs(value) > double(std::numeric_limits<float>::max())
              ? std::copysign(std::numeric_limits<float>::max(), value)
              : float(value);
      store(out, f);
      break;
    }
    default:
      store(out, value);
      break;
    }
    return std::nullopt;
  }

  bool negative, tooLarge;
  uint64_t magnitude = 0;
  if (!parseIntegerText(token, negative, magnitude, tooLarge))
    return quoted + " is not an integer (" + dtypeName(dtype) + ")";
  size_t bits = dtypeSize(dtype) * 8;
  bool fits;
  if (isUnsignedInteger(dtype)) {
    uint64_t max = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    fits = !tooLarge && (!negative || magnitude == 0) && magnitude <= max;
    if (!fits)
      return quoted + " is out of range for " + dtypeName(dtype) + " [0, " +
             std::to_string(max) + "]";
  } else {
    uint64_t maxPositive = (uint64_t(1) << (bits - 1)) - 1;
    fits = !tooLarge && magnitude <= (negative ? maxPositive + 1 : maxPositive);
    if (!fits)
      return quoted + " is out of range for " + dtypeName(dtype) + " [-" +
             std::to_string(maxPositive + 1) + ", " +
             std::to_string(maxPositive) + "]";
  }
  // Two's complement: the negation of the magnitude, truncated.
  uint64_t value = negative ? ~magnitude + 1 : magnitude;
  switch (bits) {
  case 8:
    store(out, uint8_t(value));
    break;
  case 16:
    store(out, uint16_t(value));
    break;
  case 32:
    store(out, uint32_t(value));
    break;
  default:
    store(out, value);
    break;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A scalar token or a bracketed list, with where it starts in the spec.
struct Item {
  bool isList = false;
  std::string_view text; // the token, or the list with its brackets
  size_t offset = 0;
  std::vector<Item> children;
};

class SpecParser {
public:
  explicit SpecParser(std::string_view spec) : spec(spec) {}

  Result<HostArray> parse() {
    if (trim(spec).empty())
      return fail("empty input; expected TYPE=VALUE (such as 2x3xf32=[[1,2,3],"
                  "[4,5,6]] or f32=2.5) or @FILE.npy");
    std::string_view text = trim(spec);
    if (text.front() == '@')
      return loadFile(text.substr(1), nullptr);
    size_t equals = text.find('=');
    if (equals == std::string_view::npos)
      return fail("expected TYPE=VALUE (such as 2x3xf32=[[1,2,3],[4,5,6]] or "
                  "f32=2.5) or @FILE.npy");
    if (Status typeParsed = parseType(trim(text.substr(0, equals)));
        !typeParsed)
      return Error{typeParsed.error()};
    std::string_view value = trim(text.substr(equals + 1));
    if (value.empty())
      return fail("no value after '='");
    if (value.front() == '@')
      return loadFile(value.substr(1), &array);

    pos = size_t(value.data() - spec.data());
    end = pos + value.size();
    std::vector<Item> items;
    if (Status listed =
            parseItems(items, /*open=*/std::string_view::npos, /*depth=*/0);
        !listed)
      return Error{listed.error()};

    Result<int64_t> count = checkShape(array.shape, array.dtype);
    if (!count)
      return fail(count.error());
    array.data.assign(size_t(*count) * dtypeSize(array.dtype), 0);
    Status filled = items.size() == 1 && !items[0].isList
                        ? fillSplat(items[0], *count)
                        : fill(items.size() == 1 ? items[0].children : items);
    if (!filled)
      return Error{filled.error()};
    return std::move(array);
  }

private:
  Error fail(const std::string &what) const {
    return Error{"input '" + clip(spec, 80) + "': " + what};
  }

  Result<HostArray> loadFile(std::string_view path, const HostArray *expected) {
    path = trim(path);
    if (path.empty())
      return fail("no file name after '@'");
    Result<HostArray> loaded = readNpyFile(std::string(path));
    if (!loaded)
      return fail(loaded.error());
    if (expected &&
        (loaded->dtype != expected->dtype || loaded->shape != expected->shape))
      return fail("'" + std::string(path) + "' holds " +
                  formatShapeType(loaded->shape, loaded->dtype) + ", not " +
                  formatShapeType(expected->shape, expected->dtype));
    return loaded;
  }

  Status parseType(std::string_view type) {
    std::string_view rest = type;
    auto bad = [&](const std::string &why) {
      return fail("bad type '" + std::string(type) + "': " + why +
                  "; expected dimensions and an element type, such as "
                  "2x3xf32 or f32");
    };
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
      size_t digits = 0;
      while (digits < rest.size() &&
             std::isdigit(static_cast<unsigned char>(rest[digits])))
        ++digits;
      int64_t dim = 0;
      auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + digits, dim);
      if (ec != std::errc())
        return bad("dimension " + std::string(rest.substr(0, digits)) +
                   " is too large");
      if (digits == rest.size() || rest[digits] != 'x')
        return bad("no element type after dimension " + std::to_string(dim));
      array.shape.push_back(dim);
      rest.remove_prefix(digits + 1);
    }
    std::optional<DType> dtype = parseDTypeName(rest);
    if (!dtype) {
      std::string names;
      for (DType d : allDTypes)
        names += std::string(names.empty() ? "" : ", ") + dtypeName(d);
      if (rest.empty())
        return bad("no element type");
      if (rest[0] == '?' || rest[0] == '-')
        return bad("dimensions must be static and non-negative");
      return bad("unknown element type '" + std::string(rest) +
                 "' (known: " + names + ")");
    }
    array.dtype = *dtype;
    return Status::success();
  }

  /// Lists nest at most this deep: the parser recurses once per level, and
  /// no array has this many dimensions.
  static constexpr unsigned kMaxNesting = 256;

  /// Parses items up to the ']' that closes the '[' at `open` (npos: up to
  /// the end of the value), `depth` lists deep.
  Status parseItems(std::vector<Item> &items, size_t open, unsigned depth) {
    bool afterComma = false;
    while (true) {
      while (pos < end && isSpace(spec[pos]))
        ++pos;
      if (pos == end) {
        if (open != std::string_view::npos)
          return fail("no ']' to close the '[' at column " +
                      std::to_string(open + 1));
        return Status::success();
      }
      char c = spec[pos];
      if (c == ']') {
        if (open == std::string_view::npos)
          return fail("unmatched ']' at column " + std::to_string(pos + 1));
        ++pos;
        return Status::success();
      }
      if (c == ',') {
        if (items.empty() || afterComma)
          return fail("empty element before the ',' at column " +
                      std::to_string(pos + 1));
        afterComma = true;
        ++pos;
        continue;
      }
      afterComma = false;
      Item item;
      item.offset = pos;
      if (c == '[') {
        if (depth + 1 > kMaxNesting)
          return fail("lists nest deeper than " + std::to_string(kMaxNesting) +
                      " levels at column " + std::to_string(pos + 1));
        item.isList = true;
        ++pos;
        if (Status inner = parseItems(item.children, item.offset, depth + 1);
            !inner)
          return inner;
      } else if (c == '(') {
        // A complex number "(re,im)" is one element.
        size_t close = spec.find(')', pos);
        if (close == std::string_view::npos || close >= end)
          return fail("no ')' to close the '(' at column " +
                      std::to_string(pos + 1));
        pos = close + 1;
      } else {
        while (pos < end && !isSpace(spec[pos]) && spec[pos] != ',' &&
               spec[pos] != '[' && spec[pos] != ']')
          ++pos;
      }
      item.text = spec.substr(item.offset, pos - item.offset);
      if (item.text == "...")
        return fail("'...' at column " + std::to_string(item.offset + 1) +
                    " elides elements: an elided printout is not a value");
      items.push_back(std::move(item));
    }
  }

  Status storeAt(const Item &item, int64_t index) {
    if (std::optional<std::string> why = storeElement(
            item.text, array.dtype,
            array.data.data() + size_t(index) * dtypeSize(array.dtype)))
      return fail(*why + " at column " + std::to_string(item.offset + 1));
    return Status::success();
  }

  Status fillSplat(const Item &item, int64_t count) {
    if (count == 0)
      return Status::success();
    if (Status stored = storeAt(item, 0); !stored)
      return stored;
    size_t size = dtypeSize(array.dtype);
    for (int64_t i = 1; i < count; ++i)
      std::copy_n(array.data.begin(), size, array.data.begin() + i * size);
    return Status::success();
  }

  Status fill(const std::vector<Item> &list) {
    int64_t count = array.numElements();
    bool flat = std::none_of(list.begin(), list.end(),
                             [](const Item &item) { return item.isList; });
    if (array.shape.empty() && !flat)
      return fail("a 0-d " + std::string(dtypeName(array.dtype)) +
                  " takes one value, not nested lists");
    // A list of scalars with the right count is the flat list of elements
    // (for one dimension, flat and nested are the same).
    if (flat && int64_t(list.size()) == count) {
      for (int64_t i = 0; i < count; ++i)
        if (Status stored = storeAt(list[i], i); !stored)
          return stored;
      return Status::success();
    }
    if (flat)
      return fail(formatShapeType(array.shape, array.dtype) + " has " +
                  std::to_string(count) + " element" + (count == 1 ? "" : "s") +
                  ", the list has " + std::to_string(list.size()) +
                  (array.shape.size() > 1
                       ? " (give all elements in one flat list, or nest "
                         "lists to match the shape)"
                       : ""));
    int64_t next = 0;
    return fillNested(list, 0, nullptr, next);
  }

  Status fillNested(const std::vector<Item> &list, size_t dim,
                    const Item *parent, int64_t &next) {
    int64_t size = array.shape[dim];
    std::string what = parent ? "the list '" + clip(parent->text) +
                                    "' at column " +
                                    std::to_string(parent->offset + 1)
                              : std::string("the outer list");
    if (int64_t(list.size()) != size)
      return fail(what + " has " + std::to_string(list.size()) + " element" +
                  (list.size() == 1 ? "" : "s") + ", dimension " +
                  std::to_string(dim) + " of " +
                  formatShapeType(array.shape, array.dtype) + " has " +
                  std::to_string(size));
    bool last = dim + 1 == array.shape.size();
    for (const Item &item : list) {
      if (last && item.isList)
        return fail("expected a number, found the list '" + clip(item.text) +
                    "' at column " + std::to_string(item.offset + 1) +
                    ": lists nest deeper than the " +
                    std::to_string(array.shape.size()) + " dimension" +
                    (array.shape.size() == 1 ? "" : "s") + " of " +
                    formatShapeType(array.shape, array.dtype));
      if (!last && !item.isList)
        return fail("expected a list for dimension " + std::to_string(dim + 1) +
                    " of " + formatShapeType(array.shape, array.dtype) +
                    ", found '" + clip(item.text) + "' at column " +
                    std::to_string(item.offset + 1));
      if (last) {
        if (Status stored = storeAt(item, next++); !stored)
          return stored;
      } else if (Status inner = fillNested(item.children, dim + 1, &item, next);
                 !inner) {
        return inner;
      }
    }
    return Status::success();
  }

  std::string_view spec;
  size_t pos = 0, end = 0;
  HostArray array;
};

} // namespace

Result<HostArray> parseInputSpec(std::string_view spec) {
  return SpecParser(spec).parse();
}

} // namespace sluice::io
