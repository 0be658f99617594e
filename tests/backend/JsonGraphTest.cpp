// JSON graphs: json_byte_size bytes must hold exactly one JSON document, optionally followed by
// one NUL terminator (the size hipdnnBackendGetSerializedJsonGraph_ext reports counts it). Any
// other trailing byte, NULs included, is BAD_PARAM giving its offset.
#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

class JsonGraph : public ::testing::Test {
protected:
    void SetUp() override {
        hipdnnBackendDescriptor_t graph = nullptr;
        const std::vector<uint8_t> bytes = makeGraph();
        ASSERT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size()),
                  HIPDNN_STATUS_SUCCESS);
        size_t size = 0;
        ASSERT_EQ(hipdnnBackendGetSerializedJsonGraph_ext(graph, 0, &size, nullptr), HIPDNN_STATUS_SUCCESS);
        _json.resize(size);
        ASSERT_EQ(hipdnnBackendGetSerializedJsonGraph_ext(graph, size, &size, _json.data()),
                  HIPDNN_STATUS_SUCCESS);
        _json.pop_back();  // the terminator
        hipdnnBackendDestroyDescriptor(graph);
    }
    // Status of creating a graph from `text` (all of its bytes counted).
    hipdnnStatus_t create(const std::string& text) {
        hipdnnBackendDescriptor_t graph = nullptr;
        const hipdnnStatus_t status =
            hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, text.data(), text.size());
        if (status == HIPDNN_STATUS_SUCCESS) {
            EXPECT_NE(graph, nullptr);
            hipdnnBackendDestroyDescriptor(graph);
        } else {
            EXPECT_EQ(graph, nullptr);
        }
        return status;
    }
    std::string _json;
};

TEST_F(JsonGraph, TheDocumentAloneOrWithOneTerminatorIsAccepted) {
    EXPECT_EQ(create(_json), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(create(_json + std::string(1, '\0')), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(create(_json + " \n\t"), HIPDNN_STATUS_SUCCESS) << lastError();
}

TEST_F(JsonGraph, ANulFollowedByGarbageIsRejectedWithItsOffset) {
    EXPECT_EQ(create(_json + std::string(1, '\0') + "garbage"), HIPDNN_STATUS_BAD_PARAM);
    const std::string message = lastError();
    EXPECT_EQ(message.rfind("Invalid JSON graph: ", 0), 0u) << message;
    EXPECT_NE(
        message.find("byte " + std::to_string(_json.size()) + " of " + std::to_string(_json.size() + 8) +
                     " is a NUL; only a single NUL terminator may follow the JSON document"),
        std::string::npos)
        << message;
}

TEST_F(JsonGraph, TwoTrailingNulsAreRejected) {
    EXPECT_EQ(create(_json + std::string(2, '\0')), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(
        lastError().find("byte " + std::to_string(_json.size()) + " of " + std::to_string(_json.size() + 2)),
        std::string::npos);
}

TEST_F(JsonGraph, ANulInsideTheDocumentIsRejected) {
    std::string text = _json;
    text[text.size() / 2] = '\0';
    EXPECT_EQ(create(text), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(
        lastError().find("byte " + std::to_string(text.size() / 2) + " of " + std::to_string(text.size())),
        std::string::npos);
}

TEST_F(JsonGraph, TextAfterTheDocumentIsRejected) {
    EXPECT_EQ(create(_json + " {}"), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Invalid JSON graph"), std::string::npos) << lastError();
    EXPECT_EQ(create(_json + "garbage"), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Invalid JSON graph"), std::string::npos) << lastError();
}

// Upstream hipDNN's JSON form (attribute fields beside the node's "type", scalars as bare
// numbers, the graph id as a UUID string) loads through the same entry point.
TEST_F(JsonGraph, UpstreamsJsonFormIsAccepted) {
    const std::string upstream = R"({
      "name": "upstream", "compute_data_type": "FLOAT", "io_data_type": "FLOAT",
      "intermediate_data_type": "FLOAT", "id": "00112233-4455-6677-8899-aabbccddeeff",
      "tensors": [
        {"uid": 1, "name": "x", "data_type": "FLOAT", "dims": [1, 4], "strides": [4, 1], "virtual": false,
         "alignment": 16, "is_runtime_pass_by_value": false},
        {"uid": 2, "name": "two", "data_type": "FLOAT", "dims": [1, 1], "strides": [1, 1], "virtual": false,
         "alignment": 16, "is_runtime_pass_by_value": false, "value_type": "Float32Value", "value": 2.0},
        {"uid": 3, "name": "y", "data_type": "FLOAT", "dims": [1, 4], "strides": [4, 1], "virtual": false,
         "alignment": 16, "is_runtime_pass_by_value": false}],
      "nodes": [{"name": "double", "type": "PointwiseAttributes", "compute_data_type": "FLOAT",
                 "operation": "MUL", "in_0_tensor_uid": 1, "in_1_tensor_uid": 2, "out_0_tensor_uid": 3}]
    })";
    EXPECT_EQ(create(upstream), HIPDNN_STATUS_SUCCESS) << lastError();
    EXPECT_EQ(create(upstream + "garbage"), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Invalid JSON graph"), std::string::npos) << lastError();
}

}  // namespace
