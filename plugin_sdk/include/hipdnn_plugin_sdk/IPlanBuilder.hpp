// One way of running a class of graphs, used by PlanBuilderEngine.
#pragma once

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk {

/// A plan builder recognises some graphs and builds execution contexts for them. An engine made
/// of several builders (PlanBuilderEngine) uses the first one that accepts a graph.
template <class THandle>
class IPlanBuilder {
public:
    virtual ~IPlanBuilder() = default;

    /// Short name used in decline reasons, e.g. "conv_fwd_direct".
    virtual std::string name() const = 0;

    /// True when the builder can run `graph`; otherwise `reason` says why in one line.
    virtual bool isApplicable(THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                              std::string& reason) const = 0;

    /// The knobs this builder understands for `graph`. Default: none.
    virtual std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        THandle& /*handle*/, const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
        return {};
    }

    virtual std::size_t workspaceSize(THandle& handle,
                                      const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                      const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;

    virtual std::unique_ptr<IExecutionContext> buildExecutionContext(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;
};

}  // namespace hipdnn_plugin_sdk
