/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INASIM_TEST_TEMP_DIR_H
#define INASIM_TEST_TEMP_DIR_H

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace inasim_test
{

/**
 * A folder of this test process's own under the system's temporary folder, made once (mkdtemp)
 * and removed when the process exits. Tests write their scenario outputs and scratch files here,
 * never at a fixed path: test runs of several worktrees, or ctest -j, run the same tests at once.
 */
inline const std::filesystem::path&
TempDir()
{
    struct Dir
    {
        std::filesystem::path path;

        Dir()
        {
            std::string tmpl =
                (std::filesystem::temp_directory_path() / "inasim-gtest-XXXXXX").string();
            if (mkdtemp(tmpl.data()) == nullptr)
            {
                throw std::runtime_error("cannot create a temporary folder like " + tmpl);
            }
            path = tmpl;
        }

        ~Dir()
        {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };

    static const Dir dir;
    return dir.path;
}

} // namespace inasim_test

#endif /* INASIM_TEST_TEMP_DIR_H */
