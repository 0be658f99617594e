// The frontend enums against the schema's: the public values, the conversions of
// detail::toFbs / fromFbs, and ConvolutionMode, whose numbers differ from the schema's and which
// converts by name (the other enums convert by cast, checked by static_asserts in Types.hpp).
#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

// The conv_mode of the single convolution in a serialized graph.
fbs::ConvMode serializedConvMode(const std::vector<uint8_t>& bytes) {
    const fbs::Graph* graph = fbs::GetGraph(bytes.data());
    const auto* conv = graph->nodes()->Get(0)->attributes_as_ConvolutionFwdAttributes();
    return conv != nullptr ? conv->conv_mode() : fbs::ConvMode::UNSET;
}

Graph convGraph(fe::ConvolutionMode mode) {
    Graph graph = floatGraph("conv");
    auto x = input(graph, "x", {1, 2, 4, 4});
    auto w = input(graph, "w", {3, 2, 3, 3});
    auto y = graph.conv_fprop(x, w, conv3x3().set_convolution_mode(mode));
    y->set_output(true);
    return graph;
}

}  // namespace

// Users and upstream hipDNN rely on these numbers; the schema's are the other way round.
TEST(FrontendTypes, ConvolutionModeKeepsUpstreamValues) {
    EXPECT_EQ(static_cast<int>(fe::ConvolutionMode::NOT_SET), 0);
    EXPECT_EQ(static_cast<int>(fe::ConvolutionMode::CROSS_CORRELATION), 1);
    EXPECT_EQ(static_cast<int>(fe::ConvolutionMode::CONVOLUTION), 2);
    EXPECT_EQ(static_cast<int>(fbs::ConvMode::UNSET), 0);
    EXPECT_EQ(static_cast<int>(fbs::ConvMode::CONVOLUTION), 1);
    EXPECT_EQ(static_cast<int>(fbs::ConvMode::CROSS_CORRELATION), 2);
}

TEST(FrontendTypes, ConvolutionModeConvertsByName) {
    using fe::detail::fromFbs;
    using fe::detail::toFbs;
    EXPECT_EQ(toFbs(fe::ConvolutionMode::CONVOLUTION), fbs::ConvMode::CONVOLUTION);
    EXPECT_EQ(toFbs(fe::ConvolutionMode::CROSS_CORRELATION), fbs::ConvMode::CROSS_CORRELATION);
    EXPECT_EQ(toFbs(fe::ConvolutionMode::NOT_SET), fbs::ConvMode::UNSET);
    EXPECT_EQ(fromFbs(fbs::ConvMode::CONVOLUTION), fe::ConvolutionMode::CONVOLUTION);
    EXPECT_EQ(fromFbs(fbs::ConvMode::CROSS_CORRELATION), fe::ConvolutionMode::CROSS_CORRELATION);
    EXPECT_EQ(fromFbs(fbs::ConvMode::UNSET), fe::ConvolutionMode::NOT_SET);
    for (const auto mode : {fe::ConvolutionMode::NOT_SET, fe::ConvolutionMode::CROSS_CORRELATION,
                            fe::ConvolutionMode::CONVOLUTION}) {
        EXPECT_EQ(fromFbs(toFbs(mode)), mode) << static_cast<int>(mode);
    }
    for (const auto mode : fbs::EnumValuesConvMode()) {
        EXPECT_EQ(toFbs(fromFbs(mode)), mode) << fbs::EnumNameConvMode(mode);
    }
    // A value from a newer schema (or a corrupt buffer) is not guessed at.
    EXPECT_EQ(fromFbs(static_cast<fbs::ConvMode>(7)), fe::ConvolutionMode::NOT_SET);
    EXPECT_EQ(toFbs(static_cast<fe::ConvolutionMode>(7)), fbs::ConvMode::UNSET);
}

// Through a graph: the serialized conv_mode is the schema's enumerator of the same name, and
// deserializing gives the frontend's back.
TEST(FrontendTypes, ConvolutionModeSurvivesSerialization) {
    for (const auto mode : {fe::ConvolutionMode::CROSS_CORRELATION, fe::ConvolutionMode::CONVOLUTION}) {
        Graph graph = convGraph(mode);
        std::vector<uint8_t> bytes;
        ASSERT_FE_OK(graph.serialize(bytes));
        EXPECT_EQ(serializedConvMode(bytes), fe::detail::toFbs(mode));
        EXPECT_EQ(
            fbs::EnumNameConvMode(serializedConvMode(bytes)),
            std::string(mode == fe::ConvolutionMode::CONVOLUTION ? "CONVOLUTION" : "CROSS_CORRELATION"));

        Graph restored;
        ASSERT_FE_OK(restored.deserialize(nullptr, bytes));
        std::vector<uint8_t> again;
        ASSERT_FE_OK(restored.serialize(again));
        EXPECT_EQ(serializedConvMode(again), serializedConvMode(bytes));
    }
}

// The enums that convert by cast, at the enumerators whose names differ from the schema's.
TEST(FrontendTypes, CastConversionsMatchTheSchemaWhereNamesDiffer) {
    using fe::detail::fromFbs;
    using fe::detail::toFbs;
    EXPECT_EQ(toFbs(fe::DataType::NOT_SET), fbs::DataType::UNSET);
    EXPECT_EQ(fromFbs(fbs::DataType::INT64), fe::DataType::INT64);
    EXPECT_EQ(toFbs(fe::PointwiseMode::NOT_SET), fbs::PointwiseMode::UNSET);
    EXPECT_EQ(toFbs(fe::PointwiseMode::MAX), fbs::PointwiseMode::MAX_OP);
    EXPECT_EQ(fromFbs(fbs::PointwiseMode::MIN_OP), fe::PointwiseMode::MIN);
    EXPECT_EQ(toFbs(fe::ReductionMode::MAX), fbs::ReductionMode::MAX_OP);
    EXPECT_EQ(fromFbs(fbs::ReductionMode::MIN_OP), fe::ReductionMode::MIN);
    EXPECT_EQ(toFbs(fe::ResampleMode::NEAREST), fbs::ResampleMode::NEAREST);
    EXPECT_EQ(fromFbs(fbs::PaddingMode::EDGE_VAL_PAD), fe::PaddingMode::EDGE_VAL_PAD);
    EXPECT_EQ(toFbs(fe::NormFwdPhase::TRAINING), fbs::NormFwdPhase::TRAINING);
}

// Every schema value round-trips through the frontend enums that cover the whole schema enum.
TEST(FrontendTypes, EverySchemaModeRoundTrips) {
    using fe::detail::fromFbs;
    using fe::detail::toFbs;
    for (const auto mode : fbs::EnumValuesPointwiseMode()) {
        EXPECT_EQ(toFbs(fromFbs(mode)), mode) << fbs::EnumNamePointwiseMode(mode);
        EXPECT_STREQ(fe::to_string(fromFbs(mode)), fbs::EnumNamePointwiseMode(mode));
    }
    for (const auto mode : fbs::EnumValuesReductionMode()) {
        EXPECT_EQ(toFbs(fromFbs(mode)), mode) << fbs::EnumNameReductionMode(mode);
    }
    for (const auto mode : fbs::EnumValuesResampleMode()) {
        EXPECT_EQ(toFbs(fromFbs(mode)), mode) << fbs::EnumNameResampleMode(mode);
    }
    for (const auto mode : fbs::EnumValuesPaddingMode()) {
        EXPECT_EQ(toFbs(fromFbs(mode)), mode) << fbs::EnumNamePaddingMode(mode);
    }
    for (const auto phase : fbs::EnumValuesNormFwdPhase()) {
        EXPECT_EQ(toFbs(fromFbs(phase)), phase) << fbs::EnumNameNormFwdPhase(phase);
    }
}
