// One stage of an execution plan: oneDNN primitives (created at plan time) and small host
// computations, run in order over memory objects whose data handles are bound at execute time.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hipdnn_onednn {

/// Where a step finds the data of graph tensors during one execute call.
class ExecutionBuffers {
public:
    virtual ~ExecutionBuffers() = default;
    /// The data of tensor `uid` (a user buffer, a workspace slot for a virtual tensor, or the
    /// plan's copy of a pass-by-value scalar). Throws when the tensor has no buffer.
    virtual void* tensor(int64_t uid) const = 0;
};

class PlanStep {
public:
    using Args = std::unordered_map<int, dnnl::memory>;
    /// Host-side work between primitives (statistics conversions, running averages).
    using HostWork = std::function<void(const ExecutionBuffers& buffers, std::byte* privateArea)>;

    explicit PlanStep(dnnl::engine engine) : _engine(std::move(engine)) {}

    const dnnl::engine& engine() const { return _engine; }

    /// A memory object over graph tensor `uid`, rebound to the tensor's buffer at every execute.
    dnnl::memory tensorMemory(const dnnl::memory::desc& desc, int64_t uid);

    /// A memory object over a new region of the step's private workspace area.
    dnnl::memory privateMemory(const dnnl::memory::desc& desc);

    /// A memory object over the region at `offset` (from reservePrivate), shared with host work.
    dnnl::memory privateMemoryAt(const dnnl::memory::desc& desc, size_t offset);

    /// Reserves `bytes` of the private area for host work; returns the region's offset.
    size_t reservePrivate(size_t bytes);

    /// Appends a primitive. `scratchpad` is its primitive descriptor's scratchpad descriptor
    /// (scratchpad_mode::user): the plan's shared scratchpad region is bound to it.
    void addPrimitive(dnnl::primitive primitive, Args args, const dnnl::memory::desc& scratchpad);

    void addHostWork(HostWork work);

    size_t scratchpadBytes() const { return _scratchpadBytes; }
    size_t privateBytes() const { return _privateBytes; }

    /// Graph tensors the step binds (the plan gives virtual ones a workspace slot).
    std::vector<int64_t> boundUids() const;

    /// Binds every memory object, then runs the actions in order and waits for the stream.
    void execute(dnnl::stream& stream, std::byte* scratchpad, std::byte* privateArea,
                 const ExecutionBuffers& buffers) const;

private:
    struct TensorBinding {
        dnnl::memory memory;
        int64_t uid;
    };
    struct PrivateBinding {
        dnnl::memory memory;
        size_t offset;
    };
    struct Action {
        std::optional<dnnl::primitive> primitive;
        Args args;
        std::optional<dnnl::memory> scratchpad;
        HostWork host;
    };

    dnnl::engine _engine;
    std::vector<TensorBinding> _tensorBindings;
    std::vector<PrivateBinding> _privateBindings;
    std::vector<Action> _actions;
    size_t _scratchpadBytes = 0;
    size_t _privateBytes = 0;
};

/// Bytes are handed out in multiples of this so that every region is cache-line aligned.
inline constexpr size_t kWorkspaceAlignment = 64;

inline size_t alignUp(size_t bytes) {
    return (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
}

/// Primitive attributes every stage starts from: user scratchpad, so that oneDNN allocates
/// nothing at execute time and the scratchpad is reported as the plan's workspace.
dnnl::primitive_attr userScratchpadAttr();

}  // namespace hipdnn_onednn
