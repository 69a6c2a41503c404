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

size_t LaunchReplay::KeyHash::operator()(const Key &k) const {
  uint64_t h = k.kernelId * 0x9e3779b97f4a7c15ull;
  return size_t(h ^ k.numArgs);
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

bool LaunchReplay::holds(const Graph &g, const unsigned grid[3],
                         const unsigned block[3], const KernelArgs &args) {
  if (std::memcmp(g.grid, grid, sizeof g.grid) != 0 ||
      std::memcmp(g.block, block, sizeof g.block) != 0)
    return false;
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

void LaunchReplay::store(Graph &g, const unsigned grid[3],
                         const unsigned block[3], const KernelArgs &args) {
  std::memcpy(g.grid, grid, sizeof g.grid);
  std::memcpy(g.block, block, sizeof g.block);
  size_t total = 0;
  for (size_t i = 0; i < args.size(); ++i)
    total += args.valueSize(i);
  g.values.resize(total); // the same size as before but the first time
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

CUresult LaunchReplay::launch(uint64_t kernelId, CUfunction fn,
                              const unsigned grid[3], const unsigned block[3],
                              const KernelArgs &args, void **params,
                              CUstream stream) {
  auto direct = [&] {
    return cu().cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0],
                               block[1], block[2], 0, stream, params, nullptr);
  };
  if (!enabled)
    return direct();
  Key key{kernelId, args.size()};
  auto it = graphs.find(key);
  if (it == graphs.end()) {
    if (graphs.size() >= kMaxGraphs)
      evictOldest();
    it = graphs.emplace(key, Graph()).first;
  }
  Graph &g = it->second;
  g.lastUse = ++clock;
  if (g.direct)
    return direct();
  if (!g.seen) { // a kernel launched once is launched directly
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
  if (!g.exec || !holds(g, grid, block, args)) {
    if (g.exec &&
        cu().cuGraphExecKernelNodeSetParams(g.exec, g.node, &p) != CUDA_SUCCESS)
      destroy(g); // a node the driver will not update: instantiated afresh
    if (!g.exec && instantiate(g, p) != CUDA_SUCCESS) {
      // Graphs cannot hold this kernel: the driver says why, if anything
      // is wrong with the launch, when it is launched directly.
      destroy(g);
      g.direct = true;
      return direct();
    }
    store(g, grid, block, args);
  }
  if (cu().cuGraphLaunch(g.exec, stream) != CUDA_SUCCESS) {
    // A failed replay enqueued nothing: the direct launch reports the
    // driver's error for the launch itself (a sticky error of the context
    // comes back from it too).
    destroy(g);
    g.direct = true;
    return direct();
  }
  ++replays;
  return CUDA_SUCCESS;
}

} // namespace sluice::rt::cuda
