//===- CudaLaunchReplay.cpp - Launches replayed as CUDA graphs ------------===//
#include "CudaLaunchReplay.h"

#include <cstdlib>
#include <cstring>

namespace sluice::rt::cuda {

namespace {
/// $SLUICE_CUDA_GRAPHS: "off", "0", "false" or "no" launches every kernel
/// directly.
bool graphsWanted() {
  const char *env = std::getenv("SLUICE_CUDA_GRAPHS");
  if (!env)
    return true;
  for (const char *off : {"off", "0", "false", "no"})
    if (std::strcmp(env, off) == 0)
      return false;
  return true;
}

bool driverHasGraphs() {
  const DriverApi &f = cu();
  return f.cuGraphCreate && f.cuGraphDestroy && f.cuGraphAddKernelNode &&
         f.cuGraphInstantiateWithFlags && f.cuGraphExecDestroy &&
         f.cuGraphExecKernelNodeSetParams && f.cuGraphLaunch;
}
} // namespace

bool LaunchReplay::Shape::operator==(const Shape &o) const {
  return fn == o.fn && numArgs == o.numArgs &&
         std::memcmp(grid, o.grid, sizeof grid) == 0 &&
         std::memcmp(block, o.block, sizeof block) == 0;
}

size_t LaunchReplay::ShapeHash::operator()(const Shape &s) const {
  uint64_t h = reinterpret_cast<uintptr_t>(s.fn) * 0x9e3779b97f4a7c15ull;
  for (unsigned v :
       {s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2]})
    h = (h ^ v) * 0x100000001b3ull;
  return size_t(h ^ s.numArgs);
}

LaunchReplay::LaunchReplay() : enabled(graphsWanted() && driverHasGraphs()) {}

LaunchReplay::~LaunchReplay() {
  for (auto &entry : graphs)
    destroy(entry.second);
}

void LaunchReplay::destroy(Graph &g) {
  if (g.exec)
    cu().cuGraphExecDestroy(g.exec);
  if (g.graph)
    cu().cuGraphDestroy(g.graph);
  g.exec = nullptr;
  g.graph = nullptr;
  g.node = nullptr;
}

bool LaunchReplay::sameValues(const Graph &g, const KernelArgs &args) {
  size_t at = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    size_t n = args.valueSize(i);
    if (at + n > g.values.size() ||
        std::memcmp(g.values.data() + at, args.value(i), n) != 0)
      return false;
    at += n;
  }
  return at == g.values.size();
}

void LaunchReplay::storeValues(Graph &g, const KernelArgs &args) {
  size_t total = 0;
  for (size_t i = 0; i < args.size(); ++i)
    total += args.valueSize(i);
  g.values.resize(total); // the same size as before but for the first time
  size_t at = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    std::memcpy(g.values.data() + at, args.value(i), args.valueSize(i));
    at += args.valueSize(i);
  }
}

CUresult LaunchReplay::instantiate(Graph &g, const CUDA_KERNEL_NODE_PARAMS &p) {
  const DriverApi &f = cu();
  if (CUresult r = f.cuGraphCreate(&g.graph, 0))
    return r;
  if (CUresult r = f.cuGraphAddKernelNode(&g.node, g.graph, nullptr, 0, &p))
    return r;
  return f.cuGraphInstantiateWithFlags(&g.exec, g.graph, 0);
}

void LaunchReplay::evictOldest() {
  auto oldest = graphs.begin();
  for (auto it = graphs.begin(); it != graphs.end(); ++it)
    if (it->second.lastUse < oldest->second.lastUse)
      oldest = it;
  destroy(oldest->second);
  graphs.erase(oldest);
}

CUresult LaunchReplay::launch(CUfunction fn, const unsigned grid[3],
                              const unsigned block[3], const KernelArgs &args,
                              void **params, CUstream stream) {
  auto direct = [&] {
    return cu().cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0],
                               block[1], block[2], 0, stream, params, nullptr);
  };
  if (!enabled)
    return direct();
  Shape shape{fn,
              {grid[0], grid[1], grid[2]},
              {block[0], block[1], block[2]},
              args.size()};
  auto it = graphs.find(shape);
  if (it == graphs.end()) {
    if (graphs.size() >= kMaxGraphs)
      evictOldest();
    it = graphs.emplace(shape, Graph()).first;
  }
  Graph &g = it->second;
  g.lastUse = ++clock;
  if (g.direct)
    return direct();
  if (!g.seen) { // a launch seen once is launched directly
    g.seen = true;
    return direct();
  }
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = fn;
  p.gridDimX = grid[0];
  p.gridDimY = grid[1];
  p.gridDimZ = grid[2];
  p.blockDimX = block[0];
  p.blockDimY = block[1];
  p.blockDimZ = block[2];
  p.kernelParams = params;
  if (!g.exec) {
    if (instantiate(g, p) != CUDA_SUCCESS) {
      // Graphs cannot hold this launch: the driver says why, if anything
      // is wrong with it, when it is launched directly.
      destroy(g);
      g.direct = true;
      return direct();
    }
    storeValues(g, args);
  } else if (!sameValues(g, args)) {
    if (cu().cuGraphExecKernelNodeSetParams(g.exec, g.node, &p) !=
        CUDA_SUCCESS) {
      destroy(g);
      g.direct = true;
      return direct();
    }
    storeValues(g, args);
  }
  if (CUresult r = cu().cuGraphLaunch(g.exec, stream)) {
    // A failed replay enqueued nothing: the direct launch reports the
    // driver's error for the launch itself (a sticky error of the context
    // comes back from it too).
    destroy(g);
    g.direct = true;
    (void)r;
    return direct();
  }
  ++replays;
  return CUDA_SUCCESS;
}

} // namespace sluice::rt::cuda
