// The plugin guide's visibility checks, run on plugins built with the SDK scaffolding.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Symbol {
    std::string type;
    std::string name;
};

// Defined dynamic symbols of `library` as `nm -gD --defined-only` lists them.
std::vector<Symbol> definedDynamicSymbols(const std::string& library) {
    const std::string command = std::string(NM_EXECUTABLE) + " -gD --defined-only '" + library + "'";
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) {
        ADD_FAILURE() << "cannot run " << command;
        return {};
    }
    std::vector<Symbol> symbols;
    char line[8192];
    while (fgets(line, sizeof(line), pipe) != nullptr) {
        std::istringstream fields(line);
        std::string address;
        Symbol symbol;
        if (fields >> address >> symbol.type >> symbol.name) {
            symbols.push_back(std::move(symbol));
        }
    }
    EXPECT_EQ(pclose(pipe), 0) << command;
    return symbols;
}

bool isPluginApi(const std::string& name) {
    return name.starts_with("hipdnnPlugin") || name.starts_with("hipdnnEnginePlugin");
}

TEST(PluginSymbolsTest, PluginLinkedWithTheExportsMapExportsExactlyThePluginApi) {
    const std::vector<Symbol> symbols = definedDynamicSymbols(SDK_TEST_PLUGIN_PATH);
    // PluginApi.h declares 7 functions, EnginePluginApi.h 20; the .inl defines all of them.
    EXPECT_EQ(symbols.size(), 27U);
    for (const Symbol& symbol : symbols) {
        EXPECT_TRUE(isPluginApi(symbol.name)) << "unexpected export " << symbol.type << " " << symbol.name;
        EXPECT_EQ(symbol.type, "T") << symbol.name;
    }
}

TEST(PluginSymbolsTest, GuideCheckHoldsWithoutTheExportsMap) {
    // The guide's check is `nm -gD plugin.so | grep " T "`: only plugin API functions.
    int apiFunctions = 0;
    for (const Symbol& symbol : definedDynamicSymbols(SDK_TEST_PLUGIN_DEFAULTS_PATH)) {
        if (symbol.type == "T") {
            EXPECT_TRUE(isPluginApi(symbol.name)) << "unexpected text symbol " << symbol.name;
            ++apiFunctions;
        }
    }
    EXPECT_EQ(apiFunctions, 27);
}

}  // namespace
