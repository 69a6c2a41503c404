//===- ArrayIOTest.cpp - sluice-arrayio: npy, input specs, printing -------===//
#include "sluice/Support/ArrayIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

using namespace sluice::io;

namespace {

template <typename T>
HostArray make(DType dtype, std::vector<int64_t> shape,
               const std::vector<T> &values) {
  HostArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.data.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

HostArray f32(std::vector<int64_t> shape, const std::vector<float> &values) {
  return make(DType::F32, std::move(shape), values);
}

template <typename T> std::vector<T> values(const HostArray &array) {
  std::vector<T> out(array.data.size() / sizeof(T));
  if (!out.empty())
    std::memcpy(out.data(), array.data.data(), array.data.size());
  return out;
}

/// An .npy image with `header` (padded and ended with '\n' here) and `data`.
std::vector<uint8_t> npyImage(std::string header,
                              const std::vector<uint8_t> &data,
                              unsigned major = 1, unsigned minor = 0) {
  size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> bytes = {
      0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), uint8_t(minor)};
  for (size_t i = 0; i < prefix - 8; ++i)
    bytes.push_back(uint8_t(header.size() >> (8 * i)));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::vector<uint8_t> bytesOf(const std::vector<float> &v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

Result<HostArray> read(const std::vector<uint8_t> &image) {
  return readNpy(image.data(), image.size(), "t.npy");
}

/// The error of reading an image; fails the test when reading succeeds.
std::string readError(const std::vector<uint8_t> &image) {
  Result<HostArray> array = read(image);
  EXPECT_FALSE(array) << "read succeeded: " << formatArray(*array);
  return array ? std::string() : array.error();
}

std::string specError(const std::string &spec) {
  Result<HostArray> array = parseInputSpec(spec);
  EXPECT_FALSE(array) << spec << " parsed as " << formatArray(*array);
  return array ? std::string() : array.error();
}

HostArray spec(const std::string &text) {
  Result<HostArray> array = parseInputSpec(text);
  EXPECT_TRUE(array) << array.error();
  return array ? array.take() : HostArray();
}

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "/arrayio-" + name;
}

#define EXPECT_HAS(text, part)                                                 \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                   \
      << "'" << (text) << "' lacks '" << (part) << "'"

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

TEST(DTypeTest, NamesRoundTrip) {
  const char *names[] = {"i1",  "i8",   "i16",          "i32",         "i64",
                         "ui8", "ui16", "ui32",         "ui64",        "f16",
                         "f32", "f64",  "complex<f32>", "complex<f64>"};
  static_assert(std::size(names) == std::size(allDTypes));
  size_t i = 0;
  for (DType dtype : allDTypes) {
    EXPECT_STREQ(dtypeName(dtype), names[i++]);
    EXPECT_EQ(parseDTypeName(dtypeName(dtype)), dtype);
  }
  for (const char *bad : {"", "bool", "f8", "u8", "bf16", "F32", "i32 "})
    EXPECT_FALSE(parseDTypeName(bad)) << bad;
}

TEST(DTypeTest, SizesAndKinds) {
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::I16), 2u);
  EXPECT_EQ(dtypeSize(DType::U32), 4u);
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::F64), 8u);
  EXPECT_TRUE(isFloat(DType::F16));
  EXPECT_FALSE(isFloat(DType::I64));
  EXPECT_TRUE(isSignedInteger(DType::I8));
  EXPECT_FALSE(isSignedInteger(DType::Bool));
  EXPECT_TRUE(isUnsignedInteger(DType::U64));
  EXPECT_FALSE(isUnsignedInteger(DType::Bool));
}

TEST(DTypeTest, NumpyDescrs) {
  EXPECT_STREQ(dtypeToNumpyDescr(DType::F32), "<f4");
  EXPECT_STREQ(dtypeToNumpyDescr(DType::Bool), "|b1");
  EXPECT_STREQ(dtypeToNumpyDescr(DType::I64), "<i8");
  EXPECT_STREQ(dtypeToNumpyDescr(DType::U16), "<u2");
  EXPECT_STREQ(dtypeToNumpyDescr(DType::F16), "<f2");
  for (DType dtype : allDTypes) {
    Result<NumpyDescr> d = dtypeFromNumpyDescr(dtypeToNumpyDescr(dtype));
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->dtype, dtype);
    EXPECT_FALSE(d->bigEndian);
  }
  Result<NumpyDescr> big = dtypeFromNumpyDescr(">f4");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->dtype, DType::F32);
  EXPECT_TRUE(big->bigEndian);
  Result<NumpyDescr> native = dtypeFromNumpyDescr("=i4");
  ASSERT_TRUE(native);
  EXPECT_FALSE(native->bigEndian);
  // Byte order does not matter for one byte.
  for (const char *oneByte : {"<b1", ">b1", "=u1", ">i1"}) {
    Result<NumpyDescr> d = dtypeFromNumpyDescr(oneByte);
    ASSERT_TRUE(d) << oneByte;
    EXPECT_FALSE(d->bigEndian);
  }
}

TEST(DTypeTest, BadNumpyDescrs) {
  for (const char *bad : {"", "f4", "|f4", "<c32", "<U3", "<M8", "O", "<f4x",
                          "!f4", "<f16", "<V8"}) {
    Result<NumpyDescr> d = dtypeFromNumpyDescr(bad);
    ASSERT_FALSE(d) << bad;
    EXPECT_HAS(d.error(), std::string("'") + bad + "'");
  }
  EXPECT_HAS(dtypeFromNumpyDescr("|f4").error(), "byte order");
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

TEST(HalfTest, KnownValues) {
  EXPECT_EQ(halfToDouble(0x3c00), 1.0);
  EXPECT_EQ(halfToDouble(0xc000), -2.0);
  EXPECT_EQ(halfToDouble(0x7bff), 65504.0);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(halfToDouble(0x0400), std::ldexp(1.0, -14));
  EXPECT_TRUE(std::isinf(halfToDouble(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToDouble(0x7e00)));
  EXPECT_TRUE(std::signbit(halfToDouble(0x8000)));
}

TEST(HalfTest, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double value = halfToDouble(uint16_t(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(halfToDouble(doubleToHalf(value))));
      continue;
    }
    ASSERT_EQ(doubleToHalf(value), bits) << std::hex << bits;
  }
}

TEST(HalfTest, RoundsToNearestEven) {
  EXPECT_EQ(doubleToHalf(1 + std::ldexp(1.0, -11)), 0x3c00);     // tie, even
  EXPECT_EQ(doubleToHalf(1 + 3 * std::ldexp(1.0, -11)), 0x3c02); // tie, even
  EXPECT_EQ(doubleToHalf(1 + std::ldexp(1.1, -11)), 0x3c01);
  EXPECT_EQ(doubleToHalf(65519.0), 0x7bff);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00); // tie with 65536: inf
  EXPECT_EQ(doubleToHalf(-1e10), 0xfc00);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000); // tie, even
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0001, -25)), 0x0001);
  EXPECT_EQ(doubleToHalf(3 * std::ldexp(1.0, -25)), 0x0002);
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -14) - std::ldexp(1.0, -25)), 0x0400);
  EXPECT_EQ(doubleToHalf(1e-300), 0x0000);
  EXPECT_EQ(doubleToHalf(-1e-300), 0x8000);
  EXPECT_EQ(doubleToHalf(std::numeric_limits<double>::denorm_min()), 0);
}

//===----------------------------------------------------------------------===//
// Host arrays
//===----------------------------------------------------------------------===//

TEST(HostArrayTest, Basics) {
  HostArray a = HostArray::zeros(DType::I16, {2, 3});
  EXPECT_EQ(a.numElements(), 6);
  EXPECT_EQ(a.byteSize(), 12u);
  EXPECT_EQ(a.data.size(), 12u);
  EXPECT_TRUE(a.validate());
  HostArray scalar = HostArray::zeros(DType::F64, {});
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.rank(), 0);
  HostArray empty = HostArray::zeros(DType::F32, {3, 0});
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_TRUE(empty.data.empty());
  EXPECT_EQ(formatShapeType({2, 3}, DType::U8), "2x3xui8");
  EXPECT_EQ(formatShapeType({}, DType::Bool), "i1");
  EXPECT_EQ(formatShape({4, 0}), "4x0");
}

TEST(HostArrayTest, Validate) {
  HostArray a = HostArray::zeros(DType::F32, {2, 2});
  a.data.pop_back();
  Status s = a.validate();
  ASSERT_FALSE(s);
  EXPECT_HAS(s.error(), "2x2xf32 needs 16 bytes of data, has 15");
  a.shape = {-1};
  EXPECT_HAS(a.validate().error(), "negative dimension -1");
  Result<int64_t> huge =
      checkShape({int64_t(1) << 40, int64_t(1) << 40}, DType::F32);
  ASSERT_FALSE(huge);
  EXPECT_HAS(huge.error(), "too large");
  EXPECT_EQ(*checkShape({int64_t(1) << 40, 0}, DType::F32), 0);
}

//===----------------------------------------------------------------------===//
// .npy reading
//===----------------------------------------------------------------------===//

const char *f32Header2x3 =
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

TEST(NpyReadTest, Float2x3) {
  Result<HostArray> a =
      read(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6})));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->dtype, DType::F32);
  EXPECT_EQ(a->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(*a), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(NpyReadTest, ZeroDAndEmpty) {
  Result<HostArray> scalar = read(npyImage(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", bytesOf({7})));
  ASSERT_TRUE(scalar) << scalar.error();
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(values<float>(*scalar), std::vector<float>{7});

  for (const char *shape : {"(0,)", "(2, 0)", "(0, 5, 3)"}) {
    Result<HostArray> empty =
        read(npyImage(std::string("{'descr': '<i8', 'fortran_order': False, "
                                  "'shape': ") +
                          shape + ", }",
                      {}));
    ASSERT_TRUE(empty) << empty.error();
    EXPECT_EQ(empty->numElements(), 0);
  }
}

TEST(NpyReadTest, Versions) {
  for (unsigned major : {1u, 2u, 3u}) {
    Result<HostArray> a =
        read(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6}), major));
    ASSERT_TRUE(a) << "version " << major << ": " << a.error();
    EXPECT_EQ(values<float>(*a)[5], 6.0f);
  }
}

TEST(NpyReadTest, HeaderVariants) {
  // Keys in any order, double quotes, no trailing comma, Python 2 longs,
  // extra spaces.
  for (const char *header :
       {"{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
        "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,3)}",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }",
        "  { 'descr' : '<f4' ,'fortran_order':False,'shape':( 2 , 3 , ) }"}) {
    Result<HostArray> a = read(npyImage(header, bytesOf({1, 2, 3, 4, 5, 6})));
    ASSERT_TRUE(a) << header << ": " << a.error();
    EXPECT_EQ(a->shape, (std::vector<int64_t>{2, 3}));
  }
}

TEST(NpyReadTest, BigEndianIsConverted) {
  std::vector<uint8_t> data = {0x00, 0x00, 0x01, 0x02, 0xff, 0xff, 0xff, 0xfe};
  Result<HostArray> a = read(npyImage(
      "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", data));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->dtype, DType::I32);
  EXPECT_EQ(values<int32_t>(*a), (std::vector<int32_t>{0x102, -2}));

  std::vector<uint8_t> one = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0}; // 1.0
  Result<HostArray> d = read(
      npyImage("{'descr': '>f8', 'fortran_order': False, 'shape': (), }", one));
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(values<double>(*d), std::vector<double>{1.0});
}

TEST(NpyReadTest, BoolsAreNormalised) {
  Result<HostArray> a = read(npyImage(
      "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", {0, 1, 7}));
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->data, (std::vector<uint8_t>{0, 1, 1}));
}

TEST(NpyReadTest, FortranOrderIsAnError) {
  std::string e = readError(
      npyImage("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
               bytesOf({1, 2, 3, 4, 5, 6})));
  EXPECT_HAS(e, "t.npy: ");
  EXPECT_HAS(e, "Fortran-order arrays");
  EXPECT_HAS(e, "not supported");
}

TEST(NpyReadTest, BadMagicAndTruncation) {
  EXPECT_HAS(readError({}), "empty file");
  std::vector<uint8_t> text(100, 'x');
  EXPECT_HAS(readError(text), "not an .npy file");
  EXPECT_HAS(readError({0x93, 'N', 'U', 'M'}), "truncated");
  std::vector<uint8_t> image =
      npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6}));
  // Cut inside the length field, inside the header, inside the data.
  for (size_t keep : {9ul, 30ul, image.size() - 1}) {
    std::vector<uint8_t> cut(image.begin(), image.begin() + keep);
    EXPECT_HAS(readError(cut), "truncated");
  }
  std::vector<uint8_t> v2 =
      npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6}), 2);
  EXPECT_HAS(readError({v2.begin(), v2.begin() + 11}), "truncated");
  std::vector<uint8_t> cut(image.begin(), image.end() - 4);
  EXPECT_HAS(readError(cut), "needs 24 bytes of data, the file has 20");
}

TEST(NpyReadTest, Versions4AndMinorsAreErrors) {
  EXPECT_HAS(readError(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6}), 4)),
             "unsupported .npy format version 4.0");
  EXPECT_HAS(
      readError(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6}), 1, 1)),
      "version 1.1");
}

TEST(NpyReadTest, DataSizeMismatch) {
  EXPECT_HAS(readError(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5}))),
             "truncated: shape (2x3) of <f4 needs 24 bytes");
  EXPECT_HAS(readError(npyImage(f32Header2x3, bytesOf({1, 2, 3, 4, 5, 6, 7}))),
             "too long");
}

TEST(NpyReadTest, BadHeaders) {
  struct Case {
    const char *header;
    const char *error;
  } cases[] = {
      {"['descr']", "expected '{'"},
      {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
      {"{'descr': '<f4', 'shape': (1,)}", "missing key 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (1,)}", "missing key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 'y'}",
       "unexpected key 'x'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': "
       "(1,)}",
       "duplicate key 'descr'"},
      {"{'descr': 4, 'fortran_order': False, 'shape': (1,)}",
       "expected a string, True, False or a tuple"},
      {"{'descr': (4,), 'fortran_order': False, 'shape': (1,)}",
       "'descr' is not a string"},
      {"{'descr': '<f4', 'fortran_order': 'no', 'shape': (1,)}",
       "'fortran_order' is not True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [1]}",
       "structured dtypes"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': 'x'}",
       "'shape' is not a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, x)}",
       "expected an integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}",
       "expected ',' or ')'"},
      {"{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}",
       "expected ',' or '}'"},
      {"{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}",
       "expected ':' after key 'descr'"},
      {"{'descr: '<f4', 'fortran_order': False, 'shape': (1,)}",
       "expected ':'"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}", "expected"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x",
       "unexpected text after the dict"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)",
       "expected ',' or '}'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
       "structured dtypes (a list as descr) are not supported"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
       "negative dimension -1"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,)}",
       "out of range"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
       "4294967296)}",
       "too large"},
  };
  for (const Case &c : cases) {
    std::string e = readError(npyImage(c.header, bytesOf({1})));
    EXPECT_HAS(e, c.error);
  }
}

TEST(NpyReadTest, UnknownDTypes) {
  for (const char *descr : {"<c32", "<U3", "|O", "<M8[s]", "|V4", "<f16"}) {
    std::string e =
        readError(npyImage(std::string("{'descr': '") + descr +
                               "', 'fortran_order': False, 'shape': (1,), }",
                           bytesOf({1})));
    EXPECT_HAS(e, std::string("unsupported dtype '") + descr + "'");
  }
}

TEST(NpyReadTest, NonAsciiHeaderNeedsVersion3) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(1,), }   \xc3\xa9";
  EXPECT_HAS(readError(npyImage(header, bytesOf({1}), 1)), "ASCII");
  // Version 3.0 allows UTF-8; the text after the dict is still wrong.
  EXPECT_HAS(readError(npyImage(header, bytesOf({1}), 3)),
             "unexpected text after the dict");
}

TEST(NpyReadTest, MissingFile) {
  Result<HostArray> a = readNpyFile(tempPath("does-not-exist.npy"));
  ASSERT_FALSE(a);
  EXPECT_HAS(a.error(), "cannot open");
  EXPECT_HAS(a.error(), "does-not-exist.npy");
  EXPECT_HAS(a.error(), "No such file");
}

//===----------------------------------------------------------------------===//
// .npy writing
//===----------------------------------------------------------------------===//

/// A small array of `dtype` with distinct, type-appropriate values.
HostArray sample(DType dtype, std::vector<int64_t> shape) {
  HostArray a = HostArray::zeros(dtype, std::move(shape));
  for (size_t i = 0; i < a.data.size(); ++i)
    a.data[i] = dtype == DType::Bool ? uint8_t(i % 3 == 0) : uint8_t(i * 37);
  if (dtype == DType::F16 || dtype == DType::F32 || dtype == DType::F64) {
    // Avoid nan bit patterns: they need not round-trip the same way.
    for (int64_t i = 0; i < a.numElements(); ++i) {
      double v = (i - 3) * 1.25;
      size_t size = dtypeSize(dtype);
      uint8_t *p = a.data.data() + i * size;
      if (dtype == DType::F16) {
        uint16_t h = doubleToHalf(v);
        std::memcpy(p, &h, 2);
      } else if (dtype == DType::F32) {
        float f = float(v);
        std::memcpy(p, &f, 4);
      } else {
        std::memcpy(p, &v, 8);
      }
    }
  }
  return a;
}

TEST(NpyWriteTest, HeaderIsNumpys) {
  Result<std::vector<uint8_t>> bytes = writeNpy(sample(DType::F32, {5}));
  ASSERT_TRUE(bytes) << bytes.error();
  ASSERT_GE(bytes->size(), 10u);
  EXPECT_EQ(std::memcmp(bytes->data(), "\x93NUMPY\x01\x00", 8), 0);
  size_t headerSize = (*bytes)[8] | ((*bytes)[9] << 8);
  EXPECT_EQ((10 + headerSize) % 64, 0u);
  EXPECT_EQ(bytes->size(), 10 + headerSize + 20);
  std::string header(bytes->begin() + 10, bytes->begin() + 10 + headerSize);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (5,), }",
                         0),
            0u)
      << header;
  EXPECT_EQ(header.back(), '\n');

  Result<std::vector<uint8_t>> scalar = writeNpy(sample(DType::Bool, {}));
  ASSERT_TRUE(scalar);
  std::string text(scalar->begin(), scalar->end());
  EXPECT_HAS(text, "'descr': '|b1'");
  EXPECT_HAS(text, "'shape': ()");
  Result<std::vector<uint8_t>> matrix = writeNpy(sample(DType::U16, {2, 3}));
  ASSERT_TRUE(matrix);
  EXPECT_HAS(std::string(matrix->begin(), matrix->end()), "'shape': (2, 3)");
}

TEST(NpyWriteTest, RoundTripsEveryDType) {
  for (DType dtype : allDTypes) {
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{}, {0}, {7}, {2, 3}, {2, 0, 3}, {1, 2, 1, 3}}) {
      HostArray a = sample(dtype, shape);
      Result<std::vector<uint8_t>> bytes = writeNpy(a);
      ASSERT_TRUE(bytes) << bytes.error();
      Result<HostArray> b = read(*bytes);
      ASSERT_TRUE(b) << b.error();
      EXPECT_EQ(b->dtype, a.dtype);
      EXPECT_EQ(b->shape, a.shape);
      EXPECT_EQ(b->data, a.data) << formatShapeType(shape, dtype);
    }
  }
}

TEST(NpyWriteTest, HugeHeaderUsesVersion2) {
  // 30000 dimensions of 1: a header beyond version 1.0's 64 KiB.
  HostArray a = HostArray::zeros(DType::I8, std::vector<int64_t>(30000, 1));
  a.data[0] = 42;
  Result<std::vector<uint8_t>> bytes = writeNpy(a);
  ASSERT_TRUE(bytes) << bytes.error();
  EXPECT_EQ((*bytes)[6], 2);
  uint32_t headerSize = (*bytes)[8] | ((*bytes)[9] << 8) |
                        ((*bytes)[10] << 16) | (uint32_t((*bytes)[11]) << 24);
  EXPECT_GT(headerSize, 65535u);
  EXPECT_EQ((12 + headerSize) % 64, 0u);
  Result<HostArray> b = read(*bytes);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ(b->shape.size(), 30000u);
  EXPECT_EQ(b->data, a.data);
}

TEST(NpyWriteTest, InvalidArraysAreErrors) {
  HostArray a = sample(DType::F32, {2, 2});
  a.data.resize(3);
  Result<std::vector<uint8_t>> bytes = writeNpy(a);
  ASSERT_FALSE(bytes);
  EXPECT_HAS(bytes.error(), "cannot write an invalid array");
  Status s = writeNpyFile(tempPath("invalid.npy"), a);
  ASSERT_FALSE(s);
  EXPECT_HAS(s.error(), "invalid.npy");
}

TEST(NpyWriteTest, Files) {
  std::string path = tempPath("round-trip.npy");
  HostArray a = sample(DType::F64, {3, 4});
  ASSERT_TRUE(writeNpyFile(path, a));
  Result<HostArray> b = readNpyFile(path);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ(b->data, a.data);
  std::remove(path.c_str());

  Status s = writeNpyFile(tempPath("no-such-dir/x.npy"), a);
  ASSERT_FALSE(s);
  EXPECT_HAS(s.error(), "cannot create");
  EXPECT_HAS(s.error(), "no-such-dir/x.npy");
  // A directory is not an .npy file.
  Result<HostArray> dir = readNpyFile(::testing::TempDir());
  EXPECT_FALSE(dir);
}

//===----------------------------------------------------------------------===//
// Input specs
//===----------------------------------------------------------------------===//

TEST(InputSpecTest, NestedFlatAndIree) {
  std::vector<float> expected = {1, 2, 3, 4, 5, 6};
  for (const char *text :
       {"2x3xf32=[[1,2,3],[4,5,6]]", "2x3xf32=[[1 2 3][4 5 6]]",
        "2x3xf32=[1 2 3 4 5 6]", "2x3xf32=[1,2,3,4,5,6]",
        "2x3xf32=[1, 2, 3, 4, 5, 6,]", "2x3xf32=[1 2 3][4 5 6]",
        "2x3xf32=1 2 3 4 5 6", "2x3xf32=1,2,3,4,5,6",
        "  2x3xf32 = [ [ 1 , 2 , 3 ] , [ 4 , 5 , 6 ] ]  ",
        "2x3xf32=[[1.0,2e0,0x3],[4,5.,6]]"}) {
    HostArray a = spec(text);
    EXPECT_EQ(a.dtype, DType::F32) << text;
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3})) << text;
    EXPECT_EQ(values<float>(a), expected) << text;
  }
  HostArray deep = spec("2x1x2xi32=[[[1,2]],[[3,4]]]");
  EXPECT_EQ(values<int32_t>(deep), (std::vector<int32_t>{1, 2, 3, 4}));
  HostArray one = spec("1x2xi32=[[1, 2]]");
  EXPECT_EQ(values<int32_t>(one), (std::vector<int32_t>{1, 2}));
  HostArray oneFlat = spec("1x2xi32=[1, 2]");
  EXPECT_EQ(values<int32_t>(oneFlat), (std::vector<int32_t>{1, 2}));
}

TEST(InputSpecTest, SplatsAndScalars) {
  HostArray splat = spec("2x3xf32=1.5");
  EXPECT_EQ(values<float>(splat), std::vector<float>(6, 1.5f));
  HostArray s = spec("f32=2.5");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(values<float>(s), std::vector<float>{2.5f});
  HostArray i = spec("i64=-3");
  EXPECT_EQ(i.dtype, DType::I64);
  EXPECT_EQ(values<int64_t>(i), std::vector<int64_t>{-3});
  HostArray f = spec("f32=3");
  EXPECT_EQ(values<float>(f), std::vector<float>{3});
  HostArray bracketed = spec("f64=[0.25]");
  EXPECT_EQ(values<double>(bracketed), std::vector<double>{0.25});
  HostArray emptySplat = spec("0x4xf32=7");
  EXPECT_EQ(emptySplat.numElements(), 0);
}

TEST(InputSpecTest, Bools) {
  HostArray b = spec("4xi1=[true,false,1,0]");
  EXPECT_EQ(b.dtype, DType::Bool);
  EXPECT_EQ(b.data, (std::vector<uint8_t>{1, 0, 1, 0}));
  EXPECT_EQ(spec("i1=True").data, std::vector<uint8_t>{1});
  EXPECT_EQ(spec("2xi1=False").data, (std::vector<uint8_t>{0, 0}));
}

TEST(InputSpecTest, Empty) {
  EXPECT_EQ(spec("0xf32=[]").numElements(), 0);
  EXPECT_EQ(spec("2x0xf32=[[],[]]").shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(spec("2x0xf32=[[][]]").shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(spec("0x3xi8=[]").shape, (std::vector<int64_t>{0, 3}));
}

TEST(InputSpecTest, Integers) {
  EXPECT_EQ(values<int8_t>(spec("4xi8=[-128, 127, 0x7f, -0x80]")),
            (std::vector<int8_t>{-128, 127, 127, -128}));
  EXPECT_EQ(values<uint8_t>(spec("2xui8=[255, 0xFF]")),
            (std::vector<uint8_t>{255, 255}));
  EXPECT_EQ(values<int16_t>(spec("2xi16=[-32768, +32767]")),
            (std::vector<int16_t>{-32768, 32767}));
  EXPECT_EQ(values<uint16_t>(spec("ui16=65535")), std::vector<uint16_t>{65535});
  EXPECT_EQ(values<int32_t>(spec("2xi32=[-2147483648, 2147483647]")),
            (std::vector<int32_t>{INT32_MIN, INT32_MAX}));
  EXPECT_EQ(values<uint32_t>(spec("ui32=4294967295")),
            std::vector<uint32_t>{UINT32_MAX});
  EXPECT_EQ(values<int64_t>(spec("2xi64=[-9223372036854775808, "
                                 "0x7fffffffffffffff]")),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
  EXPECT_EQ(values<uint64_t>(spec("ui64=18446744073709551615")),
            std::vector<uint64_t>{UINT64_MAX});
  EXPECT_EQ(values<uint32_t>(spec("ui32=-0")), std::vector<uint32_t>{0});
}

TEST(InputSpecTest, Floats) {
  std::vector<float> f =
      values<float>(spec("7xf32=[inf, -inf, nan, 1e-3, -0.0, 0x1p-3, .5]"));
  EXPECT_TRUE(std::isinf(f[0]) && f[0] > 0);
  EXPECT_TRUE(std::isinf(f[1]) && f[1] < 0);
  EXPECT_TRUE(std::isnan(f[2]));
  EXPECT_EQ(f[3], 1e-3f);
  EXPECT_TRUE(f[4] == 0 && std::signbit(f[4]));
  EXPECT_EQ(f[5], 0.125f);
  EXPECT_EQ(f[6], 0.5f);
  std::vector<double> d = values<double>(
      spec("4xf64=[Infinity, -NaN, 1e-320, 1.7976931348623157e308]"));
  EXPECT_TRUE(std::isinf(d[0]));
  EXPECT_TRUE(std::isnan(d[1]));
  EXPECT_GT(d[2], 0); // subnormal
  EXPECT_EQ(d[3], std::numeric_limits<double>::max());
  // Below the smallest subnormal: zero, as in NumPy.
  EXPECT_EQ(values<float>(spec("f32=1e-50")), std::vector<float>{0});
  EXPECT_EQ(values<double>(spec("f64=1e-400")), std::vector<double>{0});
  // The largest finite float, and a value that rounds down to it.
  EXPECT_EQ(values<float>(spec("2xf32=[3.4028235e38, 3.40282356e38]")),
            std::vector<float>(2, std::numeric_limits<float>::max()));
  std::vector<uint16_t> h = values<uint16_t>(spec("3xf16=[1, 65504, -2]"));
  EXPECT_EQ(h, (std::vector<uint16_t>{0x3c00, 0x7bff, 0xc000}));
}

TEST(InputSpecTest, Files) {
  std::string path = tempPath("spec.npy");
  HostArray a = sample(DType::I32, {2, 3});
  ASSERT_TRUE(writeNpyFile(path, a));
  for (std::string text : {"@" + path, " @" + path + " ", "2x3xi32=@" + path}) {
    HostArray b = spec(text);
    EXPECT_EQ(b.dtype, DType::I32);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
  std::string e = specError("3x2xi32=@" + path);
  EXPECT_HAS(e, "holds 2x3xi32, not 3x2xi32");
  EXPECT_HAS(specError("2x3xf32=@" + path), "holds 2x3xi32, not 2x3xf32");
  EXPECT_HAS(specError("@"), "no file name after '@'");
  EXPECT_HAS(specError("f32=@"), "no file name after '@'");
  std::string missing = specError("@" + tempPath("missing.npy"));
  EXPECT_HAS(missing, "cannot open");
  EXPECT_HAS(missing, "missing.npy");
  std::remove(path.c_str());
}

TEST(InputSpecTest, DeepNestingIsAnErrorNotAStackOverflow) {
  // The list parser recurses once per level: 30,000 '[' once overflowed
  // the stack.
  for (size_t depth : {257, 30000, 1000000}) {
    std::string text =
        "f32=" + std::string(depth, '[') + "1" + std::string(depth, ']');
    EXPECT_HAS(specError(text), "lists nest deeper than 256 levels");
    EXPECT_HAS(specError("f32=" + std::string(depth, '[')),
               "lists nest deeper than 256 levels");
  }
  // Deep but allowed nesting still parses (and fails on the shape only).
  std::string ok = "f32=" + std::string(256, '[') + "1" + std::string(256, ']');
  EXPECT_HAS(specError(ok), "nested lists");
}

TEST(NpyReadTest, EndlessOrHugeInputsAreBounded) {
  // /dev/zero: the magic is checked after the first bytes, not after
  // reading forever.
  Result<HostArray> zero = readNpyFile("/dev/zero");
  ASSERT_FALSE(zero);
  EXPECT_HAS(zero.error(), "not an .npy file (no \\x93NUMPY magic)");
  EXPECT_HAS(specError("@/dev/zero"), "no \\x93NUMPY magic");
  // A header that claims more data than the file holds, and a file with
  // data after what the header claims.
  std::string path = tempPath("bounded.npy");
  HostArray a = sample(DType::F32, {4});
  ASSERT_TRUE(writeNpyFile(path, a));
  {
    FILE *f = std::fopen(path.c_str(), "ab");
    ASSERT_TRUE(f);
    std::fputs("extra", f);
    std::fclose(f);
  }
  Result<HostArray> longer = readNpyFile(path);
  ASSERT_FALSE(longer);
  EXPECT_HAS(longer.error(), "too long");
  Result<std::vector<uint8_t>> image = writeNpy(sample(DType::F32, {4}));
  ASSERT_TRUE(image);
  std::vector<uint8_t> truncated(image->begin(), image->end() - 4);
  {
    FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fwrite(truncated.data(), 1, truncated.size(), f);
    std::fclose(f);
  }
  Result<HostArray> shorter = readNpyFile(path);
  ASSERT_FALSE(shorter);
  EXPECT_HAS(shorter.error(), "truncated");
  // The header of a 2^40-element array followed by no data: not read
  // beyond the file.
  std::string header = "{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (1099511627776,), }";
  header.resize(117, ' ');
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8) +
                     std::string(1, char(header.size())) + std::string(1, 0) +
                     header;
  {
    FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fwrite(file.data(), 1, file.size(), f);
    std::fclose(f);
  }
  Result<HostArray> huge = readNpyFile(path);
  ASSERT_FALSE(huge);
  EXPECT_HAS(huge.error(), "truncated");
  std::remove(path.c_str());
}

TEST(InputSpecTest, Errors) {
  struct Case {
    const char *spec;
    const char *error;
  } cases[] = {
      {"", "empty input"},
      {"   ", "empty input"},
      {"2x3xf32", "expected TYPE=VALUE"},
      {"2x3xf32=", "no value after '='"},
      {"2x3xf32=  ", "no value after '='"},
      {"2x3xq32=1", "unknown element type 'q32'"},
      {"2x3xfloat32=1", "unknown element type 'float32'"},
      {"2x3=1", "no element type after dimension 3"},
      {"2x3x=1", "no element type"},
      {"=1", "no element type"},
      {"2y3xf32=1", "no element type after dimension 2"},
      {"?x3xf32=1", "dimensions must be static"},
      {"-2x3xf32=1", "dimensions must be static"},
      {"99999999999999999999xf32=1", "dimension 99999999999999999999 is "
                                     "too large"},
      {"4294967296x4294967296xf32=1", "too large"},
      {"2x3xf32=[[1,2,3],[4,5]]",
       "the list '[4,5]' at column 18 has 2 elements, dimension 1 of 2x3xf32 "
       "has 3"},
      {"2x3xf32=[[1,2,3],[4,5,6],[7,8,9]]",
       "the outer list has 3 elements, dimension 0 of 2x3xf32 has 2"},
      {"2x3xf32=[1,2,3,4,5]",
       "2x3xf32 has 6 elements, the list has 5 (give all elements"},
      {"3xf32=[1,2]", "3xf32 has 3 elements, the list has 2"},
      {"4xf32=[5]", "4xf32 has 4 elements, the list has 1"},
      {"2x3xf32=[[1,2,3],[4,5,6]", "no ']' to close the '[' at column 9"},
      {"2x3xf32=[[1,2,3],[4,5,6]]]", "unmatched ']' at column 26"},
      {"3xf32=[1,,2]", "empty element before the ',' at column 10"},
      {"3xf32=[,1,2]", "empty element before the ',' at column 8"},
      {"3xf32=[1,2,x]", "'x' is not a number (f32) at column 12"},
      {"f32=1.5f", "'1.5f' is not a number (f32)"},
      {"f32=nan(1)", "'nan(1)' is not a number"},
      {"f32=infx", "'infx' is not a number"},
      {"f32=e5", "'e5' is not a number"},
      {"f32=0x", "'0x' is not a number"},
      {"f32=--1", "'--1' is not a number"},
      {"i8=300", "'300' is out of range for i8 [-128, 127]"},
      {"i8=-129", "'-129' is out of range for i8"},
      {"ui8=256", "'256' is out of range for ui8 [0, 255]"},
      {"ui8=-1", "'-1' is out of range for ui8"},
      {"i16=0x8000", "out of range for i16 [-32768, 32767]"},
      {"i32=2147483648", "out of range for i32"},
      {"ui32=4294967296", "out of range for ui32"},
      {"i64=9223372036854775808", "out of range for i64"},
      {"i64=-9223372036854775809", "out of range for i64"},
      {"ui64=18446744073709551616", "out of range for ui64"},
      {"i32=1.5", "'1.5' is not an integer (i32)"},
      {"i32=1e3", "'1e3' is not an integer (i32)"},
      {"i32=0x", "'0x' is not an integer"},
      {"i32=+", "'+' is not an integer"},
      {"i32=abc", "'abc' is not an integer"},
      {"f32=1e39", "'1e39' is out of range for f32"},
      {"f32=-3.5e38", "out of range for f32"},
      {"f16=65520", "'65520' is out of range for f16 (largest 65504)"},
      {"f64=1e400", "'1e400' is out of range for f64"},
      {"f64=-1e400", "out of range for f64"},
      {"4xi1=[true,false,2,0]", "'2' is not an i1 (bool) value"},
      {"i1=yes", "'yes' is not an i1 (bool) value"},
      {"2x2xf32=[[1,2],[3,[4]]]", "expected a number, found the list '[4]' at "
                                  "column 19: lists nest deeper "
                                  "than the 2 dimensions of 2x2xf32"},
      {"2x2xf32=[[1,2],3]", "expected a list for dimension 1 of 2x2xf32, "
                            "found '3' at column 16"},
      {"f32=[[1]]", "a 0-d f32 takes one value, not nested lists"},
      {"f32=1 2", "f32 has 1 element, the list has 2"},
      {"2x2xf32=[[1,2],[3,4]] 5", "found the list '[1,2]' at column 10"},
      {"2x2xf32=[1,2][3,4][5,6]", "the outer list has 3 elements"},
      {"4xf32=[1 2 ... 4]", "'...' at column 12 elides elements"},
  };
  for (const Case &c : cases) {
    std::string e = specError(c.spec);
    EXPECT_EQ(e.rfind("input '", 0), 0u) << e;
    EXPECT_HAS(e, c.error);
  }
}

TEST(InputSpecTest, LongSpecsAreClippedInMessages) {
  std::string text = "1000xf32=[";
  for (int i = 0; i < 999; ++i)
    text += "1 ";
  text += "x]";
  std::string e = specError(text);
  EXPECT_LT(e.size(), 300u);
  EXPECT_HAS(e, "'x' is not a number");
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

TEST(PrintTest, Format) {
  EXPECT_EQ(formatArray(f32({2, 2}, {1, 2, 3, 4})), "2x2xf32=[[1 2][3 4]]");
  EXPECT_EQ(formatArray(f32({}, {2.5})), "f32=2.5");
  EXPECT_EQ(formatArray(f32({3}, {0.1f, -1.5f, 1e20f})),
            "3xf32=[0.1 -1.5 1e+20]");
  EXPECT_EQ(formatArray(make<uint8_t>(DType::Bool, {3}, {1, 0, 1})),
            "3xi1=[true false true]");
  EXPECT_EQ(formatArray(f32({0}, {})), "0xf32=[]");
  EXPECT_EQ(formatArray(f32({2, 0}, {})), "2x0xf32=[[][]]");
  EXPECT_EQ(formatArray(f32({0, 2}, {})), "0x2xf32=[]");
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(formatArray(f32({3}, {std::nanf(""), inf, -inf})),
            "3xf32=[nan inf -inf]");
  EXPECT_EQ(formatArray(f32({}, {-std::nanf("")})), "f32=nan");
  EXPECT_EQ(formatArray(make<double>(DType::F64, {2}, {0.1, 1.0 / 3})),
            "2xf64=[0.1 0.3333333333333333]");
  EXPECT_EQ(formatArray(make<int64_t>(DType::I64, {2}, {INT64_MIN, -1})),
            "2xi64=[-9223372036854775808 -1]");
  EXPECT_EQ(formatArray(make<uint64_t>(DType::U64, {}, {UINT64_MAX})),
            "ui64=18446744073709551615");
  EXPECT_EQ(formatArray(make<int8_t>(DType::I8, {2}, {-128, 127})),
            "2xi8=[-128 127]");
  EXPECT_EQ(formatArray(make<uint8_t>(DType::U8, {1}, {200})), "1xui8=[200]");
  EXPECT_EQ(formatArray(make<uint16_t>(
                DType::F16, {4}, {doubleToHalf(0.1), 0x7bff, 0x0001, 0xfc00})),
            "4xf16=[0.1 65504 6e-08 -inf]");
  EXPECT_EQ(formatArray(make<uint16_t>(
                DType::F16, {3},
                {doubleToHalf(2048), doubleToHalf(-0.0), doubleToHalf(1.5)})),
            "3xf16=[2048 -0 1.5]");
  EXPECT_EQ(formatArray(f32({3}, {2048, -0.0f, 16777216})),
            "3xf32=[2048 -0 16777216]");
}

TEST(PrintTest, Invalid) {
  HostArray a = f32({2}, {1, 2});
  a.data.pop_back();
  EXPECT_HAS(formatArray(a), "2xf32=<invalid:");
}

/// Every array prints to a spec that parses back to the same bytes.
void expectRoundTrip(const HostArray &a) {
  std::string text = formatArray(a);
  Result<HostArray> b = parseInputSpec(text);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ(b->dtype, a.dtype) << text;
  EXPECT_EQ(b->shape, a.shape) << text;
  EXPECT_EQ(b->data, a.data) << text;
}

TEST(PrintTest, RoundTripsThroughParse) {
  for (DType dtype : allDTypes)
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{}, {0}, {5}, {2, 3}, {3, 0}, {2, 1, 3}})
      expectRoundTrip(sample(dtype, shape));
}

TEST(PrintTest, RandomFloatBitsRoundTrip) {
  std::mt19937_64 rng(42);
  const int n = 20000;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<uint16_t> halves;
  while (int(floats.size()) < n) {
    uint64_t bits = rng();
    float f;
    uint32_t low = uint32_t(bits);
    std::memcpy(&f, &low, 4);
    if (!std::isnan(f))
      floats.push_back(f);
    double d;
    std::memcpy(&d, &bits, 8);
    if (!std::isnan(d))
      doubles.push_back(d);
    uint16_t h = uint16_t(bits >> 48);
    if (!std::isnan(halfToDouble(h)))
      halves.push_back(h);
  }
  // Common magnitudes too, where shortest output is short.
  std::uniform_real_distribution<float> uniform(-10, 10);
  for (int i = 0; i < n; ++i)
    floats.push_back(uniform(rng));
  expectRoundTrip(f32({int64_t(floats.size())}, floats));
  expectRoundTrip(make(DType::F64, {int64_t(doubles.size())}, doubles));
  expectRoundTrip(make(DType::F16, {int64_t(halves.size())}, halves));
}

TEST(PrintTest, Elision) {
  std::vector<int32_t> v(100);
  for (int i = 0; i < 100; ++i)
    v[i] = i;
  HostArray line = make(DType::I32, {100}, v);
  PrintOptions six;
  six.maxElements = 6;
  EXPECT_EQ(formatArray(line, six), "100xi32=[0 1 2 ... 97 98 99]");
  PrintOptions one;
  one.maxElements = 1;
  EXPECT_EQ(formatArray(line, one), "100xi32=[0 ... 99]");
  PrintOptions all;
  all.maxElements = 100;
  EXPECT_EQ(formatArray(line, all), formatArray(line));

  HostArray square = make(DType::I32, {10, 10}, v);
  PrintOptions sixteen;
  sixteen.maxElements = 16;
  EXPECT_EQ(formatArray(square, sixteen),
            "10x10xi32=[[0 1 ... 8 9][10 11 ... 18 19]...[80 81 ... 88 89]"
            "[90 91 ... 98 99]]");
  // A short dimension prints whole.
  HostArray wide = make(DType::I32, {2, 50}, v);
  EXPECT_EQ(formatArray(wide, six), "2x50xi32=[[0 ... 49][50 ... 99]]");
  PrintOptions eight;
  eight.maxElements = 8;
  EXPECT_EQ(formatArray(wide, eight),
            "2x50xi32=[[0 1 ... 48 49][50 51 ... 98 99]]");
  // The elided text is not an input spec.
  std::string e = specError(formatArray(line, six));
  EXPECT_HAS(e, "'...' at column 16 elides elements");
}

//===----------------------------------------------------------------------===//
// allClose
//===----------------------------------------------------------------------===//

TEST(AllCloseTest, Floats) {
  std::string why;
  EXPECT_TRUE(allClose(f32({3}, {1, 2, 3}), f32({3}, {1, 2, 3}), 0, 0, why));
  EXPECT_TRUE(why.empty());
  EXPECT_TRUE(
      allClose(f32({2}, {1, 100}), f32({2}, {1.001f, 100.1f}), 1e-2, 0, why));
  EXPECT_TRUE(allClose(f32({1}, {0}), f32({1}, {1e-9f}), 0, 1e-8, why));
  EXPECT_FALSE(allClose(f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {1, 2.5f, 3, 5}),
                        1e-5, 1e-8, why));
  EXPECT_HAS(why, "2 of 4 elements differ; first at [0, 1]: 2 vs 2.5");
  EXPECT_HAS(why, "largest difference 1");
  // b is the reference: |a - b| <= atol + rtol * |b|.
  EXPECT_TRUE(allClose(f32({1}, {1}), f32({1}, {2}), 0.5, 0, why));
  EXPECT_FALSE(allClose(f32({1}, {2}), f32({1}, {1}), 0.5, 0, why));
}

TEST(AllCloseTest, NanAndInf) {
  float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  std::string why;
  EXPECT_FALSE(allClose(f32({1}, {nan}), f32({1}, {nan}), 1, 1, why));
  EXPECT_HAS(why, "nan vs nan");
  EXPECT_TRUE(allClose(f32({1}, {nan}), f32({1}, {nan}), 1, 1, why, true));
  EXPECT_FALSE(allClose(f32({1}, {nan}), f32({1}, {1}), 1, 1, why, true));
  EXPECT_FALSE(allClose(f32({1}, {1}), f32({1}, {nan}), 1, 1, why, true));
  EXPECT_TRUE(
      allClose(f32({2}, {inf, -inf}), f32({2}, {inf, -inf}), 0, 0, why));
  EXPECT_FALSE(allClose(f32({1}, {inf}), f32({1}, {-inf}), 1, 1, why));
  EXPECT_FALSE(allClose(f32({1}, {inf}), f32({1}, {3e38f}), 1, 1, why));
  EXPECT_HAS(why, "inf vs 3e+38");
}

TEST(AllCloseTest, IntegersAndBoolsAreExact) {
  std::string why;
  HostArray a = make<int32_t>(DType::I32, {3}, {1, 2, 3});
  HostArray b = make<int32_t>(DType::I32, {3}, {1, 2, 4});
  EXPECT_TRUE(allClose(a, a, 0, 0, why));
  EXPECT_FALSE(allClose(a, b, 1, 10, why));
  EXPECT_HAS(why, "1 of 3 elements differ; first at [2]: 3 vs 4");
  EXPECT_EQ(why.find("rtol"), std::string::npos);
  HostArray t = make<uint8_t>(DType::Bool, {2}, {1, 0});
  HostArray f = make<uint8_t>(DType::Bool, {2}, {1, 1});
  EXPECT_FALSE(allClose(t, f, 1, 1, why));
  EXPECT_HAS(why, "first at [1]: false vs true");
  HostArray big = make<uint64_t>(DType::U64, {1}, {UINT64_MAX});
  HostArray bigger = make<uint64_t>(DType::U64, {1}, {UINT64_MAX - 1});
  EXPECT_FALSE(allClose(big, bigger, 1, 1, why)); // no rounding to double
}

TEST(AllCloseTest, Mismatches) {
  std::string why;
  EXPECT_FALSE(allClose(f32({2}, {1, 2}), make<double>(DType::F64, {2}, {1, 2}),
                        1, 1, why));
  EXPECT_EQ(why, "dtype mismatch: f32 vs f64");
  EXPECT_FALSE(allClose(f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                        f32({3, 2}, {1, 2, 3, 4, 5, 6}), 1, 1, why));
  EXPECT_EQ(why, "shape mismatch: 2x3xf32 vs 3x2xf32");
  EXPECT_FALSE(allClose(f32({}, {1}), f32({1}, {1}), 1, 1, why));
  EXPECT_EQ(why, "shape mismatch: f32 vs 1xf32");
  HostArray broken = f32({2}, {1, 2});
  broken.data.pop_back();
  EXPECT_FALSE(allClose(broken, f32({2}, {1, 2}), 1, 1, why));
  EXPECT_HAS(why, "invalid array");
  EXPECT_TRUE(allClose(f32({0}, {}), f32({0}, {}), 0, 0, why));
}

TEST(AllCloseTest, Halves) {
  std::string why;
  HostArray a = make<uint16_t>(DType::F16, {1}, {doubleToHalf(1.0)});
  HostArray b = make<uint16_t>(DType::F16, {1}, {doubleToHalf(1.001)});
  EXPECT_TRUE(allClose(a, b, 1e-2, 0, why));
  EXPECT_FALSE(allClose(a, b, 0, 0, why));
}

} // namespace
