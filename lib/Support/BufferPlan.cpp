//===- BufferPlan.cpp - Place buffers in an arena by lifetime -------------===//

#include "nnapi-mlir/Support/BufferPlan.h"

#include <algorithm>
#include <utility>

namespace nnapi_mlir {

size_t planBuffers(const std::vector<BufferRequest> &requests,
                   size_t alignment, std::vector<size_t> &offsets) {
  auto roundUp = [&](size_t v) { return (v + alignment - 1) / alignment * alignment; };
  std::vector<size_t> order(requests.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  // Largest first; ties by first use, so the plan is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (requests[a].bytes != requests[b].bytes)
      return requests[a].bytes > requests[b].bytes;
    return requests[a].first < requests[b].first;
  });
  offsets.assign(requests.size(), 0);
  std::vector<size_t> placed;
  size_t total = 0;
  for (size_t i : order) {
    const BufferRequest &r = requests[i];
    // Address ranges of placed buffers alive at the same time, by offset.
    std::vector<std::pair<size_t, size_t>> busy;
    for (size_t j : placed) {
      const BufferRequest &q = requests[j];
      if (q.first <= r.last && r.first <= q.last)
        busy.push_back({offsets[j], offsets[j] + roundUp(q.bytes)});
    }
    std::sort(busy.begin(), busy.end());
    size_t offset = 0, size = roundUp(r.bytes);
    for (auto [begin, end] : busy) {
      if (offset + size <= begin)
        break;
      offset = std::max(offset, end);
    }
    offsets[i] = offset;
    placed.push_back(i);
    total = std::max(total, offset + size);
  }
  return total;
}

} // namespace nnapi_mlir
