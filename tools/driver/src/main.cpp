// hipdnn-driver: the benchmark and validation driver. See tools/driver/README.md.
#include <iostream>
#include <string>
#include <vector>

#include "Driver.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return hipdnn_driver::runDriver(args, std::cout, std::cerr);
}
