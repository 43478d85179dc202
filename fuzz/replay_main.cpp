// Runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer: the committed seed
// corpus and crash regressions are replayed by CTest in every build (release, asan), so an input
// that once broke something keeps being tried. Arguments are files or directories (read
// recursively, in name order); a missing directory is skipped. Prints each input before running
// it, so a crash names the file; fails when no input at all was found.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg(argv[i]);
        if (fs::is_directory(arg)) {
            std::vector<fs::path> found;
            for (const auto& entry : fs::recursive_directory_iterator(arg))
                if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
                    found.push_back(entry.path());
            std::sort(found.begin(), found.end());
            inputs.insert(inputs.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(arg)) {
            inputs.push_back(arg);
        } else if (!fs::exists(arg)) {
            std::cerr << "skipped " << arg.string() << " (not there)\n";
        }
    }
    if (inputs.empty()) {
        std::cerr << "no inputs found\n";
        return 1;
    }
    for (const auto& path : inputs) {
        std::cerr << "running " << path.string() << '\n';
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::cerr << "cannot read " << path.string() << '\n';
            return 1;
        }
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::cerr << "replayed " << inputs.size() << " inputs\n";
    return 0;
}
