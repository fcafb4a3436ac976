/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INASIM_FUZZ_INPUT_H
#define INASIM_FUZZ_INPUT_H

// What every fuzz target shares: the contract it checks and how an input becomes text.
//
// The contract of a reader of user files: any input either parses or is refused by an exception
// of the type the reader documents, with a message; anything else (another exception, a crash, a
// sanitizer report, a hang) is a bug, and libFuzzer keeps the input that shows it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

namespace inasim_fuzz
{

/// The input as text (YAML and topology files are text; NUL bytes stay, as a file could hold them).
inline std::string
Text(const uint8_t* data, size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// A refusal must say what is wrong: an empty message is a bug too.
inline void
CheckMessage(const std::exception& e)
{
    if (e.what() == nullptr || e.what()[0] == '\0')
    {
        std::fprintf(stderr, "inasim-fuzz: refused with an empty message (%s)\n", typeid(e).name());
        std::abort();
    }
}

/// An exception the reader does not document: report it and stop, so the input is kept.
[[noreturn]] inline void
Undocumented(const std::exception& e)
{
    std::fprintf(stderr,
                 "inasim-fuzz: undocumented exception %s: %s\n",
                 typeid(e).name(),
                 e.what());
    std::abort();
}

/// Runs `parse` under the contract: an exception of one of the Documented types is a refusal and
/// must carry a message; any other exception is a bug.
template<typename... Documented, typename Parse>
void
CheckContract(Parse&& parse)
{
    try
    {
        parse();
    }
    catch (const std::exception& e)
    {
        if ((... || (dynamic_cast<const Documented*>(&e) != nullptr)))
        {
            CheckMessage(e);
        }
        else
        {
            Undocumented(e);
        }
    }
}

} // namespace inasim_fuzz

#endif /* INASIM_FUZZ_INPUT_H */
