/*===- sluice-c/Compiler.h - Sluice's embedding API ----------------*- C
 *-*-===//
 *
 * The C API of Sluice's compiler, for applications and other compilers that
 * embed it (`libsluice-compiler.so`, `find_package(Sluice)`). It parses usm
 * IR (or builds it without text, see the builder below), runs Sluice's named
 * pipelines up to a chosen stage, and hands back the IR of any stage, the
 * device binaries, a host artifact (a shared object that `sluice-run` and
 * sluiceExecutableLoad run) or a JIT-compiled executable.
 *
 * Objects
 * - SluiceCompilerSession: an MLIR context, options and a diagnostic
 *   handler. Sessions are independent of each other. Every function that
 *   takes a session, or an object made from one, locks that session for the
 *   duration of the call, so a session and its objects may be used from any
 *   thread (calls on one session are serialised; use one session per thread
 *   for parallel compiles).
 * - SluiceCompilerInvocation: one module going through the pipeline.
 * - SluiceBuilder: builds usm functions into an invocation's module.
 * - SluiceExecutable: a compiled program in this process (JIT or a loaded
 *   artifact). It needs no session once made and outlives it.
 *
 * Errors
 * - Functions return SluiceStatus (sluice-c/Runtime.h): SLUICE_SUCCESS or a
 *   code. NULL handles or out-pointers give SLUICE_ERROR_INVALID_VALUE.
 * - Diagnostics (parse errors, verifier errors, placement errors, unknown
 *   options, unsupported ops or targets) go to the session's callback with
 *   their severity, location ("file:line:col", or "" for none) and message.
 *   Nothing is printed unless the callback prints it. Whatever the callback,
 *   an invocation also keeps the text of its error diagnostics since its
 *   last successful call (sluiceCompilerInvocationGetErrors), and every
 *   failure leaves a one-line summary in sluiceCompilerGetLastErrorMessage()
 *   (per thread).
 * - Strings and buffers returned through `const char **` / `const void **`
 *   belong to the object they came from and stay valid until that object's
 *   next call that changes it (or its destruction).
 *
 * Versioning: SLUICE_COMPILER_API_VERSION is (major << 16) | minor. Minor
 * versions add functions; a major version changes existing ones. Compare
 * sluiceCompilerGetAPIVersion() >> 16 with SLUICE_COMPILER_API_MAJOR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_C_COMPILER_H
#define SLUICE_C_COMPILER_H

#include "sluice-c/DType.h"
#include "sluice-c/Runtime.h"

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SLUICE_COMPILER_EXPORT __declspec(dllexport)
#else
#define SLUICE_COMPILER_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SLUICE_COMPILER_API_MAJOR 1
#define SLUICE_COMPILER_API_MINOR 0
#define SLUICE_COMPILER_API_VERSION                                            \
  ((SLUICE_COMPILER_API_MAJOR << 16) | SLUICE_COMPILER_API_MINOR)

/* The API version of the library (compare with the header's). */
SLUICE_COMPILER_EXPORT uint32_t sluiceCompilerGetAPIVersion(void);
/* "sluice <version> (MLIR <version>)": also the compiler version that keys
 * caches of compiled programs. Static storage. */
SLUICE_COMPILER_EXPORT const char *sluiceCompilerGetVersionString(void);
/* The summary of this thread's last failed call ("" if none). */
SLUICE_COMPILER_EXPORT const char *sluiceCompilerGetLastErrorMessage(void);

typedef struct SluiceCompilerSession_ *SluiceCompilerSession;
typedef struct SluiceCompilerInvocation_ *SluiceCompilerInvocation;
typedef struct SluiceBuilder_ *SluiceBuilder;
typedef struct SluiceExecutable_ *SluiceExecutable;

/*===----------------------------- Diagnostics ---------------------------===*/

typedef enum SluiceDiagnosticSeverity {
  SLUICE_DIAGNOSTIC_ERROR = 0,
  SLUICE_DIAGNOSTIC_WARNING = 1,
  SLUICE_DIAGNOSTIC_NOTE = 2,
  SLUICE_DIAGNOSTIC_REMARK = 3,
} SluiceDiagnosticSeverity;

/* Called once per diagnostic (notes attached to a diagnostic follow it as
 * separate calls with SLUICE_DIAGNOSTIC_NOTE), on the thread that made the
 * call producing it. `location` is "file:line:col" or "" ; both strings are
 * valid only during the call. */
typedef void (*SluiceDiagnosticCallback)(SluiceDiagnosticSeverity severity,
                                         const char *location,
                                         const char *message, void *userData);

/*===------------------------------- Sessions ----------------------------===*/

SLUICE_COMPILER_EXPORT SluiceStatus
sluiceCompilerSessionCreate(SluiceCompilerSession *session);
/* Invocations and builders of the session must be destroyed first;
 * executables need not. NULL does nothing. */
SLUICE_COMPILER_EXPORT void
sluiceCompilerSessionDestroy(SluiceCompilerSession session);
/* Replaces the diagnostic callback (NULL: none; diagnostics are then only
 * kept, see Errors). */
SLUICE_COMPILER_EXPORT void
sluiceCompilerSessionSetDiagnosticCallback(SluiceCompilerSession session,
                                           SluiceDiagnosticCallback callback,
                                           void *userData);
/* Sets options from command-line style flags, applied in order; they hold
 * for invocations run afterwards:
 *   --device=SELECTOR     bind every queue of a program to this device
 *                         before compiling ("host", "opencl:cpu:0",
 *                         "cuda:gpu:0", "default" for the runtime's default
 *                         device; "" or "none" keeps the program's queues)
 *   --fusion / --no-fusion   elementwise fusion (default on)
 *   -O0 .. -O3            LLVM optimisation level of host code and CUDA
 *                         kernels (default 3)
 *   --cuda-chip=sm_NN     NVIDIA chip for CUDA kernels (sm_80, sm_90; default
 *                         sm_90)
 *   --workgroup-size=N    work-items per GPU workgroup (power of 2, 1..1024;
 *                         default 256)
 *   --spirv-native-f16    OpenCL/Level Zero kernels compute f16 as half
 *                         (devices with cl_khr_fp16) instead of in f32
 * An unknown flag or a bad value is reported as an error diagnostic and
 * SLUICE_ERROR_INVALID_VALUE, and leaves the options as they were (no
 * flag of the call is applied). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerSessionSetFlags(
    SluiceCompilerSession session, int argc, const char *const *argv);
/* The current options as flags, one per line, in the form SetFlags takes. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerSessionGetFlags(
    SluiceCompilerSession session, const char **flags);

/*===----------------------------- Invocations ---------------------------===*/

/* The stages of Sluice's pipeline (`sluice-compile-program`), in order. */
typedef enum SluiceCompileStage {
  /* Parsed (or built) and verified. */
  SLUICE_STAGE_INPUT = 0,
  /* usm-verify-placement and canonicalisation. */
  SLUICE_STAGE_PLACED = 1,
  /* usm-fuse-elementwise (same as PLACED with --no-fusion). */
  SLUICE_STAGE_FUSED = 2,
  /* Kernels formed: gpu.launch_func + gpu.module on memrefs. */
  SLUICE_STAGE_KERNELS = 3,
  /* Device kernels compiled to binaries (gpu.binary). */
  SLUICE_STAGE_BINARIES = 4,
  /* Everything in the LLVM dialect; ready for artifacts and executables. */
  SLUICE_STAGE_LLVM = 5,
} SluiceCompileStage;

/* The name of a stage as the tools and Python spell it ("input", "placed",
 * "fused", "kernels", "binaries", "llvm"), or NULL for a value that is not a
 * stage. Stages are the values 0 to SLUICE_STAGE_LLVM. */
SLUICE_COMPILER_EXPORT const char *
sluiceCompileStageName(SluiceCompileStage stage);

SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationCreate(
    SluiceCompilerSession session, SluiceCompilerInvocation *invocation);
SLUICE_COMPILER_EXPORT void
sluiceCompilerInvocationDestroy(SluiceCompilerInvocation invocation);

/* Parses usm IR text (`length` bytes, need not be NUL-terminated) named
 * `bufferName` in locations ("<buffer>" when NULL), and verifies it. Replaces
 * any module the invocation held; the stage becomes SLUICE_STAGE_INPUT.
 * Errors: SLUICE_ERROR_INVALID_VALUE with diagnostics. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationParseSource(
    SluiceCompilerInvocation invocation, const char *buffer, size_t length,
    const char *bufferName);
/* The same, from a file (text or MLIR bytecode). A file that cannot be read
 * is SLUICE_ERROR_NOT_FOUND. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationParseFile(
    SluiceCompilerInvocation invocation, const char *path);

/* Runs the pipeline from the invocation's stage up to `stage` (nothing if
 * it is there already; an earlier stage than the current one is
 * SLUICE_ERROR_INVALID_VALUE). Queues are bound per --device first.
 * Failures (placement errors, unsupported ops or targets, invalid device
 * binaries) are diagnostics and SLUICE_ERROR_COMPILE_FAILED; the module is
 * then left as the failing pass left it and the invocation cannot run
 * further (parse again). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationRunPipeline(
    SluiceCompilerInvocation invocation, SluiceCompileStage stage);
SLUICE_COMPILER_EXPORT SluiceCompileStage
sluiceCompilerInvocationGetStage(SluiceCompilerInvocation invocation);

/* The module's IR as text (MLIR assembly, with locations when
 * `withLocations`), at the current stage. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationGetIR(
    SluiceCompilerInvocation invocation, int withLocations, const char **text,
    size_t *length);
/* The error diagnostics since the invocation's last successful call, as
 * "location: error: message" lines ("" if none). */
SLUICE_COMPILER_EXPORT const char *
sluiceCompilerInvocationGetErrors(SluiceCompilerInvocation invocation);

/* The entry signatures of the module's public functions, one line each, in
 * the text form of artifacts:
 *   name(2x?xf32@host:cpu:0/1,f32)->(f32@host:cpu:0/2)
 * (after '/' the SluiceUsmKind; queue names in parentheses after the
 * device). Available until the
 * invocation has run past SLUICE_STAGE_FUSED (they are taken from the usm
 * functions, and kept from then on). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationGetSignatures(
    SluiceCompilerInvocation invocation, const char **text, size_t *length);

/* Device binaries, available from SLUICE_STAGE_BINARIES on: one per kernel
 * module and target. `format` is a SluiceModuleFormat (SPIR-V, PTX, ...);
 * `name` the gpu.module's name. Host kernels are not binaries (they are part
 * of the host code). */
typedef struct SluiceBinaryInfo {
  const char *name;
  int32_t format;
  const void *data;
  size_t size;
} SluiceBinaryInfo;
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationGetBinaryCount(
    SluiceCompilerInvocation invocation, size_t *count);
SLUICE_COMPILER_EXPORT SluiceStatus
sluiceCompilerInvocationGetBinary(SluiceCompilerInvocation invocation,
                                  size_t index, SluiceBinaryInfo *binary);

/* Host code, at SLUICE_STAGE_LLVM (runs the pipeline there first if the
 * invocation is earlier). */
typedef enum SluiceHostOutput {
  /* Optimised LLVM IR text. */
  SLUICE_HOST_OUTPUT_LLVM_IR = 0,
  /* A relocatable object file for this machine. */
  SLUICE_HOST_OUTPUT_OBJECT = 1,
} SluiceHostOutput;
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationEmitHost(
    SluiceCompilerInvocation invocation, SluiceHostOutput kind,
    const void **data, size_t *size);
/* Writes an artifact: a shared object with the host code, host kernels and
 * device binaries, linked against libsluice-runtime.so in `runtimeDir` (NULL:
 * the one next to this library), by the C compiler `linker` (NULL: the built-in
 * linker where this build has one, else "cc"; "builtin": the built-in one).
 * Runs the pipeline to SLUICE_STAGE_LLVM first if needed. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationWriteArtifact(
    SluiceCompilerInvocation invocation, const char *path,
    const char *runtimeDir, const char *linker);
/* JIT-compiles the module (run to SLUICE_STAGE_LLVM first if needed) into an
 * executable of this process. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceCompilerInvocationCreateExecutable(
    SluiceCompilerInvocation invocation, SluiceExecutable *executable);

/*===----------------------------- Executables ---------------------------===*/

/* An entry point `int32_t entry(void **args)`. args[i] points to the i-th
 * value of the function's arguments after expansion: an array of rank R
 * takes 3 + 2R slots (allocated pointer, aligned pointer, offset in
 * elements, R sizes, R strides in elements; each slot is 8 bytes), a scalar
 * one slot holding its value. The last pointer names storage for the
 * results: the C struct of the results in order, each array laid out as
 * those 3 + 2R 8-byte fields, each scalar as its type (natural alignment).
 * Returns 0 after all the call's work has finished, or the SluiceStatus of
 * the first failure (message in sluiceGetLastErrorMessage()). Result arrays
 * are new allocations of the runtime (sluiceFree them), unless a result is
 * an argument returned as is (same allocated pointer). */
typedef int32_t (*SluiceEntryPoint)(void **args);

/* Loads an artifact written by sluiceCompilerInvocationWriteArtifact or
 * `sluice-compile` (needs no session and no MLIR). Errors:
 * SLUICE_ERROR_NOT_FOUND, SLUICE_ERROR_INVALID_VALUE (not an artifact). */
SLUICE_COMPILER_EXPORT SluiceStatus
sluiceExecutableLoad(const char *path, SluiceExecutable *executable);
/* Code and data stay mapped for the life of the process (the runtime caches
 * kernels by their addresses); this frees the handle. NULL does nothing. */
SLUICE_COMPILER_EXPORT void
sluiceExecutableDestroy(SluiceExecutable executable);
SLUICE_COMPILER_EXPORT size_t
sluiceExecutableGetEntryCount(SluiceExecutable executable);
/* Entry `index`: its function name and signature (text form above). */
SLUICE_COMPILER_EXPORT SluiceStatus
sluiceExecutableGetEntryInfo(SluiceExecutable executable, size_t index,
                             const char **name, const char **signature);
/* The entry point of function `name` (NULL: `main`, else the only one).
 * SLUICE_ERROR_NOT_FOUND names the functions there are. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceExecutableLookup(
    SluiceExecutable executable, const char *name, SluiceEntryPoint *entry);

/*===------------------------------- Builder -----------------------------===*/
/* Builds usm functions into an invocation's module without text. Values and
 * types are handles that stay valid while the invocation's module does
 * (types: while the session does). A builder builds one function at a
 * time: BeginFunction, AddArgument*, ops, Return. */

typedef struct SluiceValue_ *SluiceValue;
typedef struct SluiceType_ *SluiceType;

/* Element types: SluiceDType, sluice-c/DType.h. */

/* A builder on the invocation's module (an empty module is made when the
 * invocation has none; a module past SLUICE_STAGE_INPUT cannot be built
 * on). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderCreate(
    SluiceCompilerInvocation invocation, SluiceBuilder *builder);
SLUICE_COMPILER_EXPORT void sluiceBuilderDestroy(SluiceBuilder builder);

/* The location of the ops built next ("file", line, column; NULL file: an
 * unknown location). Diagnostics about them point there. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderSetLocation(
    SluiceBuilder builder, const char *file, int32_t line, int32_t column);

/* `!usm.array<shape x dtype, "device"[("queue")], kind>`: `rank` sizes, -1
 * for a dynamic one; `device` a filter string, or NULL for an unplaced array
 * (`?`, placed later by usm-infer-placement; `kind` is then ignored);
 * `queueName` NULL or "" for the canonical queue; `kind` a SluiceUsmKind. */
SLUICE_COMPILER_EXPORT SluiceStatus
sluiceBuilderArrayType(SluiceBuilder builder, SluiceDType dtype, int32_t rank,
                       const int64_t *shape, const char *device,
                       const char *queueName, int32_t kind, SluiceType *type);
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderScalarType(
    SluiceBuilder builder, SluiceDType dtype, SluiceType *type);
/* Any type in MLIR syntax ("index", "!usm.array<4xf32, \"host:cpu:0\",
 * device>"). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderParseType(
    SluiceBuilder builder, const char *text, SluiceType *type);

/* Starts public function `name` (an existing function of that name is an
 * error). Ends any function left unfinished (which is erased). */
SLUICE_COMPILER_EXPORT SluiceStatus
sluiceBuilderBeginFunction(SluiceBuilder builder, const char *name);
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderAddArgument(
    SluiceBuilder builder, SluiceType type, SluiceValue *value);

/* A constant scalar of `dtype` (integers from `intValue`, floats from
 * `floatValue`, bool from intValue != 0). */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderConstant(SluiceBuilder builder,
                                                          SluiceDType dtype,
                                                          int64_t intValue,
                                                          double floatValue,
                                                          SluiceValue *value);

/* One attribute of an op: its name and its value in MLIR attribute syntax
 * ("array<i64: 0, 1>", "unit", "3.0 : f32"). */
typedef struct SluiceNamedAttribute {
  const char *name;
  const char *value;
} SluiceNamedAttribute;

/* Builds op `opName` ("usm.add", "usm.sum", "usm.to_device", "arith.addf",
 * ...) with operands, attributes and result types. With numResults == 0 and
 * resultTypes NULL the result types are inferred (ops with type inference:
 * elementwise ops, reductions, transpose); otherwise they are given. The op
 * is verified at once: a failure is an error diagnostic at the builder's
 * location and SLUICE_ERROR_INVALID_VALUE, and no op is added. `results`
 * (may be NULL) receives up to `maxResults` results; `*numResultsOut` (may
 * be NULL) the op's number of results. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderCreateOp(
    SluiceBuilder builder, const char *opName, size_t numOperands,
    const SluiceValue *operands, size_t numAttributes,
    const SluiceNamedAttribute *attributes, size_t numResults,
    const SluiceType *resultTypes, size_t maxResults, SluiceValue *results,
    size_t *numResultsOut);
/* The type of a value. */
SLUICE_COMPILER_EXPORT SluiceType sluiceValueGetType(SluiceValue value);
/* A type as MLIR text (valid until the builder's next call). */
SLUICE_COMPILER_EXPORT const char *sluiceBuilderPrintType(SluiceBuilder builder,
                                                          SluiceType type);

/* Returns `values` from the function and ends it; the function's result
 * types are theirs. The function is verified; on failure it is erased. */
SLUICE_COMPILER_EXPORT SluiceStatus sluiceBuilderReturn(
    SluiceBuilder builder, size_t numValues, const SluiceValue *values);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_C_COMPILER_H */
