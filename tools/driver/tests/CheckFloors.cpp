// Checks results written by `hipdnn-driver --json`: every timed result's median and minimum are at
// or above its floor, less the timer's resolution (a floor is a bound no run can beat).
//   check_floors RESOLUTION_MS MIN_CHECKED FILE...
// Exits 1, listing each violation, when a time is below its floor or fewer than MIN_CHECKED
// results carried both a time and a floor.
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: check_floors RESOLUTION_MS MIN_CHECKED FILE...\n";
        return 2;
    }
    const double resolutionMs = std::stod(argv[1]);
    const long minChecked = std::stol(argv[2]);
    long checked = 0;
    long violations = 0;
    for (int i = 3; i < argc; ++i) {
        std::ifstream in(argv[i]);
        if (!in) {
            std::cerr << argv[i] << ": cannot be read\n";
            return 1;
        }
        nlohmann::json results;
        try {
            results = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& error) {
            std::cerr << argv[i] << ": " << error.what() << "\n";
            return 1;
        }
        for (const auto& result : results) {
            if (!result.at("floor_ms").is_number() || !result.at("median_ms").is_number()) {
                continue;
            }
            ++checked;
            const double floor = result.at("floor_ms").get<double>();
            for (const char* field : {"median_ms", "min_ms"}) {
                const double value = result.at(field).get<double>();
                if (value + resolutionMs < floor) {
                    ++violations;
                    std::cerr << argv[i] << ": " << result.at("engine").get<std::string>() << " | "
                              << result.at("problem").get<std::string>() << ": " << field << " " << value
                              << " ms is below the floor " << floor << " ms\n";
                }
            }
        }
    }
    std::cout << "checked " << checked << " timed results against their floors, " << violations << " below\n";
    if (checked < minChecked) {
        std::cerr << "only " << checked << " timed results with a floor; expected at least " << minChecked
                  << "\n";
        return 1;
    }
    return violations == 0 ? 0 : 1;
}
