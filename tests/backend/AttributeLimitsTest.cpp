// Element counts are checked before anything is read or allocated: a negative count or one above
// the limit (2^20 elements) is BAD_PARAM naming the attribute and the count, for every setter.
#include <limits>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

constexpr int64_t kLimit = int64_t{1} << 20;

class AttributeLimits : public ::testing::Test {
protected:
    void SetUp() override {
        usePluginPaths({pluginDir("good_cpu")});
        _handle = createCpuHandle();
    }
    void TearDown() override {
        for (hipdnnBackendDescriptor_t descriptor : _created) {
            hipdnnBackendDestroyDescriptor(descriptor);
        }
        hipdnnDestroy(_handle);
    }
    hipdnnBackendDescriptor_t create(hipdnnBackendDescriptorType_t type) {
        hipdnnBackendDescriptor_t descriptor = nullptr;
        EXPECT_EQ(hipdnnBackendCreateDescriptor(type, &descriptor), HIPDNN_STATUS_SUCCESS);
        _created.push_back(descriptor);
        return descriptor;
    }
    // Every bad count is BAD_PARAM with a message naming `attributeName` and the count.
    void expectRejected(hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type, const char* attributeName, const void* elements) {
        for (int64_t count : {std::numeric_limits<int64_t>::max(), kLimit + 1, int64_t{1} << 40, int64_t{-1},
                              std::numeric_limits<int64_t>::min()}) {
            EXPECT_EQ(hipdnnBackendSetAttribute(descriptor, name, type, count, elements),
                      HIPDNN_STATUS_BAD_PARAM)
                << attributeName << " with " << count;
            const std::string message = lastError();
            EXPECT_NE(message.find(attributeName), std::string::npos) << message;
            EXPECT_NE(message.find(std::to_string(count)), std::string::npos) << message;
        }
    }
    hipdnnHandle_t _handle = nullptr;
    std::vector<hipdnnBackendDescriptor_t> _created;
};

TEST_F(AttributeLimits, AbsurdCountsAreBadParamForEverySetter) {
    int64_t value = 1;
    void* pointer = &value;
    char text = 'x';
    hipdnnBackendDescriptor_t pack = create(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    expectRejected(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                   "HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS", &value);
    expectRejected(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                   "HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS", &pointer);
    expectRejected(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR,
                   "HIPDNN_ATTR_VARIANT_PACK_WORKSPACE", &pointer);

    hipdnnBackendDescriptor_t choice = create(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    expectRejected(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                   "HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE", &text);
    expectRejected(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_CHAR,
                   "HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE", &text);

    hipdnnBackendDescriptor_t config = create(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    expectRejected(config, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                   "HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES", &choice);
    const hipdnnFlatbufferData_ext_t data{&value, sizeof(value)};
    expectRejected(config, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT,
                   "HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE", &data);

    hipdnnBackendDescriptor_t engine = create(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    expectRejected(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64,
                   "HIPDNN_ATTR_ENGINE_GLOBAL_INDEX", &value);
    hipdnnBackendDescriptor_t graph = create(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    expectRejected(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE,
                   "HIPDNN_ATTR_OPERATIONGRAPH_HANDLE", &_handle);
}

TEST_F(AttributeLimits, TheMessageSaysWhatTheLimitIs) {
    hipdnnBackendDescriptor_t pack = create(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    int64_t value = 1;
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                        std::numeric_limits<int64_t>::max(), &value),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(),
              "Attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS: element count 9223372036854775807 exceeds the "
              "limit of 1048576");
    EXPECT_EQ(
        hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, -3, &value),
        HIPDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(lastError(), "Attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS: element count -3 is negative");
}

TEST_F(AttributeLimits, CountsUpToTheLimitAreAccepted) {
    hipdnnBackendDescriptor_t pack = create(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    std::vector<int64_t> uids(static_cast<size_t>(kLimit));
    for (size_t index = 0; index < uids.size(); ++index) {
        uids[index] = static_cast<int64_t>(index);
    }
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, kLimit,
                                        uids.data()),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 0,
                                        uids.data()),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
}

TEST_F(AttributeLimits, AGetWithAHugeRequestedCountReadsOnlyWhatItFills) {
    hipdnnBackendDescriptor_t graph = finalizedGraph(_handle, makeGraph());
    _created.push_back(graph);
    hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
    _created.push_back(heuristic);
    hipdnnBackendDescriptor_t config = create(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    int64_t count = 0;
    // One result, one caller descriptor: the requested count is capacity, not a promise.
    EXPECT_EQ(
        hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                  std::numeric_limits<int64_t>::max(), &count, &config),
        HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(count, 1);
    EXPECT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_SUCCESS) << lastError();
}

}  // namespace
