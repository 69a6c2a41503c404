//===- gpu_latency.cpp - Where the time of a small synchronous call goes --===//
//
// Times, in microseconds per call (median of many), the layers between a
// compiled Sluice call and the CUDA driver for a kernel on 1024 elements:
//
//   driver     cuLaunchKernel + cuStreamSynchronize, through libcuda alone
//              (and cuGraphLaunch of a recorded launch)
//   runtime    sluiceLaunch + sluiceQueueWait (C API, one event per task)
//   program    sluiceProgramBegin/Launch/End (what compiled code calls)
//   artifact   a compiled program's entry point (allocates its result,
//              launches, waits) and the free of the result
//
// and the host cost of back-to-back asynchronous launches. Built on the
// build machine by bench/run-gpu.sh (no CUDA headers: the few driver entry
// points are declared here) and run on the GPU machine.
//
//   gpu_latency <libsluice-runtime dir>/../bench/bench.so
//
//===----------------------------------------------------------------------===//
#include "sluice-c/Program.h"
#include "sluice-c/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <vector>

namespace {

using CUresult = int;
using CUfunction = void *;
using CUmodule = void *;
using CUstream = void *;
using CUcontext = void *;

const char kPtx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                    ".visible .entry empty()\n{\n  ret;\n}\n";

double medianUs(int iters, const std::function<void()> &fn) {
  for (int i = 0; i < 50; ++i)
    fn();
  std::vector<double> ts(iters);
  for (int i = 0; i < iters; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    auto t1 = std::chrono::steady_clock::now();
    ts[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
  }
  std::sort(ts.begin(), ts.end());
  return ts[iters / 2];
}

#define CHECK_SLUICE(x)                                                        \
  do {                                                                         \
    if ((x) != SLUICE_SUCCESS) {                                               \
      std::fprintf(stderr, "%s: %s\n", #x, sluiceGetLastErrorMessage());       \
      return 1;                                                                \
    }                                                                          \
  } while (0)

} // namespace

int main(int argc, char **argv) {
  const int iters = 3000;
  SluiceDevice dev;
  CHECK_SLUICE(sluiceDeviceSelect("cuda:gpu:0", &dev));
  SluiceQueue q;
  CHECK_SLUICE(sluiceQueueGetCanonical(dev, &q));
  CUstream stream = nullptr;
  CHECK_SLUICE(sluiceQueueGetNativeHandle(q, &stream));

  // The driver alone, on the runtime's own stream and context.
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cuda) {
    std::fprintf(stderr, "no libcuda.so.1\n");
    return 1;
  }
  auto cuModuleLoadData =
      reinterpret_cast<CUresult (*)(CUmodule *, const void *)>(
          dlsym(cuda, "cuModuleLoadData"));
  auto cuModuleGetFunction =
      reinterpret_cast<CUresult (*)(CUfunction *, CUmodule, const char *)>(
          dlsym(cuda, "cuModuleGetFunction"));
  auto cuLaunchKernel = reinterpret_cast<CUresult (*)(
      CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
      unsigned, CUstream, void **, void **)>(dlsym(cuda, "cuLaunchKernel"));
  auto cuStreamSynchronize = reinterpret_cast<CUresult (*)(CUstream)>(
      dlsym(cuda, "cuStreamSynchronize"));
  auto cuCtxSetCurrent =
      reinterpret_cast<CUresult (*)(CUcontext)>(dlsym(cuda, "cuCtxSetCurrent"));
  auto cuDevicePrimaryCtxRetain =
      reinterpret_cast<CUresult (*)(CUcontext *, int)>(
          dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  CUcontext ctx = nullptr;
  cuDevicePrimaryCtxRetain(&ctx, 0);
  cuCtxSetCurrent(ctx);
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  if (cuModuleLoadData(&mod, kPtx) || cuModuleGetFunction(&fn, mod, "empty")) {
    std::fprintf(stderr, "cannot load the empty kernel\n");
    return 1;
  }
  double driver = medianUs(iters, [&] {
    cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr);
    cuStreamSynchronize(stream);
  });
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 20000; ++i)
    cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr);
  auto t1 = std::chrono::steady_clock::now();
  cuStreamSynchronize(stream);
  double driverAsync =
      std::chrono::duration<double, std::micro>(t1 - t0).count() / 20000;

  // Replaying a recorded launch sequence (a CUDA graph) against launching
  // it: 1 and 4 empty kernels, back to back. Whether graphs would pay for
  // a compiled program's launches.
  using CUgraph = void *;
  using CUgraphExec = void *;
  auto cuStreamBeginCapture = reinterpret_cast<CUresult (*)(CUstream, int)>(
      dlsym(cuda, "cuStreamBeginCapture_v2"));
  auto cuStreamEndCapture = reinterpret_cast<CUresult (*)(CUstream, CUgraph *)>(
      dlsym(cuda, "cuStreamEndCapture"));
  auto cuGraphInstantiate = reinterpret_cast<CUresult (*)(
      CUgraphExec *, CUgraph, unsigned long long)>(
      dlsym(cuda, "cuGraphInstantiateWithFlags"));
  auto cuGraphLaunch = reinterpret_cast<CUresult (*)(CUgraphExec, CUstream)>(
      dlsym(cuda, "cuGraphLaunch"));
  double graph1 = -1, graph4 = -1, launch4 = -1;
  if (cuStreamBeginCapture && cuStreamEndCapture && cuGraphInstantiate &&
      cuGraphLaunch) {
    for (int kernels : {1, 4}) {
      CUgraph g = nullptr;
      CUgraphExec exec = nullptr;
      if (cuStreamBeginCapture(stream, /*relaxed*/ 2))
        break;
      for (int i = 0; i < kernels; ++i)
        cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr);
      if (cuStreamEndCapture(stream, &g) || cuGraphInstantiate(&exec, g, 0))
        break;
      const int reps = 20000 / kernels;
      for (int i = 0; i < 100; ++i)
        cuGraphLaunch(exec, stream);
      cuStreamSynchronize(stream);
      t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps; ++i)
        cuGraphLaunch(exec, stream);
      t1 = std::chrono::steady_clock::now();
      cuStreamSynchronize(stream);
      (kernels == 1 ? graph1 : graph4) =
          std::chrono::duration<double, std::micro>(t1 - t0).count() / reps;
      if (kernels == 4) {
        t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
          for (int j = 0; j < 4; ++j)
            cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr);
        t1 = std::chrono::steady_clock::now();
        cuStreamSynchronize(stream);
        launch4 =
            std::chrono::duration<double, std::micro>(t1 - t0).count() / reps;
      }
    }
  }

  // The runtime's C API.
  SluiceModule m;
  CHECK_SLUICE(
      sluiceModuleCreate(dev, SLUICE_MODULE_PTX, kPtx, sizeof kPtx, &m));
  SluiceKernel k;
  CHECK_SLUICE(sluiceKernelGet(m, "empty", &k));
  uint64_t grid[3] = {1, 1, 1}, local[3] = {32, 1, 1};
  double runtime = medianUs(iters, [&] {
    sluiceLaunch(q, k, grid, local, 0, nullptr, 0, nullptr, nullptr);
    sluiceQueueWait(q);
  });
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 20000; ++i)
    sluiceLaunch(q, k, grid, local, 0, nullptr, 0, nullptr, nullptr);
  t1 = std::chrono::steady_clock::now();
  sluiceQueueWait(q);
  double runtimeAsync =
      std::chrono::duration<double, std::micro>(t1 - t0).count() / 20000;

  // The worst case of the replay of repeated launches: every grid launched
  // exactly twice (the second launch instantiates a graph that is never
  // used again), on a queue of its own.
  SluiceQueue fresh = nullptr;
  CHECK_SLUICE(sluiceQueueCreate(dev, &fresh));
  const int shapes = 1000;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < shapes; ++i) {
    uint64_t g[3] = {uint64_t(i + 1), 1, 1};
    for (int twice = 0; twice < 2; ++twice)
      sluiceLaunch(fresh, k, g, local, 0, nullptr, 0, nullptr, nullptr);
  }
  t1 = std::chrono::steady_clock::now();
  sluiceQueueWait(fresh);
  double twiceEach =
      std::chrono::duration<double, std::micro>(t1 - t0).count() / (2 * shapes);

  // The program layer.
  double program = medianUs(iters, [&] {
    sluiceProgramBegin();
    void *pq = sluiceProgramQueue("cuda:gpu:0", "");
    void *pm = sluiceProgramModule(pq, SLUICE_MODULE_PTX, kPtx, sizeof kPtx);
    sluiceProgramLaunch(pq, pm, "empty", 1, 1, 1, 32, 1, 1, 0, nullptr,
                        nullptr);
    sluiceProgramEnd();
  });

  // A compiled program: axpy on 1024 elements.
  double artifact = -1, artifactFree = -1, artifactAsync = -1,
         artifactBatched = -1, poolPair = -1;
  if (argc > 1) {
    void *so = dlopen(argv[1], RTLD_NOW);
    auto entry = so ? reinterpret_cast<int32_t (*)(void **)>(
                          dlsym(so, "_sluice_entry_axpy"))
                    : nullptr;
    if (!entry) {
      std::fprintf(stderr, "no _sluice_entry_axpy in %s\n", argv[1]);
      return 1;
    }
    const uint64_t n = 1024;
    std::vector<uint64_t> slots;
    std::vector<float> host(n, 1.0f);
    for (int i = 0; i < 4; ++i) {
      void *p;
      CHECK_SLUICE(sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p));
      CHECK_SLUICE(sluiceMemcpy(q, p, host.data(), n * 4, 0, nullptr, nullptr));
      uint64_t v = reinterpret_cast<uintptr_t>(p);
      for (uint64_t s : {v, v, uint64_t(0), n, uint64_t(1)})
        slots.push_back(s);
    }
    CHECK_SLUICE(sluiceQueueWait(q));
    uint64_t result[5] = {};
    std::vector<void *> args;
    for (uint64_t &s : slots)
      args.push_back(&s);
    args.push_back(result);
    for (int i = 0; i < 50; ++i) {
      entry(args.data());
      sluiceFree(nullptr, reinterpret_cast<void *>(result[0]));
    }
    std::vector<double> calls, frees;
    for (int i = 0; i < iters; ++i) {
      auto a = std::chrono::steady_clock::now();
      entry(args.data());
      auto b = std::chrono::steady_clock::now();
      sluiceFree(nullptr, reinterpret_cast<void *>(result[0]));
      auto c = std::chrono::steady_clock::now();
      calls.push_back(std::chrono::duration<double, std::micro>(b - a).count());
      frees.push_back(std::chrono::duration<double, std::micro>(c - b).count());
    }
    std::sort(calls.begin(), calls.end());
    std::sort(frees.begin(), frees.end());
    artifact = calls[iters / 2];
    artifactFree = frees[iters / 2];
    // Asynchronous calls back to back, each result freed at once.
    sluiceProgramSetAsynchronous(1);
    auto a = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) {
      entry(args.data());
      sluiceFree(nullptr, reinterpret_cast<void *>(result[0]));
    }
    auto b = std::chrono::steady_clock::now();
    sluiceQueueWait(q);
    artifactAsync =
        std::chrono::duration<double, std::micro>(b - a).count() / iters;
    // The same, but the results are freed in batches after the queue went
    // idle: what the calls cost when the pool can hand back finished
    // blocks (no driver allocation in the loop).
    std::vector<void *> batch;
    a = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) {
      entry(args.data());
      batch.push_back(reinterpret_cast<void *>(result[0]));
      if (batch.size() == 64) {
        sluiceQueueWait(q);
        for (void *p : batch)
          sluiceFree(nullptr, p);
        batch.clear();
      }
    }
    b = std::chrono::steady_clock::now();
    sluiceQueueWait(q);
    for (void *p : batch)
      sluiceFree(nullptr, p);
    artifactBatched =
        std::chrono::duration<double, std::micro>(b - a).count() / iters;
    sluiceProgramSetAsynchronous(0);
    // The pool alone: allocate and free 4 KiB of device memory.
    poolPair = medianUs(iters, [&] {
      void *p = nullptr;
      sluiceMalloc(q, SLUICE_USM_DEVICE, n * 4, 64, &p);
      sluiceFree(q, p);
    });
  }

  std::printf("microseconds per call (median of %d; empty kernel unless "
              "noted)\n",
              iters);
  std::printf("  driver   cuLaunchKernel + cuStreamSynchronize   %7.2f\n",
              driver);
  std::printf("  driver   cuLaunchKernel, back to back           %7.2f\n",
              driverAsync);
  if (graph1 >= 0)
    std::printf("  driver   cuGraphLaunch of 1 kernel, back to back %7.2f\n",
                graph1);
  if (graph4 >= 0)
    std::printf("  driver   4 kernels: cuGraphLaunch %7.2f, 4 cuLaunchKernel "
                "%7.2f (back to back)\n",
                graph4, launch4);
  std::printf("  runtime  sluiceLaunch + sluiceQueueWait         %7.2f\n",
              runtime);
  std::printf("  runtime  sluiceLaunch, back to back             %7.2f\n",
              runtimeAsync);
  std::printf("  runtime  sluiceLaunch, every grid launched twice  %7.2f\n",
              twiceEach);
  std::printf("  program  Begin + Queue + Module + Launch + End  %7.2f\n",
              program);
  if (artifact >= 0)
    std::printf("  artifact axpy n=1024 entry call                 %7.2f  "
                "(+ %.2f to free the result)\n",
                artifact, artifactFree);
  if (artifactAsync >= 0)
    std::printf("  artifact axpy n=1024, asynchronous, back to back %7.2f  "
                "(call + free of the result)\n",
                artifactAsync);
  if (artifactBatched >= 0)
    std::printf("  artifact axpy n=1024, asynchronous, results freed "
                "in batches after a wait %7.2f\n",
                artifactBatched);
  if (poolPair >= 0)
    std::printf("  pool     sluiceMalloc + sluiceFree, 4 KiB device %7.2f\n",
                poolPair);
  return 0;
}
