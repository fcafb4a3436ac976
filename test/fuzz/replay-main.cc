/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The main of a fuzz target in the normal build (gcc, no libFuzzer): runs the target once on
// every file named, or every file under every folder named, so the seed corpus and every input a
// fuzzer ever crashed on (test/fuzz/regressions/<target>/) are regression tests in CI.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
main(int argc, char* argv[])
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i)
    {
        const fs::path p(argv[i]);
        if (fs::is_directory(p))
        {
            for (const auto& e : fs::recursive_directory_iterator(p))
            {
                if (e.is_regular_file())
                {
                    files.push_back(e.path());
                }
            }
        }
        else if (fs::is_regular_file(p))
        {
            files.push_back(p);
        }
        else
        {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files)
    {
        std::ifstream in(f, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // Printed first, so the input that crashes is the last name in the log.
        std::printf("%s\n", f.string().c_str());
        std::fflush(stdout);
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return files.empty() ? 1 : 0;
}
