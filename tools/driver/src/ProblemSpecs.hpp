// What the subcommands describe, as plain values: one spec per subcommand, each in its folder
// with its flag table (<problem>/<Problem>Spec.hpp and <Problem>Flags.cpp: parsed by Options.cpp,
// printed back as the reproducer) and its graph construction (<Problem>Problem.cpp).
#pragma once

#include <variant>

#include "bn/BnSpec.hpp"
#include "conv/ConvSpec.hpp"
#include "demo/DemoSpec.hpp"
#include "graph/GraphSpec.hpp"
#include "matmul/MatmulSpec.hpp"
#include "norm/NormSpec.hpp"
#include "pointwise/PointwiseSpec.hpp"
#include "pool/PoolSpec.hpp"
#include "sdpa/SdpaSpec.hpp"

namespace hipdnn_driver {

using ProblemSpec = std::variant<ConvSpec, BnSpec, PointwiseSpec, MatmulSpec, NormSpec, PoolSpec, SdpaSpec,
                                 GraphSpec, DemoCaseSpec>;

}  // namespace hipdnn_driver
