/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_ATTRIBUTE_ERROR_H
#define JOB_ATTRIBUTE_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-training
 * A job's set-up failed because of the value of one Attribute (of its protocol, its workers or
 * their compute model): a GpuParams file that does not read, a GpuThreads count the parameters
 * forbid. It carries the Attribute's name, so a scenario runner can blame the scenario key that
 * set it (`jobs.0.params.GpuParams`) without reading it back out of the message. what() is
 * "Name: what is wrong".
 */
class JobAttributeError : public std::runtime_error
{
  public:
    /**
     * \param attribute the Attribute's name, e.g. "GpuParams"
     * \param what what is wrong with its value and what was expected
     */
    JobAttributeError(const std::string& attribute, const std::string& what)
        : std::runtime_error(attribute + ": " + what)
        , m_attribute(attribute)
        , m_what(what)
    {
    }

    /// The Attribute's name.
    const std::string& GetAttribute() const
    {
        return m_attribute;
    }

    /// The message without the Attribute's name.
    const std::string& GetWhat() const
    {
        return m_what;
    }

  private:
    std::string m_attribute;
    std::string m_what;
};

} // namespace ns3

#endif /* JOB_ATTRIBUTE_ERROR_H */
