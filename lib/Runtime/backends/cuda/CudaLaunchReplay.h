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
/// second launch of a kernel with the same grid and workgroup (a compiled
/// program called again with the same shapes) instantiates a one-node graph
/// of it, and every later one launches that graph (cuGraphLaunch costs
/// about half of cuLaunchKernel on the host). Argument values are compared
/// with the graph's; changed ones (other pointers, other sizes) are written
/// into the graph's node before its launch, so a replay runs exactly the
/// launch asked for. A different grid or workgroup is another graph. At
/// most kMaxGraphs shapes are kept (the least recently launched goes).
/// $SLUICE_CUDA_GRAPHS=off (or 0) launches every kernel directly; so does a
/// driver without graphs, and any graph call that fails falls back to the
/// direct launch for that shape. Not thread-safe: the queue's submission
/// lock guards it.
class LaunchReplay {
public:
  static constexpr size_t kMaxGraphs = 64;

  LaunchReplay();
  /// Destroys the graphs (the queue's context must be current).
  ~LaunchReplay();
  LaunchReplay(const LaunchReplay &) = delete;
  LaunchReplay &operator=(const LaunchReplay &) = delete;

  /// Launches `fn` on `stream` with `params` (the addresses of the values
  /// in `args`), directly or as a graph.
  CUresult launch(CUfunction fn, const unsigned grid[3],
                  const unsigned block[3], const KernelArgs &args,
                  void **params, CUstream stream);

  /// Launches that ran as a graph (for tests and benchmarks).
  uint64_t replayed() const { return replays; }

private:
  struct Shape {
    CUfunction fn;
    unsigned grid[3], block[3];
    size_t numArgs;
    bool operator==(const Shape &o) const;
  };
  struct ShapeHash {
    size_t operator()(const Shape &s) const;
  };
  struct Graph {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    CUgraphNode node = nullptr;
    /// The argument values the node holds, back to back.
    std::vector<unsigned char> values;
    uint64_t lastUse = 0;
    /// Launched directly once (the next launch instantiates the graph).
    bool seen = false;
    /// A graph call failed: always launched directly.
    bool direct = false;
  };

  /// Whether `args` are the values `g` holds.
  static bool sameValues(const Graph &g, const KernelArgs &args);
  static void storeValues(Graph &g, const KernelArgs &args);
  CUresult instantiate(Graph &g, const CUDA_KERNEL_NODE_PARAMS &p);
  void destroy(Graph &g);
  void evictOldest();

  bool enabled;
  uint64_t clock = 0, replays = 0;
  std::unordered_map<Shape, Graph, ShapeHash> graphs;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDALAUNCHREPLAY_H
