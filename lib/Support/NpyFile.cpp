//===- NpyFile.cpp - NumPy .npy files read and written --------------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and minor
// version byte, the header length (2 bytes little-endian in version 1.0, 4 in
// 2.0 and 3.0), then the header: a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ended by a newline (ASCII in 1.0 and 2.0, UTF-8 in
// 3.0), then the elements, raw.
//
//===----------------------------------------------------------------------===//
#include "ArrayIOInternal.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>

namespace sluice::io {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr size_t magicSize = 6;
/// NumPy aligns the data to 64 bytes (numpy.lib.format.ARRAY_ALIGN).
constexpr size_t headerAlign = 64;

/// One value of the header dict: what .npy headers hold.
struct HeaderValue {
  enum Kind { String, Bool, Tuple } kind = String;
  std::string text;
  bool flag = false;
  std::vector<int64_t> ints;
};

/// A recursive-descent parser of the Python literal subset of .npy headers.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  /// Parses the whole header into (key, value) pairs in order.
  Result<std::vector<std::pair<std::string, HeaderValue>>> parseDict() {
    std::vector<std::pair<std::string, HeaderValue>> entries;
    skipSpace();
    if (!consume('{'))
      return fail("expected '{'");
    skipSpace();
    while (!consume('}')) {
      Result<std::string> key = parseString();
      if (!key)
        return Error{key.error()};
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after key '" + *key + "'");
      skipSpace();
      Result<HeaderValue> value = parseValue();
      if (!value)
        return Error{value.error()};
      entries.emplace_back(key.take(), value.take());
      skipSpace();
      if (consume(','))
        skipSpace();
      else if (!peek('}'))
        return fail("expected ',' or '}'");
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the dict");
    return entries;
  }

private:
  Error fail(const std::string &what) const {
    return Error{what + " at offset " + std::to_string(pos) + " of header " +
                 clip(text, 120)};
  }

  bool peek(char c) const { return pos < text.size() && text[pos] == c; }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }
  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  Result<std::string> parseString() {
    if (!peek('\'') && !peek('"'))
      return fail("expected a quoted string");
    char quote = text[pos++];
    std::string value;
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\' && pos + 1 < text.size())
        ++pos;
      value += text[pos++];
    }
    if (!consume(quote))
      return fail("unterminated string");
    return value;
  }

  Result<int64_t> parseInt() {
    size_t start = pos;
    if (peek('-') || peek('+'))
      ++pos;
    size_t digits = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
      ++pos;
    if (pos == digits)
      return fail("expected an integer");
    std::string number(text.substr(start, pos - start));
    errno = 0;
    char *end = nullptr;
    long long value = std::strtoll(number.c_str(), &end, 10);
    if (errno == ERANGE)
      return fail("integer " + number + " out of range");
    consume('L'); // Python 2 longs, in old files
    return int64_t(value);
  }

  Result<HeaderValue> parseValue() {
    HeaderValue value;
    if (peek('\'') || peek('"')) {
      Result<std::string> s = parseString();
      if (!s)
        return Error{s.error()};
      value.kind = HeaderValue::String;
      value.text = s.take();
      return value;
    }
    for (bool flag : {true, false}) {
      if (consumeWord(flag ? "True" : "False")) {
        value.kind = HeaderValue::Bool;
        value.flag = flag;
        return value;
      }
    }
    if (consume('(')) {
      value.kind = HeaderValue::Tuple;
      skipSpace();
      while (!consume(')')) {
        Result<int64_t> n = parseInt();
        if (!n)
          return Error{n.error()};
        value.ints.push_back(*n);
        skipSpace();
        if (consume(','))
          skipSpace();
        else if (!peek(')'))
          return fail("expected ',' or ')' in a tuple");
      }
      return value;
    }
    if (peek('['))
      return fail("structured dtypes (a list as descr) are not supported");
    return fail("expected a string, True, False or a tuple of integers");
  }

  std::string_view text;
  size_t pos = 0;
};

/// Reverses the bytes of each element of `size` bytes.
void byteSwap(std::vector<uint8_t> &data, size_t size) {
  for (size_t i = 0; i + size <= data.size(); i += size)
    std::reverse(data.begin() + i, data.begin() + i + size);
}

uint32_t loadLittle(const uint8_t *p, size_t bytes) {
  uint32_t value = 0;
  for (size_t i = bytes; i-- > 0;)
    value = (value << 8) | p[i];
  return value;
}

} // namespace

namespace {

/// What an .npy header says: the array (without its data), where the data
/// starts and how long it is.
struct NpyLayout {
  HostArray array;
  std::string descr;
  bool bigEndian = false;
  size_t dataOffset = 0, dataSize = 0;
};

/// How many bytes of the file hold the header (magic, version, length and
/// the header itself), from its first `size` bytes: 0 when they are too few
/// to tell.
size_t npyHeaderEnd(const uint8_t *bytes, size_t size) {
  if (size < magicSize + 2)
    return 0;
  size_t lengthBytes = bytes[magicSize] == 1 ? 2 : 4;
  size_t prefix = magicSize + 2 + lengthBytes;
  if (size < prefix)
    return 0;
  return prefix + loadLittle(bytes + magicSize + 2, lengthBytes);
}

/// Parses the header at the start of `bytes` (`size` of them: at least
/// the header; the data need not be there).
Result<NpyLayout> parseNpyHeader(const uint8_t *bytes, size_t size,
                                 std::string_view name) {
  std::string where(name);
  auto fail = [&](const std::string &what) -> Error {
    return Error{where + ": " + what};
  };
  if (size == 0)
    return fail("empty file, not an .npy file");
  if (size < magicSize + 2 ||
      std::string_view(reinterpret_cast<const char *>(bytes), magicSize) !=
          std::string_view(magic, magicSize))
    return fail(size < magicSize + 2 && size > 0 && bytes[0] == 0x93
                    ? "truncated: too short for an .npy header"
                    : "not an .npy file (no \\x93NUMPY magic)");
  unsigned major = bytes[magicSize], minor = bytes[magicSize + 1];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail("unsupported .npy format version " + std::to_string(major) +
                "." + std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = magicSize + 2 + lengthBytes;
  if (size < prefix)
    return fail("truncated: too short for an .npy header");
  size_t headerSize = loadLittle(bytes + magicSize + 2, lengthBytes);
  if (size - prefix < headerSize)
    return fail("truncated: the header needs " + std::to_string(headerSize) +
                " bytes, the file has " + std::to_string(size - prefix));
  std::string_view header(reinterpret_cast<const char *>(bytes + prefix),
                          headerSize);
  if (major < 3)
    for (char c : header)
      if (static_cast<unsigned char>(c) >= 0x80)
        return fail("bad header: version " + std::to_string(major) +
                    ".0 headers are ASCII");

  Result<std::vector<std::pair<std::string, HeaderValue>>> dict =
      HeaderParser(header).parseDict();
  if (!dict)
    return fail("bad header: " + dict.error());
  const HeaderValue *descr = nullptr, *fortran = nullptr, *shape = nullptr;
  for (const auto &[key, value] : *dict) {
    const HeaderValue **slot = key == "descr"           ? &descr
                               : key == "fortran_order" ? &fortran
                               : key == "shape"         ? &shape
                                                        : nullptr;
    if (!slot)
      return fail("bad header: unexpected key '" + key +
                  "' (expected descr, fortran_order and shape)");
    if (*slot)
      return fail("bad header: duplicate key '" + key + "'");
    *slot = &value;
  }
  for (auto [value, key] :
       {std::pair(descr, "descr"), std::pair(fortran, "fortran_order"),
        std::pair(shape, "shape")})
    if (!value)
      return fail(std::string("bad header: missing key '") + key + "'");
  if (descr->kind != HeaderValue::String)
    return fail("bad header: 'descr' is not a string");
  if (fortran->kind != HeaderValue::Bool)
    return fail("bad header: 'fortran_order' is not True or False");
  if (shape->kind != HeaderValue::Tuple)
    return fail("bad header: 'shape' is not a tuple of integers");

  Result<NumpyDescr> type = dtypeFromNumpyDescr(descr->text);
  if (!type)
    return fail(type.error());
  if (fortran->flag)
    return fail("Fortran-order arrays (fortran_order: True) are not "
                "supported; save a C-order array "
                "(numpy.ascontiguousarray)");

  NpyLayout layout;
  HostArray &array = layout.array;
  array.dtype = type->dtype;
  array.shape = shape->ints;
  Result<int64_t> count = checkShape(array.shape, array.dtype);
  if (!count)
    return fail(count.error());
  layout.descr = descr->text;
  layout.bigEndian = type->bigEndian;
  layout.dataOffset = prefix + headerSize;
  layout.dataSize = size_t(*count) * dtypeSize(array.dtype);
  return layout;
}

} // namespace

Result<HostArray> readNpy(const uint8_t *bytes, size_t size,
                          std::string_view name) {
  std::string where(name);
  auto fail = [&](const std::string &what) -> Error {
    return Error{where + ": " + what};
  };
  Result<NpyLayout> parsed = parseNpyHeader(bytes, size, name);
  if (!parsed)
    return Error{parsed.error()};
  HostArray &array = parsed->array;
  size_t dataSize = parsed->dataSize;
  size_t prefixAndHeader = parsed->dataOffset;
  size_t available = size - prefixAndHeader;
  if (available != dataSize)
    return fail(std::string(available < dataSize ? "truncated" : "too long") +
                ": shape (" + formatShape(array.shape) + ") of " +
                parsed->descr + " needs " + std::to_string(dataSize) +
                " bytes of data, the file has " + std::to_string(available));
  const uint8_t *data = bytes + prefixAndHeader;
  array.data.assign(data, data + dataSize);
  if (parsed->bigEndian)
    byteSwap(array.data, dtypeSize(array.dtype));
  if (array.dtype == DType::Bool)
    for (uint8_t &b : array.data)
      b = b != 0;
  return std::move(array);
}

Result<HostArray> readNpyFile(const std::string &path) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file)
    return Error{"cannot open '" + path + "': " + std::strerror(errno)};
  // Reads are bounded by what the header says: the magic is checked after
  // the first bytes, and no more than the header's data (and one byte to
  // tell a file that is too long) is read, so endless or huge inputs
  // (/dev/zero, a pipe) fail at once.
  std::vector<uint8_t> bytes;
  auto readUpTo = [&](size_t total) -> bool {
    uint8_t chunk[1 << 16];
    while (bytes.size() < total) {
      size_t want = std::min(sizeof(chunk), total - bytes.size());
      size_t n = std::fread(chunk, 1, want, file.get());
      bytes.insert(bytes.end(), chunk, chunk + n);
      if (n < want)
        return !std::ferror(file.get());
    }
    return true;
  };
  auto readError = [&] {
    return Error{"cannot read '" + path + "': " + std::strerror(errno)};
  };
  if (!readUpTo(magicSize + 2 + 4))
    return readError();
  size_t headerEnd = npyHeaderEnd(bytes.data(), bytes.size());
  bool magicOk = bytes.size() >= magicSize &&
                 std::memcmp(bytes.data(), magic, magicSize) == 0;
  if (!magicOk || headerEnd == 0)
    return readNpy(bytes.data(), bytes.size(), path); // says what is wrong
  constexpr size_t maxHeader = size_t(1) << 24;
  if (headerEnd > maxHeader)
    return Error{path + ": bad header: " + std::to_string(headerEnd) +
                 " bytes long (at most " + std::to_string(maxHeader) + ")"};
  if (!readUpTo(headerEnd))
    return readError();
  Result<NpyLayout> layout = parseNpyHeader(bytes.data(), bytes.size(), path);
  if (!layout)
    return Error{layout.error()};
  try {
    if (!readUpTo(layout->dataOffset + layout->dataSize + 1))
      return readError();
  } catch (const std::bad_alloc &) {
    return Error{path + ": out of memory reading " +
                 std::to_string(layout->dataSize) + " bytes of data"};
  }
  return readNpy(bytes.data(), bytes.size(), path);
}

Result<std::vector<uint8_t>> writeNpy(const HostArray &array) {
  if (Status valid = array.validate(); !valid)
    return Error{"cannot write an invalid array: " + valid.error()};
  std::string header = "{'descr': '";
  header += dtypeToNumpyDescr(array.dtype);
  header += "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    header += (i ? ", " : "") + std::to_string(array.shape[i]);
  if (array.shape.size() == 1)
    header += ',';
  header += "), }";

  // Version 1.0 unless the header overflows its 2-byte length.
  unsigned major = 1;
  size_t prefix = magicSize + 2 + 2;
  auto padded = [&] {
    size_t total = prefix + header.size() + 1;
    return header.size() + 1 +
           (headerAlign - total % headerAlign) % headerAlign;
  };
  if (padded() > std::numeric_limits<uint16_t>::max()) {
    major = 2;
    prefix = magicSize + 2 + 4;
  }
  size_t headerSize = padded();
  header.resize(headerSize - 1, ' ');
  header += '\n';

  std::vector<uint8_t> bytes;
  bytes.reserve(prefix + headerSize + array.data.size());
  bytes.insert(bytes.end(), magic, magic + magicSize);
  bytes.push_back(uint8_t(major));
  bytes.push_back(0);
  for (size_t i = 0; i < prefix - magicSize - 2; ++i)
    bytes.push_back(uint8_t(headerSize >> (8 * i)));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), array.data.begin(), array.data.end());
  return bytes;
}

Status writeNpyFile(const std::string &path, const HostArray &array) {
  Result<std::vector<uint8_t>> bytes = writeNpy(array);
  if (!bytes)
    return Error{path + ": " + bytes.error()};
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return Error{"cannot create '" + path + "': " + std::strerror(errno)};
  bool written =
      std::fwrite(bytes->data(), 1, bytes->size(), file) == bytes->size();
  int savedErrno = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    savedErrno = errno;
  }
  if (!written)
    return Error{"cannot write '" + path + "': " + std::strerror(savedErrno)};
  return Status::success();
}

} // namespace sluice::io
