//===- Builder.cpp - Building usm IR through the C API --------------------===//
//
// Values and types cross the C boundary as MLIR's opaque pointers. Every op
// is verified when it is built, so a bad op is reported at the caller's
// location at once rather than when the pipeline runs.
//
//===----------------------------------------------------------------------===//

#include "CAPISupport.h"

#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace sluice;

namespace {

using Scope = capi::DiagnosticScope;

Value unwrap(SluiceValue v) {
  return Value::getFromOpaquePointer(reinterpret_cast<const void *>(v));
}
SluiceValue wrap(Value v) {
  return reinterpret_cast<SluiceValue>(
      const_cast<void *>(v.getAsOpaquePointer()));
}
Type unwrap(SluiceType t) {
  return Type::getFromOpaquePointer(reinterpret_cast<const void *>(t));
}
SluiceType wrap(Type t) {
  return reinterpret_cast<SluiceType>(
      const_cast<void *>(t.getAsOpaquePointer()));
}

/// Fails (with a diagnostic at the builder's location) unless a function is
/// being built.
SluiceStatus needFunction(SluiceBuilder_ *b, Scope &scope, const char *what) {
  if (b->function)
    return SLUICE_SUCCESS;
  std::string message = std::string(what) +
                        ": no function is being built (call "
                        "sluiceBuilderBeginFunction first)";
  scope.emitError(b->location, message);
  return capi::fail(SLUICE_ERROR_INVALID_VALUE, message);
}

/// Ends the function being built without finishing it (erased).
void abandonFunction(SluiceBuilder_ *b) {
  if (!b->function)
    return;
  b->function.erase();
  b->function = nullptr;
  --b->invocation->openFunctions;
}

SluiceStatus invalid(Scope &scope, Location loc, const std::string &message) {
  scope.emitError(loc, message);
  return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                    scope.firstError().empty() ? message : scope.firstError());
}

} // namespace

extern "C" {

SluiceStatus sluiceBuilderCreate(SluiceCompilerInvocation invocation,
                                 SluiceBuilder *builder) {
  SLUICE_CAPI_CHECK(invocation && builder, "invocation or builder is NULL");
  Scope scope(invocation->session, nullptr);
  SLUICE_CAPI_CHECK(!invocation->destroyed, "the invocation was destroyed");
  SLUICE_CAPI_CHECK(invocation->stage == SLUICE_STAGE_INPUT &&
                        !invocation->broken,
                    "the invocation's module has been compiled; only input "
                    "modules can be built on");
  MLIRContext *ctx = &invocation->session->context;
  if (!invocation->module)
    invocation->module = ModuleOp::create(UnknownLoc::get(ctx));
  ++invocation->liveBuilders;
  capi::retainSession(invocation->session);
  *builder = new SluiceBuilder_(invocation);
  return capi::succeed();
}

void sluiceBuilderDestroy(SluiceBuilder builder) {
  if (!builder)
    return;
  SluiceCompilerInvocation_ *inv = builder->invocation;
  SluiceCompilerSession_ *session = inv->session;
  {
    std::lock_guard<std::recursive_mutex> lock(session->mutex);
    abandonFunction(builder);
    delete builder;
    if (--inv->liveBuilders == 0 && inv->destroyed) {
      delete inv;
      capi::releaseSession(session);
    }
  }
  capi::releaseSession(session);
}

SluiceStatus sluiceBuilderSetLocation(SluiceBuilder builder, const char *file,
                                      int32_t line, int32_t column) {
  SLUICE_CAPI_CHECK(builder, "builder is NULL");
  Scope scope(builder->invocation->session, nullptr);
  MLIRContext *ctx = &builder->invocation->session->context;
  SLUICE_CAPI_CHECK(line >= 0 && column >= 0,
                    "line and column must not be negative");
  builder->location =
      file ? Location(FileLineColLoc::get(ctx, file, line, column))
           : Location(UnknownLoc::get(ctx));
  return capi::succeed();
}

SluiceStatus sluiceBuilderArrayType(SluiceBuilder builder, SluiceDType dtype,
                                    int32_t rank, const int64_t *shape,
                                    const char *device, const char *queueName,
                                    int32_t kind, SluiceType *type) {
  SLUICE_CAPI_CHECK(builder && type, "builder or type is NULL");
  SLUICE_CAPI_CHECK(rank >= 0 && (rank == 0 || shape),
                    "rank must be >= 0, with `rank` sizes");
  Scope scope(builder->invocation->session, nullptr);
  MLIRContext *ctx = &builder->invocation->session->context;
  Type element = capi::elementType(ctx, dtype);
  SLUICE_CAPI_CHECK(element, "unknown dtype " + std::to_string(dtype));
  llvm::SmallVector<int64_t> dims;
  for (int32_t i = 0; i < rank; ++i) {
    SLUICE_CAPI_CHECK(shape[i] >= -1, "size " + std::to_string(shape[i]) +
                                          " of dimension " + std::to_string(i) +
                                          " is negative (-1 is dynamic)");
    dims.push_back(shape[i] == -1 ? ShapedType::kDynamic : shape[i]);
  }
  usm::QueueAttr queue;
  usm::USMKind usmKind = usm::USMKind::device;
  if (!device) {
    // Unplaced arrays carry the host kind as a placeholder.
    queue = usm::QueueAttr::getUnplaced(ctx);
    usmKind = usm::USMKind::host;
  } else {
    std::string error;
    queue = usm::QueueAttr::getChecked(ctx, device, queueName ? queueName : "",
                                       error);
    if (!queue)
      return invalid(scope, builder->location,
                     std::string("bad device '") + device + "': " + error);
    switch (kind) {
    case SLUICE_USM_DEVICE:
      usmKind = usm::USMKind::device;
      break;
    case SLUICE_USM_SHARED:
      usmKind = usm::USMKind::shared;
      break;
    case SLUICE_USM_HOST:
      usmKind = usm::USMKind::host;
      break;
    default:
      return invalid(scope, builder->location,
                     "bad USM kind " + std::to_string(kind) +
                         " (expected SLUICE_USM_DEVICE, _SHARED or _HOST)");
    }
  }
  Location loc = builder->location;
  auto array = usm::ArrayType::getChecked([&] { return mlir::emitError(loc); },
                                          ctx, llvm::ArrayRef<int64_t>(dims),
                                          element, queue, usmKind);
  if (!array)
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      "invalid array type: " + scope.firstError());
  *type = wrap(array);
  return capi::succeed();
}

SluiceStatus sluiceBuilderScalarType(SluiceBuilder builder, SluiceDType dtype,
                                     SluiceType *type) {
  SLUICE_CAPI_CHECK(builder && type, "builder or type is NULL");
  Scope scope(builder->invocation->session, nullptr);
  Type element =
      capi::elementType(&builder->invocation->session->context, dtype);
  SLUICE_CAPI_CHECK(element, "unknown dtype " + std::to_string(dtype));
  *type = wrap(element);
  return capi::succeed();
}

SluiceStatus sluiceBuilderParseType(SluiceBuilder builder, const char *text,
                                    SluiceType *type) {
  SLUICE_CAPI_CHECK(builder && text && type, "builder, text or type is NULL");
  Scope scope(builder->invocation->session, nullptr);
  Type parsed = parseType(text, &builder->invocation->session->context);
  if (!parsed)
    return capi::fail(
        SLUICE_ERROR_INVALID_VALUE,
        scope.withFirstError(std::string("cannot parse type '") + text + "'"));
  *type = wrap(parsed);
  return capi::succeed();
}

SluiceStatus sluiceBuilderBeginFunction(SluiceBuilder builder,
                                        const char *name) {
  SLUICE_CAPI_CHECK(builder && name && *name, "builder or name is NULL/empty");
  SluiceCompilerInvocation_ *inv = builder->invocation;
  Scope scope(inv->session, nullptr);
  abandonFunction(builder);
  SLUICE_CAPI_CHECK(!inv->destroyed && inv->module &&
                        inv->stage == SLUICE_STAGE_INPUT && !inv->broken,
                    "the invocation's module cannot be built on any more");
  ModuleOp module = *inv->module;
  if (module.lookupSymbol(name))
    return invalid(scope, builder->location,
                   std::string("the module already has a symbol @") + name);
  OpBuilder &b = builder->builder;
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, builder->location, name,
                                   b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  builder->function = func;
  ++inv->openFunctions;
  return capi::succeed();
}

SluiceStatus sluiceBuilderAddArgument(SluiceBuilder builder, SluiceType type,
                                      SluiceValue *value) {
  SLUICE_CAPI_CHECK(builder && type && value, "builder, type or value is NULL");
  Scope scope(builder->invocation->session, nullptr);
  if (SluiceStatus s = needFunction(builder, scope, "sluiceBuilderAddArgument"))
    return s;
  func::FuncOp func = builder->function;
  Type t = unwrap(type);
  BlockArgument arg = func.getBody().front().addArgument(t, builder->location);
  llvm::SmallVector<Type> inputs(func.getArgumentTypes());
  inputs.push_back(t);
  func.setType(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  *value = wrap(arg);
  return capi::succeed();
}

SluiceStatus sluiceBuilderConstant(SluiceBuilder builder, SluiceDType dtype,
                                   int64_t intValue, double floatValue,
                                   SluiceValue *value) {
  SLUICE_CAPI_CHECK(builder && value, "builder or value is NULL");
  Scope scope(builder->invocation->session, nullptr);
  if (SluiceStatus s = needFunction(builder, scope, "sluiceBuilderConstant"))
    return s;
  MLIRContext *ctx = &builder->invocation->session->context;
  Type type = capi::elementType(ctx, dtype);
  SLUICE_CAPI_CHECK(type, "unknown dtype " + std::to_string(dtype));
  OpBuilder &b = builder->builder;
  Location loc = builder->location;
  Value result;
  if (auto f = dyn_cast<FloatType>(type)) {
    result = arith::ConstantOp::create(b, loc, b.getFloatAttr(f, floatValue));
  } else {
    auto i = cast<IntegerType>(type);
    auto signless = IntegerType::get(ctx, i.getWidth());
    int64_t v = i.getWidth() == 1 ? (intValue != 0) : intValue;
    result = arith::ConstantOp::create(b, loc, b.getIntegerAttr(signless, v));
    // arith has only signless integers; the usm type says the signedness.
    if (i.isUnsigned())
      result = UnrealizedConversionCastOp::create(b, loc, TypeRange{i},
                                                  ValueRange{result})
                   .getResult(0);
  }
  *value = wrap(result);
  return capi::succeed();
}

SluiceStatus
sluiceBuilderCreateOp(SluiceBuilder builder, const char *opName,
                      size_t numOperands, const SluiceValue *operands,
                      size_t numAttributes,
                      const SluiceNamedAttribute *attributes, size_t numResults,
                      const SluiceType *resultTypes, size_t maxResults,
                      SluiceValue *results, size_t *numResultsOut) {
  SLUICE_CAPI_CHECK(builder && opName, "builder or opName is NULL");
  SLUICE_CAPI_CHECK(numOperands == 0 || operands, "operands is NULL");
  SLUICE_CAPI_CHECK(numAttributes == 0 || attributes, "attributes is NULL");
  SLUICE_CAPI_CHECK(numResults == 0 || resultTypes, "resultTypes is NULL");
  SLUICE_CAPI_CHECK(maxResults == 0 || results, "results is NULL");
  Scope scope(builder->invocation->session, nullptr);
  if (SluiceStatus s = needFunction(builder, scope, "sluiceBuilderCreateOp"))
    return s;
  MLIRContext *ctx = &builder->invocation->session->context;
  Location loc = builder->location;
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(opName, ctx);
  if (!name)
    return invalid(scope, loc,
                   std::string("unknown operation '") + opName + "'");
  if (name->hasTrait<OpTrait::IsTerminator>())
    return invalid(scope, loc,
                   std::string("'") + opName +
                       "' is a terminator: end functions with "
                       "sluiceBuilderReturn");
  OperationState state(loc, *name);
  for (size_t i = 0; i < numOperands; ++i) {
    if (!operands[i])
      return invalid(scope, loc, "operand " + std::to_string(i) + " is NULL");
    state.operands.push_back(unwrap(operands[i]));
  }
  for (size_t i = 0; i < numAttributes; ++i) {
    const SluiceNamedAttribute &a = attributes[i];
    if (!a.name || !*a.name || !a.value)
      return invalid(scope, loc,
                     "attribute " + std::to_string(i) +
                         " has no name or value");
    Attribute value = parseAttribute(a.value, ctx);
    if (!value)
      return capi::fail(
          SLUICE_ERROR_INVALID_VALUE,
          scope.withFirstError(std::string("cannot parse attribute ") + a.name +
                               " = '" + a.value + "'"));
    state.addAttribute(a.name, value);
  }
  OpBuilder &b = builder->builder;
  if (numResults > 0) {
    for (size_t i = 0; i < numResults; ++i) {
      if (!resultTypes[i])
        return invalid(scope, loc,
                       "result type " + std::to_string(i) + " is NULL");
      state.types.push_back(unwrap(resultTypes[i]));
    }
  } else if (name->hasInterface<InferTypeOpInterface>()) {
    // Infer through a result-less twin that carries the properties.
    OperationState probeState(loc, *name);
    probeState.operands = state.operands;
    probeState.attributes = state.attributes;
    Operation *probe = Operation::create(probeState);
    llvm::SmallVector<Type> inferred;
    LogicalResult ok = cast<InferTypeOpInterface>(probe).inferReturnTypes(
        ctx, loc, probe->getOperands(), probe->getRawDictionaryAttrs(),
        probe->getPropertiesStorage(), probe->getRegions(), inferred);
    probe->destroy();
    if (failed(ok))
      return capi::fail(
          SLUICE_ERROR_INVALID_VALUE,
          scope.withFirstError("cannot infer the result types of " +
                               std::string(opName)));
    state.types.append(inferred.begin(), inferred.end());
  }
  Operation *op = b.create(state);
  if (failed(verify(op))) {
    op->erase();
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      scope.withFirstError(std::string("invalid ") + opName));
  }
  for (size_t i = 0; i < std::min<size_t>(maxResults, op->getNumResults()); ++i)
    results[i] = wrap(op->getResult(i));
  if (numResultsOut)
    *numResultsOut = op->getNumResults();
  return capi::succeed();
}

SluiceType sluiceValueGetType(SluiceValue value) {
  if (!value)
    return nullptr;
  return wrap(unwrap(value).getType());
}

const char *sluiceBuilderPrintType(SluiceBuilder builder, SluiceType type) {
  if (!builder || !type)
    return "";
  std::lock_guard<std::recursive_mutex> lock(
      builder->invocation->session->mutex);
  builder->typeText.clear();
  llvm::raw_string_ostream os(builder->typeText);
  unwrap(type).print(os);
  os.flush();
  return builder->typeText.c_str();
}

SluiceStatus sluiceBuilderReturn(SluiceBuilder builder, size_t numValues,
                                 const SluiceValue *values) {
  SLUICE_CAPI_CHECK(builder, "builder is NULL");
  SLUICE_CAPI_CHECK(numValues == 0 || values, "values is NULL");
  Scope scope(builder->invocation->session, nullptr);
  if (SluiceStatus s = needFunction(builder, scope, "sluiceBuilderReturn"))
    return s;
  llvm::SmallVector<Value> returned;
  llvm::SmallVector<Type> types;
  for (size_t i = 0; i < numValues; ++i) {
    if (!values[i])
      return invalid(scope, builder->location,
                     "returned value " + std::to_string(i) + " is NULL");
    returned.push_back(unwrap(values[i]));
    types.push_back(returned.back().getType());
  }
  func::FuncOp func = builder->function;
  func::ReturnOp::create(builder->builder, builder->location, returned);
  func.setType(
      FunctionType::get(func.getContext(), func.getArgumentTypes(), types));
  if (failed(verify(func))) {
    std::string first = scope.firstError();
    abandonFunction(builder);
    return capi::fail(SLUICE_ERROR_INVALID_VALUE,
                      "invalid function" +
                          (first.empty() ? std::string() : ": " + first));
  }
  builder->function = nullptr;
  --builder->invocation->openFunctions;
  return capi::succeed();
}

} // extern "C"
