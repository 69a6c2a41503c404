//===- CudaLaunchReplay.h - Launches replayed as CUDA graphs ----*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDALAUNCHREPLAY_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDALAUNCHREPLAY_H

#include "CudaDriver.h"

#include "sluice/Runtime/KernelArgs.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sluice::rt::cuda {

/// One stream's launches, replayed from instantiated CUDA graphs: the
/// second launch of a kernel on the stream (a compiled program called
/// again) instantiates a one-node graph of it, and every later launch of
/// that kernel launches the graph (cuGraphLaunch costs about half of
/// cuLaunchKernel on the host). The grid, workgroup and argument values
/// are compared with the node's; what changed (other shapes, other arrays)
/// is written into the node before the launch, so a replay runs exactly the
/// launch asked for. At most kMaxGraphs kernels keep a graph (the least
/// recently launched goes). $SLUICE_CUDA_GRAPHS=off (or 0) launches every
/// kernel directly; so does a driver without graphs; a node the driver will
/// not update is instantiated afresh, and a kernel the driver cannot put in
/// a graph is launched directly from then on. Not thread-safe: the queue's
/// submission lock guards it.
class LaunchReplay {
public:
  static constexpr size_t kMaxGraphs = 64;

  LaunchReplay();
  /// Destroys the graphs (the queue's context must be current).
  ~LaunchReplay();
  LaunchReplay(const LaunchReplay &) = delete;
  LaunchReplay &operator=(const LaunchReplay &) = delete;

  /// Launches `fn` (of the kernel numbered `kernelId`, CudaKernel::id) on
  /// `stream` with `params` (the addresses of the values in `args`),
  /// directly or as a graph.
  CUresult launch(uint64_t kernelId, CUfunction fn, const unsigned grid[3],
                  const unsigned block[3], const KernelArgs &args,
                  void **params, CUstream stream);

  /// Launches that ran as a graph (for tests and benchmarks).
  uint64_t replayed() const { return replays; }

private:
  struct Key {
    uint64_t kernelId;
    size_t numArgs;
    bool operator==(const Key &o) const {
      return kernelId == o.kernelId && numArgs == o.numArgs;
    }
  };
  struct KeyHash {
    size_t operator()(const Key &k) const;
  };
  struct Graph {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    CUgraphNode node = nullptr;
    /// The grid, workgroup and argument values (back to back) the node
    /// holds.
    unsigned grid[3] = {}, block[3] = {};
    std::vector<unsigned char> values;
    uint64_t lastUse = 0;
    /// Launched directly once (the next launch instantiates the graph).
    bool seen = false;
    /// A graph call failed: always launched directly.
    bool direct = false;
  };

  /// Whether `g`'s node holds this launch.
  static bool holds(const Graph &g, const unsigned grid[3],
                    const unsigned block[3], const KernelArgs &args);
  static void store(Graph &g, const unsigned grid[3], const unsigned block[3],
                    const KernelArgs &args);
  CUresult instantiate(Graph &g, const CUDA_KERNEL_NODE_PARAMS &p);
  void destroy(Graph &g);
  void evictOldest();

  bool enabled;
  uint64_t clock = 0, replays = 0;
  std::unordered_map<Key, Graph, KeyHash> graphs;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDALAUNCHREPLAY_H
