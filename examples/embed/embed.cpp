// Embedding Sluice from C++: build a program with the builder API (no IR
// text), compile it ahead of time into an artifact, load the artifact and
// run it on the default device.
//
//   embed-cpp [dir]    writes dir/norm.so; prints sum(x*x) for x = 1..100
#include "sluice-c/Compiler.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(SluiceStatus status, const char *what) {
  if (status != SLUICE_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " +
                             sluiceCompilerGetLastErrorMessage());
}

/// Owns a session and prints its diagnostics.
struct Session {
  Session() {
    check(sluiceCompilerSessionCreate(&handle), "session");
    sluiceCompilerSessionSetDiagnosticCallback(
        handle,
        [](SluiceDiagnosticSeverity, const char *loc, const char *msg, void *) {
          std::fprintf(stderr, "%s: %s\n", loc, msg);
        },
        nullptr);
  }
  ~Session() { sluiceCompilerSessionDestroy(handle); }
  SluiceCompilerSession handle = nullptr;
};

} // namespace

int main(int argc, char **argv) {
  try {
    std::string dir = argc > 1 ? argv[1] : ".";
    Session session;
    const char *flags[] = {"--device=default", "-O3"};
    check(sluiceCompilerSessionSetFlags(session.handle, 2, flags), "flags");
    SluiceCompilerInvocation inv;
    check(sluiceCompilerInvocationCreate(session.handle, &inv), "invocation");

    // norm2(x) = sum(x * x), with x on the host queue (rebound to the
    // default device by --device).
    SluiceBuilder b;
    check(sluiceBuilderCreate(inv, &b), "builder");
    check(sluiceBuilderSetLocation(b, __FILE__, __LINE__, 1), "location");
    int64_t shape[] = {-1};
    SluiceType vec;
    check(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape,
                                 "host:cpu:0", nullptr, SLUICE_USM_SHARED,
                                 &vec),
          "type");
    check(sluiceBuilderBeginFunction(b, "norm2"), "function");
    SluiceValue x, sq, total;
    check(sluiceBuilderAddArgument(b, vec, &x), "argument");
    SluiceValue operands[] = {x, x};
    check(sluiceBuilderCreateOp(b, "usm.mul", 2, operands, 0, nullptr, 0,
                                nullptr, 1, &sq, nullptr),
          "usm.mul");
    check(sluiceBuilderCreateOp(b, "usm.sum", 1, &sq, 0, nullptr, 0, nullptr, 1,
                                &total, nullptr),
          "usm.sum");
    check(sluiceBuilderReturn(b, 1, &total), "return");
    sluiceBuilderDestroy(b);

    std::string path = dir + "/norm.so";
    check(sluiceCompilerInvocationWriteArtifact(inv, path.c_str(), nullptr,
                                                nullptr),
          "artifact");
    sluiceCompilerInvocationDestroy(inv);

    SluiceExecutable exe;
    check(sluiceExecutableLoad(path.c_str(), &exe), "load");
    SluiceEntryPoint entry;
    check(sluiceExecutableLookup(exe, "norm2", &entry), "lookup");

    SluiceDevice device;
    SluiceQueue queue;
    check(sluiceDeviceSelect("", &device), "device");
    check(sluiceQueueGetCanonical(device, &queue), "queue");
    const int n = 100;
    float *data;
    check(sluiceMalloc(queue, SLUICE_USM_SHARED, n * sizeof(float), 0,
                       reinterpret_cast<void **>(&data)),
          "malloc");
    for (int i = 0; i < n; ++i)
      data[i] = float(i + 1);
    struct {
      void *allocated, *aligned;
      int64_t offset, size, stride;
    } in = {data, data, 0, n, 1};
    struct {
      void *allocated, *aligned;
      int64_t offset;
    } out{};
    void *args[] = {&in.allocated, &in.aligned, &in.offset,
                    &in.size,      &in.stride,  &out};
    if (entry(args) != 0)
      throw std::runtime_error(std::string("run: ") +
                               sluiceGetLastErrorMessage());
    float result = static_cast<float *>(out.aligned)[out.offset];
    double expect = n * (n + 1.0) * (2.0 * n + 1.0) / 6.0;
    std::printf("sum(x*x) = %.1f (expected %.1f)\n", result, expect);
    sluiceFree(queue, out.allocated);
    sluiceFree(queue, data);
    sluiceExecutableDestroy(exe);
    bool ok = std::fabs(result - expect) <= 1e-4 * expect;
    std::printf("%s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "embed-cpp: %s\n", e.what());
    return 1;
  }
}
