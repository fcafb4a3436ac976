/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_ATTRIBUTE_ERROR_H
#define JOB_ATTRIBUTE_ERROR_H

#include "ns3/ina-list-option.h"

#include <stdexcept>
#include <string>
#include <vector>

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

/**
 * \ingroup ina-training
 * The items of a job Attribute whose value is a comma-separated list (ESA's TensorLayers, Libra's
 * StandbySwitch), split as InaSplitList splits them; what the items mean is the caller's to check.
 * \param attribute the Attribute's name, for the error
 * \param value its value
 * \return the items, in order
 * \throws JobAttributeError naming the Attribute when an item is empty or the list ends in a comma
 */
inline std::vector<std::string>
JobAttributeList(const std::string& attribute, const std::string& value)
{
    try
    {
        return InaSplitList(value, "");
    }
    catch (const std::invalid_argument& e)
    {
        throw JobAttributeError(attribute, e.what());
    }
}

} // namespace ns3

#endif /* JOB_ATTRIBUTE_ERROR_H */
