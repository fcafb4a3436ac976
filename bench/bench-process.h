/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BENCH_PROCESS_H
#define BENCH_PROCESS_H

// What several benchmark programs need of their process and their command line: the peak
// resident set (each size or protocol runs in a child of its own so that it is its own) and
// comma-separated option lists.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace ns3
{

/// Peak resident set of this process (VmHWM), in bytes; 0 if /proc is not there.
inline uint64_t
BenchPeakRssBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::stoull(line.substr(6)) * 1024;
        }
    }
    return 0;
}

/// The non-empty items of a list separated by `separator` ("a,,b," gives a and b).
inline std::vector<std::string>
BenchSplitList(const std::string& list, char separator = ',')
{
    std::vector<std::string> v;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, separator);)
    {
        if (!item.empty())
        {
            v.push_back(item);
        }
    }
    return v;
}

/**
 * The integers from 1 to `max` of the comma-separated `list` given as `option`; anything else
 * (no item, a word, 0, too large) exits 2 with a message naming `program` and `option`, so that a
 * typo on a benchmark's command line ends in a sentence, not an uncaught exception.
 */
inline std::vector<uint32_t>
BenchParseCounts(const char* program, const char* option, const std::string& list, uint32_t max)
{
    std::vector<uint32_t> counts;
    for (const std::string& item : BenchSplitList(list))
    {
        char* end = nullptr;
        const unsigned long long x = std::strtoull(item.c_str(), &end, 10);
        if (*end != '\0' || item[0] == '-' || x == 0 || x > max)
        {
            std::fprintf(stderr,
                         "%s: --%s: '%s' is not an integer from 1 to %u\n",
                         program,
                         option,
                         item.c_str(),
                         max);
            std::exit(2);
        }
        counts.push_back(static_cast<uint32_t>(x));
    }
    if (counts.empty())
    {
        std::fprintf(stderr, "%s: --%s names no number\n", program, option);
        std::exit(2);
    }
    return counts;
}

/**
 * `run()` in a child process, so that its peak RSS is its own; the result (a plain struct) comes
 * back as raw bytes through a pipe (the same binary on both ends). Exits the program naming `what`
 * if the child fails (it may throw: the message goes to stderr).
 */
template<typename R, typename F>
R
BenchRunInChild(F run, const std::string& what)
{
    static_assert(std::is_trivially_copyable<R>::value, "the result crosses a pipe");
    int fd[2];
    if (pipe(fd) != 0)
    {
        std::perror("pipe");
        std::exit(1);
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0)
    {
        std::perror("fork");
        std::exit(1);
    }
    if (pid == 0)
    {
        close(fd[0]);
        int code = 1;
        try
        {
            const R r = run();
            code = write(fd[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r) ? 0 : 1;
        }
        catch (const std::exception& e)
        {
            std::fprintf(stderr, "%s: %s\n", what.c_str(), e.what());
        }
        _exit(code);
    }
    close(fd[1]);
    R r{};
    ssize_t got = 0;
    while (got < static_cast<ssize_t>(sizeof r))
    {
        const ssize_t n = read(fd[0], reinterpret_cast<char*>(&r) + got, sizeof r - got);
        if (n <= 0)
        {
            break;
        }
        got += n;
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != static_cast<ssize_t>(sizeof r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::fprintf(stderr, "%s failed\n", what.c_str());
        std::exit(1);
    }
    return r;
}

} // namespace ns3

#endif /* BENCH_PROCESS_H */
