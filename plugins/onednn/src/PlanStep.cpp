#include "PlanStep.hpp"

#include <algorithm>

namespace hipdnn_onednn {

dnnl::memory PlanStep::tensorMemory(const dnnl::memory::desc& desc, int64_t uid) {
    dnnl::memory memory(desc, _engine, DNNL_MEMORY_NONE);
    _tensorBindings.push_back({memory, uid});
    return memory;
}

dnnl::memory PlanStep::privateMemory(const dnnl::memory::desc& desc) {
    return privateMemoryAt(desc, reservePrivate(desc.get_size()));
}

dnnl::memory PlanStep::privateMemoryAt(const dnnl::memory::desc& desc, size_t offset) {
    dnnl::memory memory(desc, _engine, DNNL_MEMORY_NONE);
    _privateBindings.push_back({memory, offset});
    return memory;
}

size_t PlanStep::reservePrivate(size_t bytes) {
    const size_t offset = _privateBytes;
    _privateBytes += alignUp(bytes);
    return offset;
}

void PlanStep::addPrimitive(dnnl::primitive primitive, Args args, const dnnl::memory::desc& scratchpad) {
    Action action;
    action.primitive = std::move(primitive);
    if (scratchpad.get_size() > 0) {
        action.scratchpad = dnnl::memory(scratchpad, _engine, DNNL_MEMORY_NONE);
        args.insert_or_assign(DNNL_ARG_SCRATCHPAD, *action.scratchpad);
        _scratchpadBytes = std::max(_scratchpadBytes, alignUp(scratchpad.get_size()));
    }
    action.args = std::move(args);
    _actions.push_back(std::move(action));
}

void PlanStep::addHostWork(HostWork work) {
    Action action;
    action.host = std::move(work);
    _actions.push_back(std::move(action));
}

std::vector<int64_t> PlanStep::boundUids() const {
    std::vector<int64_t> uids;
    for (const auto& binding : _tensorBindings) {
        if (std::find(uids.begin(), uids.end(), binding.uid) == uids.end()) {
            uids.push_back(binding.uid);
        }
    }
    return uids;
}

void PlanStep::execute(dnnl::stream& stream, std::byte* scratchpad, std::byte* privateArea,
                       const ExecutionBuffers& buffers) const {
    for (const auto& binding : _tensorBindings) {
        binding.memory.set_data_handle(buffers.tensor(binding.uid));
    }
    for (const auto& binding : _privateBindings) {
        binding.memory.set_data_handle(privateArea + binding.offset);
    }
    for (const auto& action : _actions) {
        if (action.primitive) {
            if (action.scratchpad) {
                action.scratchpad->set_data_handle(scratchpad);
            }
            action.primitive->execute(stream, action.args);
        } else {
            // Host work reads what the previous primitives wrote.
            stream.wait();
            action.host(buffers, privateArea);
        }
    }
    stream.wait();
}

dnnl::primitive_attr userScratchpadAttr() {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return attr;
}

}  // namespace hipdnn_onednn
