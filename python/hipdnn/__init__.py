"""hipdnn: graph-based deep-learning primitives whose engines come from plugins loaded at run time.

The API follows cudnn-frontend's Python graph API: build a Graph of tensors and operations, build
it against a Handle, then execute it on NumPy, torch or CuPy arrays (passed through DLPack, without
copies).
"""

from ._hipdnn import (
    DeclinedEngine,
    EngineInfo,
    Error,
    Graph,
    Handle,
    Tensor,
    backend_version,
    build_plan_policy,
    convolution_mode,
    create_communicators,
    data_type,
    diagonal_alignment,
    engines,
    heur_mode,
    norm_forward_phase,
    padding_mode,
    pointwise_mode,
    reduction_mode,
    resample_mode,
    set_plugin_paths,
    to_data_type,
)
from ._build_info import build_dir

# Where the backend looks for plugins unless HIPDNN_PLUGIN_DIR or set_plugin_paths says otherwise:
# hipdnn_plugins/engines beside the backend library of the build tree the extension links.
default_plugin_dir = build_dir + "/lib/hipdnn_plugins/engines"

# cudnn-frontend spells the graph class pygraph.
pygraph = Graph

__all__ = [
    "DeclinedEngine",
    "EngineInfo",
    "Error",
    "Graph",
    "Handle",
    "Tensor",
    "backend_version",
    "build_dir",
    "build_plan_policy",
    "convolution_mode",
    "create_communicators",
    "data_type",
    "default_plugin_dir",
    "diagonal_alignment",
    "engines",
    "heur_mode",
    "norm_forward_phase",
    "padding_mode",
    "pointwise_mode",
    "pygraph",
    "reduction_mode",
    "resample_mode",
    "set_plugin_paths",
    "to_data_type",
]
