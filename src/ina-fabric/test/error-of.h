/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INASIM_ERROR_OF_H
#define INASIM_ERROR_OF_H

// The one way inasim's tests catch a refusal to compare its message: ns-3 TestSuites (this
// module's and the others', through ../../ina-fabric/test/), the GoogleTest cases (test/gtest/,
// directly or through test-messages.h) and the load check.

#include <exception>
#include <string>
#include <utility>

namespace ns3
{
namespace tests
{

/**
 * \param f the call
 * \param none what to return when it throws nothing
 * \return the message of the exception of type E that `f` throws, or `none` (an exception of
 *         another type goes on, and fails the test)
 */
template<class E = std::exception, class F>
std::string
ErrorOf(F&& f, const std::string& none = "")
{
    try
    {
        std::forward<F>(f)();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return none;
}

/// \return whether `f` throws an exception of type E (one of another type goes on)
template<class E, class F>
bool
Throws(F&& f)
{
    try
    {
        std::forward<F>(f)();
    }
    catch (const E&)
    {
        return true;
    }
    return false;
}

} // namespace tests
} // namespace ns3

#endif /* INASIM_ERROR_OF_H */
