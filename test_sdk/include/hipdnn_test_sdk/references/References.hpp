#pragma once

// Every CPU reference of the test SDK; see README.md in this folder.
#include <hipdnn_test_sdk/references/Attention.hpp>
#include <hipdnn_test_sdk/references/Batchnorm.hpp>
#include <hipdnn_test_sdk/references/Convolution.hpp>
#include <hipdnn_test_sdk/references/Enums.hpp>
#include <hipdnn_test_sdk/references/Matmul.hpp>
#include <hipdnn_test_sdk/references/Normalization.hpp>
#include <hipdnn_test_sdk/references/Parallel.hpp>
#include <hipdnn_test_sdk/references/Pointwise.hpp>
#include <hipdnn_test_sdk/references/Pooling.hpp>
#include <hipdnn_test_sdk/references/Reduction.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>
