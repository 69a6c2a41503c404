//===- RuntimeShapes.cpp - Shapes and checks decided at run time ----------===//

#include "RuntimeShapes.h"

#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace sluice::usm;

Shape sluice::usm::runtimeShape(OpBuilder &b, Location loc, Value value) {
  Shape shape;
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return shape;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (type.isDynamicDim(i))
      shape.push_back(memref::DimOp::create(b, loc, value, i).getResult());
    else
      shape.push_back(b.getIndexAttr(type.getDimSize(i)));
  }
  return shape;
}

Shape sluice::usm::mixedShape(OpBuilder &b, ArrayRef<int64_t> shape,
                              ValueRange sizes) {
  Shape out;
  unsigned next = 0;
  for (int64_t d : shape)
    out.push_back(ShapedType::isDynamic(d) ? OpFoldResult(sizes[next++])
                                           : OpFoldResult(b.getIndexAttr(d)));
  return out;
}

SmallVector<Value> sluice::usm::dynamicSizes(ArrayRef<OpFoldResult> shape) {
  SmallVector<Value> sizes;
  for (OpFoldResult d : shape)
    if (auto v = dyn_cast<Value>(d))
      sizes.push_back(v);
  return sizes;
}

//===----------------------------------------------------------------------===//
// ShapeMath
//===----------------------------------------------------------------------===//

Value ShapeMath::value(OpFoldResult v) {
  return getValueOrCreateConstantIndexOp(b, loc, v);
}

Value ShapeMath::isEqual(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if ((cx && cy) || x == y)
    return arith::ConstantIntOp::create(b, loc, b.getI1Type(),
                                        x == y || *cx == *cy);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value(x),
                               value(y));
}

Value ShapeMath::isEqual(OpFoldResult x, int64_t y) {
  return isEqual(x, b.getIndexAttr(y));
}

Value ShapeMath::isNegative(OpFoldResult x) {
  if (std::optional<int64_t> c = getConstantIntValue(x))
    return arith::ConstantIntOp::create(b, loc, b.getI1Type(), *c < 0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value(x),
                               zero);
}

Value ShapeMath::negate(Value x) {
  if (std::optional<int64_t> c = getConstantIntValue(x))
    return arith::ConstantIntOp::create(b, loc, b.getI1Type(), *c == 0);
  Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  return arith::XOrIOp::create(b, loc, x, one);
}

Value ShapeMath::both(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return arith::AndIOp::create(b, loc, x, y);
}

Value ShapeMath::either(Value x, Value y) {
  if (!x || !y)
    return Value();
  return arith::OrIOp::create(b, loc, x, y);
}

Value ShapeMath::select(Value c, OpFoldResult x, OpFoldResult y) {
  return arith::SelectOp::create(b, loc, c, value(x), value(y));
}

OpFoldResult ShapeMath::mul(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  if (cx && *cx == 1)
    return y;
  if (cy && *cy == 1)
    return x;
  return arith::MulIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult ShapeMath::product(ArrayRef<OpFoldResult> xs) {
  OpFoldResult p = b.getIndexAttr(1);
  for (OpFoldResult x : xs)
    p = mul(p, x);
  return p;
}

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

namespace {

/// The first file location in `loc`, if any.
std::optional<FileLineColLoc> fileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      found = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// `text` with '{' doubled, as usm.assert messages want it.
std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{')
      out += '{';
  }
  return out;
}

} // namespace

CheckMessage::CheckMessage(Operation *op) {
  text = escape(op->getName().getStringRef());
  if (std::optional<FileLineColLoc> f = fileLocation(op->getLoc()))
    text += escape((" at " + f->getFilename().strref() + ":" +
                    Twine(f->getLine()) + ":" + Twine(f->getColumn()))
                       .str());
  text += ": ";
}

CheckMessage &CheckMessage::operator<<(StringRef s) {
  text += escape(s);
  return *this;
}

CheckMessage &CheckMessage::operator<<(OpFoldResult size) {
  if (std::optional<int64_t> c = getConstantIntValue(size)) {
    text += std::to_string(*c);
    return *this;
  }
  Value v = cast<Value>(size);
  auto *it = llvm::find(values, v);
  size_t index = it - values.begin();
  if (it == values.end())
    values.push_back(v);
  text += "{" + std::to_string(index) + "}";
  return *this;
}

CheckMessage &CheckMessage::shape(ArrayRef<OpFoldResult> shape) {
  text += "(";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      text += ",";
    *this << d;
  }
  if (shape.size() == 1)
    text += ",";
  text += ")";
  return *this;
}

void CheckMessage::assertThat(OpBuilder &b, Location loc, Value ok) {
  if (!ok || matchPattern(ok, m_One()))
    return;
  AssertOp::create(b, loc, ok, b.getStringAttr(text), values);
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

Shape sluice::usm::broadcastAtRunTime(OpBuilder &b, Location loc, Operation *op,
                                      ArrayRef<Shape> operands,
                                      ArrayRef<int64_t> result) {
  ShapeMath m{b, loc};
  int64_t rank = result.size();
  Shape out;
  Value ok;
  for (int64_t j = 0; j < rank; ++j) {
    // The sizes that meet in result dimension j; static 1s change nothing.
    SmallVector<OpFoldResult> sizes;
    for (const Shape &s : operands) {
      int64_t i = j - (rank - static_cast<int64_t>(s.size()));
      if (i < 0)
        continue;
      std::optional<int64_t> c = getConstantIntValue(s[i]);
      if (c && *c == 1)
        continue;
      if (!llvm::is_contained(sizes, s[i]))
        sizes.push_back(s[i]);
    }
    OpFoldResult r;
    ArrayRef<OpFoldResult> checked = sizes;
    if (!ShapedType::isDynamic(result[j])) {
      r = b.getIndexAttr(result[j]);
    } else if (sizes.empty()) {
      r = b.getIndexAttr(1);
    } else {
      // r = the first size that is not 1 (1 when all are): the first size
      // decides unless it is 1, so it needs no check of its own.
      r = sizes.front();
      for (OpFoldResult d : ArrayRef(sizes).drop_front())
        r = m.select(m.isEqual(r, 1), d, r);
      checked = checked.drop_front();
    }
    for (OpFoldResult d : checked) {
      if (getConstantIntValue(d) && getConstantIntValue(r))
        continue; // static sizes: the verifier checked them
      ok = m.both(ok, m.either(m.isEqual(d, 1), m.isEqual(d, r)));
    }
    out.push_back(r);
  }
  if (ok) {
    CheckMessage message(op);
    message << "operands could not be broadcast together with shapes";
    for (const Shape &s : operands) {
      message << " ";
      message.shape(s);
    }
    message.assertThat(b, loc, ok);
  }
  return out;
}

void sluice::usm::checkNonNegative(OpBuilder &b, Location loc, Operation *op,
                                   ArrayRef<OpFoldResult> sizes) {
  ShapeMath m{b, loc};
  Value ok;
  for (OpFoldResult d : sizes) {
    if (getConstantIntValue(d))
      continue;
    ok = m.both(ok, m.negate(m.isNegative(d)));
  }
  CheckMessage message(op);
  message << "negative dimensions are not allowed: ";
  message.shape(sizes);
  message.assertThat(b, loc, ok);
}
