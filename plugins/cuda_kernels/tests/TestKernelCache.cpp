// The kernel cache: keys, the memory and disk tiers, a second "process" (a new cache over the
// same directory) that does not compile, and corrupt files. The data SDK resolves (and tests) the
// cache directory.
#include <KernelCache.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::CompileResult;
using hipdnn_cuda_kernels::KernelCache;
using hipdnn_cuda_kernels::kernelKey;
namespace fs = std::filesystem;

TEST(KernelKey, DependsOnSourceArchitectureAndCompiler) {
    const std::string key = kernelKey("source", 90, "13.0");
    EXPECT_EQ(key.size(), 16U);
    EXPECT_EQ(key, kernelKey("source", 90, "13.0"));
    EXPECT_NE(key, kernelKey("source2", 90, "13.0"));
    EXPECT_NE(key, kernelKey("source", 80, "13.0"));
    EXPECT_NE(key, kernelKey("source", 90, "13.1"));
}

class KernelCacheFiles : public testing::Test {
protected:
    void SetUp() override {
        _directory =
            fs::temp_directory_path() / ("hipdnn_kernel_cache_test_" + std::to_string(getpid()) + "_" +
                                         testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(_directory);
    }
    void TearDown() override { fs::remove_all(_directory); }

    // A compiler that counts its calls and returns `bytes`.
    std::function<CompileResult()> compiler(std::vector<uint8_t> bytes) {
        return [this, bytes] {
            ++_compilations;
            return CompileResult{bytes, {}};
        };
    }

    fs::path _directory;
    int _compilations = 0;
};

TEST_F(KernelCacheFiles, ASecondProcessReadsTheDiskInsteadOfCompiling) {
    const std::vector<uint8_t> cubin = {1, 2, 3, 4, 5};
    const std::string key = kernelKey("kernel", 90, "13.0");
    {
        KernelCache first(_directory);
        const auto compiled = first.obtain(key, compiler(cubin));
        EXPECT_EQ(compiled.origin, KernelCache::Origin::Compiled);
        ASSERT_NE(compiled.cubin, nullptr);
        EXPECT_EQ(*compiled.cubin, cubin);
        const auto again = first.obtain(key, compiler(cubin));
        EXPECT_EQ(again.origin, KernelCache::Origin::Memory);
        EXPECT_EQ(again.cubin, compiled.cubin);
        EXPECT_EQ(_compilations, 1);
        EXPECT_TRUE(fs::exists(_directory / "kernels" / (key + ".cubin")));
    }
    KernelCache second(_directory);
    const auto loaded = second.obtain(key, compiler({9}));
    EXPECT_EQ(loaded.origin, KernelCache::Origin::Disk);
    ASSERT_NE(loaded.cubin, nullptr);
    EXPECT_EQ(*loaded.cubin, cubin);
    EXPECT_EQ(_compilations, 1);
    // No temporary file is left behind.
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(_directory / "kernels")) {
        ++files;
    }
    EXPECT_EQ(files, 1U);
}

TEST_F(KernelCacheFiles, CorruptFilesAreRecompiledAndReplaced) {
    const std::vector<uint8_t> cubin(100, 7);
    const std::string key = kernelKey("kernel", 90, "13.0");
    KernelCache(_directory).obtain(key, compiler(cubin));
    const fs::path file = *KernelCache(_directory).fileOf(key);
    const auto size = fs::file_size(file);

    const auto corruptions = std::vector<std::function<void()>>{
        [&] { fs::resize_file(file, size - 10); },  // truncated
        [&] { fs::resize_file(file, 3); },          // shorter than the header
        [&] {                                       // a flipped payload byte
            std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
            stream.seekp(static_cast<std::streamoff>(size - 1));
            stream.put('\x42');
        },
        [&] {  // garbage
            std::ofstream stream(file, std::ios::binary | std::ios::trunc);
            stream << "not a kernel cache file at all, but long enough to hold a header";
        },
    };
    int expectedCompilations = 1;
    for (const auto& corrupt : corruptions) {
        corrupt();
        const auto entry = KernelCache(_directory).obtain(key, compiler(cubin));
        ++expectedCompilations;
        EXPECT_EQ(entry.origin, KernelCache::Origin::Compiled);
        ASSERT_NE(entry.cubin, nullptr);
        EXPECT_EQ(*entry.cubin, cubin);
        EXPECT_EQ(_compilations, expectedCompilations);
        EXPECT_EQ(KernelCache(_directory).obtain(key, compiler(cubin)).origin, KernelCache::Origin::Disk);
    }
}

TEST_F(KernelCacheFiles, AFileOfAnotherKeyIsNotTrusted) {
    const std::string key = kernelKey("kernel", 90, "13.0");
    const std::string other = kernelKey("other", 90, "13.0");
    KernelCache(_directory).obtain(other, compiler({1, 2, 3}));
    fs::rename(*KernelCache(_directory).fileOf(other), *KernelCache(_directory).fileOf(key));
    const auto entry = KernelCache(_directory).obtain(key, compiler({4, 5}));
    EXPECT_EQ(entry.origin, KernelCache::Origin::Compiled);
    EXPECT_EQ(*entry.cubin, (std::vector<uint8_t>{4, 5}));
}

TEST_F(KernelCacheFiles, AnUnwritableDirectoryOnlyCostsTheDiskTier) {
    fs::create_directories(_directory);
    std::ofstream(_directory / "kernels") << "a file where the kernels directory should be";
    KernelCache cache(_directory);
    const auto entry = cache.obtain("0123456789abcdef", compiler({1}));
    EXPECT_EQ(entry.origin, KernelCache::Origin::Compiled);
    ASSERT_NE(entry.cubin, nullptr);
    EXPECT_EQ(cache.obtain("0123456789abcdef", compiler({1})).origin, KernelCache::Origin::Memory);
}

TEST_F(KernelCacheFiles, WithoutADirectoryNothingIsWritten) {
    KernelCache cache(std::nullopt);
    EXPECT_EQ(cache.fileOf("0123456789abcdef"), std::nullopt);
    EXPECT_EQ(cache.obtain("0123456789abcdef", compiler({1})).origin, KernelCache::Origin::Compiled);
    EXPECT_EQ(KernelCache(std::nullopt).obtain("0123456789abcdef", compiler({1})).origin,
              KernelCache::Origin::Compiled);
    EXPECT_EQ(_compilations, 2);
}

TEST_F(KernelCacheFiles, FailedCompilationsAreNotCached) {
    KernelCache cache(_directory);
    const auto failing = [this] {
        ++_compilations;
        return CompileResult{{}, "error: broken"};
    };
    const auto entry = cache.obtain("0123456789abcdef", failing);
    EXPECT_EQ(entry.cubin, nullptr);
    EXPECT_EQ(entry.error, "error: broken");
    cache.obtain("0123456789abcdef", failing);
    EXPECT_EQ(_compilations, 2);
    EXPECT_FALSE(fs::exists(*cache.fileOf("0123456789abcdef")));
}

}  // namespace
}  // namespace cuda_kernels_test
