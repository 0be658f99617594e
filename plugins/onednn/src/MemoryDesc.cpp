#include "MemoryDesc.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace hipdnn_onednn {

std::optional<dnnl::memory::data_type> toDnnlDataType(fb::DataType type) {
    switch (type) {
        case fb::DataType::FLOAT:
            return dnnl::memory::data_type::f32;
        case fb::DataType::BFLOAT16:
            return dnnl::memory::data_type::bf16;
        default:
            return std::nullopt;
    }
}

std::vector<int64_t> dimsOf(const fb::TensorAttributes& tensor) {
    return tensor.dims() != nullptr ? std::vector<int64_t>(tensor.dims()->begin(), tensor.dims()->end())
                                    : std::vector<int64_t>{};
}

std::vector<int64_t> stridesOf(const fb::TensorAttributes& tensor) {
    return tensor.strides() != nullptr
               ? std::vector<int64_t>(tensor.strides()->begin(), tensor.strides()->end())
               : std::vector<int64_t>{};
}

dnnl::memory::desc makeMemoryDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                                  fb::DataType type) {
    const auto dnnlType = toDnnlDataType(type);
    if (!dnnlType) {
        throw std::invalid_argument(std::string("data type ") + fb::EnumNameDataType(type) +
                                    " has no oneDNN equivalent in this engine");
    }
    if (dims.empty() || dims.size() > DNNL_MAX_NDIMS || dims.size() != strides.size()) {
        throw std::invalid_argument("oneDNN cannot describe a tensor of rank " + std::to_string(dims.size()));
    }
    return dnnl::memory::desc(dnnl::memory::dims(dims), *dnnlType, dnnl::memory::dims(strides));
}

dnnl::memory::desc makeMemoryDesc(const fb::TensorAttributes& tensor) {
    return makeMemoryDesc(dimsOf(tensor), stridesOf(tensor), tensor.data_type());
}

bool isVectorAlong(const fb::TensorAttributes& tensor, size_t axis, int64_t length) {
    const auto dims = dimsOf(tensor);
    if (axis >= dims.size() || dims[axis] != length) {
        return false;
    }
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i != axis && dims[i] != 1) {
            return false;
        }
    }
    return true;
}

dnnl::memory::desc makeChannelDesc(const fb::TensorAttributes& tensor) {
    const auto dims = dimsOf(tensor);
    const auto strides = stridesOf(tensor);
    return makeMemoryDesc({dims.at(1)}, {strides.at(1)}, tensor.data_type());
}

bool sameLayout(const fb::TensorAttributes& a, const fb::TensorAttributes& b) {
    return dimsOf(a) == dimsOf(b) && stridesOf(a) == stridesOf(b);
}

std::string describeTensor(const fb::TensorAttributes& tensor) {
    auto list = [](const std::vector<int64_t>& values) {
        std::ostringstream out;
        out << '[';
        for (size_t i = 0; i < values.size(); ++i) {
            out << (i == 0 ? "" : ",") << values[i];
        }
        out << ']';
        return out.str();
    };
    std::ostringstream out;
    out << "uid " << tensor.uid() << " '" << (tensor.name() != nullptr ? tensor.name()->str() : std::string())
        << "' " << fb::EnumNameDataType(tensor.data_type()) << " dims " << list(dimsOf(tensor)) << " strides "
        << list(stridesOf(tensor));
    return out.str();
}

bool isDenseFrom(const fb::TensorAttributes& tensor, size_t first) {
    const auto dims = dimsOf(tensor);
    const auto strides = stridesOf(tensor);
    std::vector<size_t> order(dims.size() - first);
    std::iota(order.begin(), order.end(), first);
    // Size-1 dims have no say in the layout; sorting them first keeps the check simple.
    std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) {
        if ((dims[l] == 1) != (dims[r] == 1)) {
            return dims[l] == 1;
        }
        return strides[l] < strides[r];
    });
    int64_t expected = 1;
    for (size_t axis : order) {
        if (dims[axis] == 1) {
            continue;
        }
        if (strides[axis] != expected) {
            return false;
        }
        expected *= dims[axis];
    }
    return true;
}

}  // namespace hipdnn_onednn
