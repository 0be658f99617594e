#include "SupportTable.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include <hipdnn_frontend.hpp>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

struct Variant {
    DataType dataType;
    const char* dataTypeName;
};

const Variant kVariants[] = {
    {DataType::FLOAT, "fp32"}, {DataType::HALF, "fp16"}, {DataType::BFLOAT16, "bf16"}};

struct LayoutVariant {
    Layout layout;
    const char* name;
};

const LayoutVariant kLayouts[] = {{Layout::ChannelsFirst, "NCHW"}, {Layout::ChannelsLast, "NHWC"}};

ConvSpec smallConv(ConvSpec::Direction direction) {
    ConvSpec spec;
    spec.direction = direction;
    spec.n = 1;
    spec.c = 8;
    spec.h = 8;
    spec.w = 8;
    spec.k = 8;
    spec.padH = 1;
    spec.padW = 1;
    return spec;
}

BnSpec smallBn(BnSpec::Mode mode) {
    BnSpec spec;
    spec.mode = mode;
    spec.n = 2;
    spec.c = 8;
    spec.h = 8;
    spec.w = 8;
    return spec;
}

PointwiseSpec smallPointwise(fe::PointwiseMode mode) {
    PointwiseSpec spec;
    spec.mode = mode;
    spec.dims = {2, 8, 8, 8};
    return spec;
}

PoolSpec smallPool(PoolSpec::Kind kind) {
    PoolSpec spec;
    spec.kind = kind;
    spec.n = 1;
    spec.c = 8;
    spec.h = 8;
    spec.w = 8;
    spec.windowH = 2;
    spec.windowW = 2;
    spec.padH = 0;
    spec.padW = 0;
    return spec;
}

MatmulSpec smallMatmul(std::vector<EpilogueOp> epilogue) {
    MatmulSpec spec;
    spec.batch = 1;
    spec.m = 16;
    spec.n = 16;
    spec.k = 16;
    spec.epilogue = std::move(epilogue);
    return spec;
}

NormSpec smallNorm(NormSpec::Kind kind, NormSpec::Direction direction = NormSpec::Direction::Forward) {
    NormSpec spec;
    spec.kind = kind;
    spec.direction = direction;
    spec.dims = {4, 32};
    return spec;
}

SdpaSpec smallSdpa(SdpaSpec::Direction direction, bool causal) {
    SdpaSpec spec;
    spec.direction = direction;
    spec.heads = 4;
    spec.kvHeads = 2;
    spec.seqQ = 16;
    spec.headDim = 16;
    spec.causal = causal;
    return spec;
}

}  // namespace

std::vector<SupportProbe> supportProbes() {
    std::vector<SupportProbe> probes;
    // Operations with a layout: one probe per data type x layout.
    std::vector<std::pair<std::string, ProblemSpec>> layoutOps;
    ConvSpec fused = smallConv(ConvSpec::Direction::Fprop);
    fused.epilogue = {EpilogueOp::Bias, EpilogueOp::Relu};
    ConvSpec residual = smallConv(ConvSpec::Direction::Fprop);
    residual.epilogue = {EpilogueOp::Bias, EpilogueOp::Add, EpilogueOp::Relu};
    BnSpec bnRelu = smallBn(BnSpec::Mode::Inference);
    bnRelu.epilogue = {EpilogueOp::Relu};
    PointwiseSpec broadcast = smallPointwise(fe::PointwiseMode::MUL);
    broadcast.secondDims = {1, 8, 1, 1};
    layoutOps = {
        {"conv fprop", smallConv(ConvSpec::Direction::Fprop)},
        {"conv dgrad", smallConv(ConvSpec::Direction::Dgrad)},
        {"conv wgrad", smallConv(ConvSpec::Direction::Wgrad)},
        {"conv fprop + bias + relu", fused},
        {"conv fprop + bias + add + relu", residual},
        {"batchnorm inference", smallBn(BnSpec::Mode::Inference)},
        {"batchnorm inference + relu", bnRelu},
        {"batchnorm training", smallBn(BnSpec::Mode::Training)},
        {"batchnorm backward", smallBn(BnSpec::Mode::Backward)},
        {"pointwise relu", smallPointwise(fe::PointwiseMode::RELU_FWD)},
        {"pointwise gelu", smallPointwise(fe::PointwiseMode::GELU_FWD)},
        {"pointwise add", smallPointwise(fe::PointwiseMode::ADD)},
        {"pointwise mul (broadcast)", broadcast},
        {"max pooling", smallPool(PoolSpec::Kind::Max)},
        {"average pooling", smallPool(PoolSpec::Kind::Avg)},
    };
    for (const auto& [operation, spec] : layoutOps) {
        for (const auto& variant : kVariants) {
            for (const auto& layout : kLayouts) {
                ProblemSpec probe = spec;
                std::visit(
                    [&](auto& s) {
                        if constexpr (requires { s.dataType; }) {
                            s.dataType = variant.dataType;
                        }
                        if constexpr (requires { s.layout; }) {
                            s.layout = layout.layout;
                        }
                    },
                    probe);
                probes.push_back({operation, variant.dataTypeName, layout.name, makeProblem(probe)});
            }
        }
    }
    // Operations without a layout choice.
    const std::vector<std::pair<std::string, ProblemSpec>> plainOps = {
        {"matmul", smallMatmul({})},
        {"matmul + bias + gelu", smallMatmul({EpilogueOp::Bias, EpilogueOp::Gelu})},
        {"layernorm", smallNorm(NormSpec::Kind::Layernorm)},
        {"rmsnorm", smallNorm(NormSpec::Kind::Rmsnorm)},
        {"layernorm backward", smallNorm(NormSpec::Kind::Layernorm, NormSpec::Direction::Backward)},
        {"rmsnorm backward", smallNorm(NormSpec::Kind::Rmsnorm, NormSpec::Direction::Backward)},
    };
    for (const auto& [operation, spec] : plainOps) {
        for (const auto& variant : kVariants) {
            ProblemSpec probe = spec;
            std::visit(
                [&](auto& s) {
                    if constexpr (requires { s.dataType; }) {
                        s.dataType = variant.dataType;
                    }
                },
                probe);
            probes.push_back({operation, variant.dataTypeName, "-", makeProblem(probe)});
        }
    }
    // Attention, in its own memory orders (grouped-query heads, 2 query heads per KV head).
    const std::vector<std::pair<std::string, SdpaSpec>> attentionOps = {
        {"sdpa forward", smallSdpa(SdpaSpec::Direction::Forward, false)},
        {"sdpa forward causal", smallSdpa(SdpaSpec::Direction::Forward, true)},
        {"sdpa backward", smallSdpa(SdpaSpec::Direction::Backward, false)},
        {"sdpa backward causal", smallSdpa(SdpaSpec::Direction::Backward, true)},
    };
    for (const auto& [operation, spec] : attentionOps) {
        for (const auto& variant : kVariants) {
            for (const auto order : {SdpaSpec::MemoryOrder::Bhsd, SdpaSpec::MemoryOrder::Bshd}) {
                SdpaSpec probe = spec;
                probe.dataType = variant.dataType;
                probe.order = order;
                probes.push_back({operation, variant.dataTypeName,
                                  order == SdpaSpec::MemoryOrder::Bhsd ? "BHSD" : "BSHD",
                                  makeProblem(probe)});
            }
        }
    }
    return probes;
}

void printSupportTable(const std::vector<Session*>& sessions, const std::string& commandLine,
                       std::ostream& out) {
    struct Column {
        Session* session;
        std::string engine;
    };
    std::vector<Column> columns;
    std::string devices;
    for (Session* session : sessions) {
        devices += (devices.empty() ? "" : ", ") + session->deviceDescription();
        for (const auto& engine : session->engines()) {
            columns.push_back({session, engine.name});
        }
    }
    const auto probes = supportProbes();

    out << "# Operation support\n\n"
        << "<!-- Generated; do not edit. Regenerate with: " << commandLine << " -->\n\n"
        << "Generated by `" << commandLine << "` from the engines' own answers: for every row the driver\n"
        << "builds one small graph through the frontend and asks the backend's heuristics which engines\n"
        << "accept it; an engine that declines gives its reason (`HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT`),\n"
        << "listed under the table. Devices asked: " << devices << ". Engines of a device that was not\n"
        << "present (e.g. GPU engines on a machine without a GPU) do not appear; run the command on such a\n"
        << "machine to add them.\n\n"
        << "`yes` = the engine accepts the graph; `no [n]` = it declines it, for reason n.\n\n";
    out << "| operation | dtype | layout |";
    for (const auto& column : columns) {
        out << " " << column.engine << " |";
    }
    out << "\n|---|---|---|";
    for (size_t i = 0; i < columns.size(); ++i) {
        out << "---|";
    }
    out << "\n";

    std::vector<std::string> reasons;
    auto reasonNumber = [&](const std::string& text) {
        const auto found = std::find(reasons.begin(), reasons.end(), text);
        if (found != reasons.end()) {
            return static_cast<size_t>(found - reasons.begin()) + 1;
        }
        reasons.push_back(text);
        return reasons.size();
    };
    for (const auto& probe : probes) {
        // Per device: accepted engines and decline reasons.
        std::map<Session*, std::set<std::string>> accepted;
        std::map<Session*, std::map<std::string, std::string>> declined;
        for (Session* session : sessions) {
            fe::graph::Graph graph;
            fe::Error error = graph.deserialize(session->handle(), probe.problem.graph);
            if (error.is_good()) {
                error = graph.create_execution_plans({fe::HeuristicMode::FALLBACK});
            }
            for (int64_t i = 0; error.is_good() && i < graph.get_execution_plan_count(); ++i) {
                std::string name;
                if (graph.get_plan_name_at_index(i, name).is_good()) {
                    accepted[session].insert(name);
                }
            }
            for (const auto& entry : graph.get_declined_engines()) {
                declined[session][entry.engine_name] = entry.reason;
            }
        }
        out << "| " << probe.operation << " | " << probe.dataType << " | " << probe.layout << " |";
        for (const auto& column : columns) {
            if (accepted[column.session].count(column.engine) != 0) {
                out << " yes |";
            } else {
                const auto& reasonsOfDevice = declined[column.session];
                const auto found = reasonsOfDevice.find(column.engine);
                std::string reason = found != reasonsOfDevice.end() ? found->second : "not asked";
                std::replace(reason.begin(), reason.end(), '\n', ' ');
                out << " no [" << reasonNumber(column.engine + ": " + reason) << "] |";
            }
        }
        out << "\n";
    }
    if (!reasons.empty()) {
        out << "\n## Reasons given\n\n";
        for (size_t i = 0; i < reasons.size(); ++i) {
            out << (i + 1) << ". " << reasons[i] << "\n";
        }
    }
}

}  // namespace hipdnn_driver
