/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MODEL_ZOO_H
#define MODEL_ZOO_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * One layer of a model: the gradient tensor it produces and what it costs to compute.
 */
struct LayerSpec
{
    std::string name;       //!< layer name as in the zoo file (e.g. "conv1", "encoder.3")
    uint64_t gradientBytes; //!< size of the layer's gradient (fp32: 4 x parameters)
    int64_t forwardPs;      //!< forward time of the layer for one batch, picoseconds
    int64_t backwardPs;     //!< backward time of the layer for one batch, picoseconds
};

/**
 * \ingroup ina-training
 * A DNN training workload: layers in forward order, for one GPU type and batch size.
 *
 * Backward runs the layers in reverse order, so layers.back() is the first gradient ready.
 */
struct ModelSpec
{
    std::string name;                 //!< zoo name, e.g. "resnet50"
    std::string description;          //!< what the entry models (variant, input size, grouping)
    std::string gpu;                  //!< GPU the times are for ("P100", "V100"; or "synthetic")
    uint32_t batchSize{0};            //!< per-GPU batch the times are for
    uint64_t params{0};               //!< total trainable parameters (as stated in the file)
    int64_t iterationComputePs{0};    //!< forward + backward of one iteration (as stated)
    std::vector<std::string> sources; //!< citations for the sizes and the times
    std::string timing;               //!< how the per-layer times were derived
    std::vector<LayerSpec> layers;    //!< in forward order

    /// \return the sum of the layers' gradient bytes (the bytes all-reduced per iteration)
    uint64_t TotalBytes() const;
    /// \return the sum of the layers' forward times, picoseconds
    int64_t ForwardPs() const;
    /// \return the sum of the layers' backward times, picoseconds
    int64_t BackwardPs() const;
};

/**
 * \ingroup ina-training
 * The DNN model zoo: per-layer gradient sizes and compute times read from a YAML data file
 * (src/ina-training/data/model-zoo.yaml; its fields, sources and derivation are described in
 * doc/ina-training.rst).
 *
 * Loading validates everything: every field present, no unknown or duplicate keys, quantities
 * with units (times: ps, ns, us, ms, s; sizes: B, KB, MB, GB, TB decimal, KiB, MiB, GiB, TiB
 * binary), unique model names, and the layers adding up to the stated totals (gradient bytes to
 * 4 x params, forward + backward to iteration_compute). Any violation throws std::runtime_error
 * with "FILE:LINE: model 'x' layer 3 ('conv2'): ..." naming the field and what was expected
 * (layer indices count from 0, as in the scenario's dotted keys).
 */
class ModelZoo
{
  public:
    /**
     * Load and validate a zoo file.
     * \param path the YAML file
     * \throws std::runtime_error if the file cannot be read or is invalid
     */
    explicit ModelZoo(const std::string& path);

    /**
     * Load and validate zoo text (tests, generated zoos).
     * \param yamlText the YAML document
     * \param fileName the name used in error messages
     * \return the zoo
     */
    static ModelZoo FromString(const std::string& yamlText, const std::string& fileName);

    /**
     * Where the default zoo file is, in this order:
     *  1. the environment variable INASIM_MODEL_ZOO (a file path; it must exist);
     *  2. src/ina-training/data/model-zoo.yaml (or contrib/ina-training/data/model-zoo.yaml,
     *     for a module dropped into an ns-3 tree) in the current working directory or any of
     *     its parents;
     *  3. the same, walking up from the directory of the running executable (/proc/self/exe),
     *     so programs in a build directory inside the source tree find it from anywhere;
     *  4. the data directory of the source tree this library was compiled from.
     * \return the path of an existing file
     * \throws std::runtime_error listing the places searched if none has the file
     */
    static std::string DefaultPath();

    /**
     * \return the zoo at DefaultPath(), loaded on first use and kept for the process
     * \throws std::runtime_error as DefaultPath() and the constructor do (again on the next call)
     */
    static const ModelZoo& Default();

    /**
     * A `tensor_bytes` micro-benchmark workload: one tensor, no compute.
     * \param bytes the tensor size, > 0
     * \return a model "tensor" with one layer of that size and zero forward and backward time
     * \throws std::invalid_argument if bytes is 0
     */
    static ModelSpec TensorWorkload(uint64_t bytes);

    /**
     * \param name a model name
     * \return the model
     * \throws std::runtime_error naming the file and listing the known models if there is none
     */
    const ModelSpec& Get(const std::string& name) const;

    /// \return whether the zoo has a model of that name
    bool Has(const std::string& name) const;

    /// \return the model names in file order
    std::vector<std::string> Names() const;

    /// \return the file the zoo was read from (or the name given to FromString)
    const std::string& GetPath() const;

  private:
    ModelZoo() = default;
    void Parse(const std::string& yamlText);

    std::string m_path;
    std::vector<ModelSpec> m_models;
};

} // namespace ns3

#endif /* MODEL_ZOO_H */
