//===- EntrySignature.cpp - Text form of entry signatures -----------------===//

#include "sluice/Execution/EntrySignature.h"

#include <sstream>

using namespace sluice;
using namespace sluice::exec;

namespace {

void printValue(std::ostream &os, const ValueInfo &v) {
  if (v.isArray) {
    for (int64_t d : v.shape) {
      if (d < 0)
        os << '?';
      else
        os << d;
      os << 'x';
    }
  }
  os << io::dtypeName(v.dtype);
  if (v.isArray) {
    os << '@' << v.device;
    if (!v.queueName.empty())
      os << '(' << v.queueName << ')';
    os << '/' << v.kind;
  }
}

io::Result<ValueInfo> parseValue(const std::string &text) {
  ValueInfo v;
  std::string typePart = text;
  size_t at = text.find('@');
  if (at != std::string::npos) {
    v.isArray = true;
    typePart = text.substr(0, at);
    std::string place = text.substr(at + 1);
    size_t slash = place.rfind('/');
    if (slash == std::string::npos)
      return io::Error{"signature: no USM kind in '" + text + "'"};
    v.kind = std::atoi(place.c_str() + slash + 1);
    place = place.substr(0, slash);
    size_t paren = place.find('(');
    if (paren != std::string::npos && place.back() == ')') {
      v.queueName = place.substr(paren + 1, place.size() - paren - 2);
      place = place.substr(0, paren);
    }
    v.device = place;
  }
  size_t pos = 0;
  while (true) {
    size_t x = typePart.find('x', pos);
    if (x == std::string::npos)
      break;
    std::string dim = typePart.substr(pos, x - pos);
    if (dim == "?")
      v.shape.push_back(-1);
    else if (!dim.empty() &&
             dim.find_first_not_of("0123456789") == std::string::npos)
      v.shape.push_back(std::stoll(dim));
    else
      break;
    pos = x + 1;
  }
  std::optional<io::DType> dtype = io::parseDTypeName(typePart.substr(pos));
  if (!dtype)
    return io::Error{"signature: bad type in '" + text + "'"};
  v.dtype = *dtype;
  if (!v.isArray && !v.shape.empty())
    return io::Error{"signature: shaped scalar '" + text + "'"};
  return v;
}

io::Result<std::vector<ValueInfo>> parseList(const std::string &text) {
  std::vector<ValueInfo> values;
  if (text.empty())
    return values;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '(')
      ++depth;
    if (i < text.size() && text[i] == ')')
      --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      io::Result<ValueInfo> v = parseValue(text.substr(start, i - start));
      if (!v)
        return io::Error{v.error()};
      values.push_back(v.take());
      start = i + 1;
    }
  }
  return values;
}

} // namespace

std::string EntrySignature::toString() const {
  std::ostringstream os;
  os << name << '(';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      os << ',';
    printValue(os, args[i]);
  }
  os << ")->(";
  for (size_t i = 0; i < results.size(); ++i) {
    if (i)
      os << ',';
    printValue(os, results[i]);
  }
  os << ')';
  return os.str();
}

io::Result<EntrySignature> EntrySignature::parse(const std::string &text) {
  size_t open = text.find('(');
  size_t arrow = text.rfind(")->(");
  if (open == std::string::npos || arrow == std::string::npos ||
      text.back() != ')' || arrow < open)
    return io::Error{"signature: malformed '" + text + "'"};
  EntrySignature sig;
  sig.name = text.substr(0, open);
  auto args = parseList(text.substr(open + 1, arrow - open - 1));
  if (!args)
    return io::Error{args.error()};
  auto results = parseList(text.substr(arrow + 4, text.size() - arrow - 5));
  if (!results)
    return io::Error{results.error()};
  sig.args = args.take();
  sig.results = results.take();
  return sig;
}
