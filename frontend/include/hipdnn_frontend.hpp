// hipDNN frontend: a header-only C++ graph API over the hipdnn backend C API.
//
//   namespace fe = hipdnn_frontend;
//   fe::graph::Graph graph;
//   graph.set_io_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
//   auto x = graph.tensor(fe::graph::TensorAttributes().set_name("x").set_dim(...).set_stride(...));
//   auto y = graph.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}) ...);
//   y->set_output(true);
//   graph.build(handle);   // or the explicit lifecycle, see docs/UserGuide.md
//   graph.execute(handle, variantPack, workspace);
#pragma once

#include "hipdnn_frontend/DeclinedEngine.hpp"
#include "hipdnn_frontend/Error.hpp"
#include "hipdnn_frontend/Graph.hpp"
#include "hipdnn_frontend/Handle.hpp"
#include "hipdnn_frontend/Knobs.hpp"
#include "hipdnn_frontend/Logging.hpp"
#include "hipdnn_frontend/Types.hpp"
