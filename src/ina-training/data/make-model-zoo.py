#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Regenerates model-zoo.yaml from the published architectures and the cited throughputs.

    python3 src/ina-training/data/make-model-zoo.py > src/ina-training/data/model-zoo.yaml

The YAML file is the data the simulator reads; this script only records, as executable arithmetic,
how every number in it was obtained, so that a reviewer can check it and a new model can be added
the same way. It needs nothing beyond the Python standard library.

Method (the same for every model, stated again in each entry's `timing` field):
  * parameters: counted layer by layer from the published architecture; gradient bytes = 4 x
    parameters (fp32 gradients);
  * per-layer forward FLOPs: 2 x multiply-accumulates of the layer's convolution / matrix products
    for one sample, times the batch size (element-wise work such as ReLU, pooling, batch-norm,
    softmax is not counted separately: it is spread over the layers by the calibration below);
  * calibration: one training iteration (forward + backward) of the whole model takes
    batch / throughput seconds, with the throughput taken from the cited single-GPU measurement;
    a layer's share of that time equals its share of the model's forward FLOPs;
  * backward = 2 x forward for every layer (gradient w.r.t. the inputs and w.r.t. the weights each
    cost about one forward pass), so forward = iteration / 3 x share and backward = 2 x forward.
"""

import math
import sys

PS_PER_S = 10**12

WINOGRAD = ("The rate is above the P100's 10.6 TFLOP/s FP32 peak because FLOPs are counted as "
            "direct convolution while cuDNN runs 3x3 convolutions with Winograd or FFT "
            "algorithms that need fewer multiplications.")

# --------------------------------------------------------------------------------------------
# Cited measurements
# --------------------------------------------------------------------------------------------
TF_BENCH = (
    "TensorFlow benchmarks, 'Details for NVIDIA DGX-1 (NVIDIA Tesla P100)', training, synthetic "
    "data, 1 GPU (tensorflow.org/performance/benchmarks, test date May 2017, TensorFlow b1e174e, "
    "tf_cnn_benchmarks 9165a70, CUDA 8.0 / cuDNN 5.1); this is reference [55] of SwitchML, whose "
    "Table 1 'ideal' column (8 x single-P100 throughput, batch 64) agrees within 5 %"
)
NV_BERT = (
    "NVIDIA DeepLearningExamples, TensorFlow/LanguageModeling/BERT/README.md, 'Pre-training "
    "training performance: single-node on DGX-1 32GB' (TensorFlow 20.06-py3 NGC container, "
    "V100 32GB): BERT-large, sequence length 128, FP32, batch 32 per GPU, 1 GPU: 46.78 "
    "sentences/s"
)


# --------------------------------------------------------------------------------------------
# Layer builders. A layer is (name, params, forward FLOPs for one sample).
# --------------------------------------------------------------------------------------------
def out_size(size, k, s, p, ceil=False):
    num = size + 2 * p - k
    return (-(-num // s) if ceil else num // s) + 1


class Net:
    def __init__(self):
        self.layers = []

    def add(self, name, params, flops):
        self.layers.append((name, params, flops))


def conv(net, name, cin, cout, kh, kw, hout, wout, bias, bn):
    """Convolution (+ optional bias, + optional batch-norm gamma/beta folded into the layer)."""
    params = cin * cout * kh * kw + (cout if bias else 0) + (2 * cout if bn else 0)
    flops = 2 * cin * cout * kh * kw * hout * wout
    net.add(name, params, flops)


def fc(net, name, cin, cout):
    net.add(name, cin * cout + cout, 2 * cin * cout)


def alexnet(conv4=256):
    # Krizhevsky, "One weird trick for parallelizing convolutional neural networks",
    # arXiv:1404.5997 (2014), the single-tower AlexNet that torchvision.models.alexnet implements.
    # conv4=384 gives tf_cnn_benchmarks' AlexNet (the measured one), used only for calibration.
    n = Net()
    s = out_size(224, 11, 4, 2)  # 55
    conv(n, "conv1", 3, 64, 11, 11, s, s, True, False)
    s = out_size(s, 3, 2, 0)  # 27
    conv(n, "conv2", 64, 192, 5, 5, s, s, True, False)
    s = out_size(s, 3, 2, 0)  # 13
    conv(n, "conv3", 192, 384, 3, 3, s, s, True, False)
    conv(n, "conv4", 384, conv4, 3, 3, s, s, True, False)
    conv(n, "conv5", conv4, 256, 3, 3, s, s, True, False)
    s = out_size(s, 3, 2, 0)  # 6
    fc(n, "fc6", 256 * s * s, 4096)
    fc(n, "fc7", 4096, 4096)
    fc(n, "fc8", 4096, 1000)
    return n


def vgg16():
    # Simonyan & Zisserman, arXiv:1409.1556, configuration D.
    n = Net()
    cfg = [(1, [64, 64]), (2, [128, 128]), (3, [256, 256, 256]), (4, [512, 512, 512]),
           (5, [512, 512, 512])]
    cin, s = 3, 224
    for block, widths in cfg:
        for i, w in enumerate(widths, 1):
            conv(n, "conv%d_%d" % (block, i), cin, w, 3, 3, s, s, True, False)
            cin = w
        s //= 2
    fc(n, "fc6", 512 * 7 * 7, 4096)
    fc(n, "fc7", 4096, 4096)
    fc(n, "fc8", 4096, 1000)
    return n


def resnet(blocks):
    # He et al., arXiv:1512.03385, Table 1, bottleneck blocks in the paper's layout ("v1"): the
    # first block of stages 2-4 has stride 2 on its first 1x1 convolution, as in the measured
    # tf_cnn_benchmarks models (torchvision's "v1.5" puts it on the 3x3 convolution; the
    # parameters are the same, the FLOPs 5-10 % higher). Each convolution carries its batch-norm
    # scale and shift.
    n = Net()
    conv(n, "conv1", 3, 64, 7, 7, 112, 112, False, True)
    cin, s = 64, 56
    for stage, (count, width) in enumerate(zip(blocks, [64, 128, 256, 512]), 1):
        for b in range(count):
            stride = 2 if (b == 0 and stage > 1) else 1
            sout = s // stride
            pre = "layer%d.%d." % (stage, b)
            conv(n, pre + "conv1", cin, width, 1, 1, sout, sout, False, True)
            conv(n, pre + "conv2", width, width, 3, 3, sout, sout, False, True)
            conv(n, pre + "conv3", width, 4 * width, 1, 1, sout, sout, False, True)
            if b == 0:
                conv(n, pre + "downsample", cin, 4 * width, 1, 1, sout, sout, False, True)
            cin, s = 4 * width, sout
    fc(n, "fc", 2048, 1000)
    return n


def googlenet():
    # Szegedy et al., "Going deeper with convolutions", CVPR 2015 (arXiv:1409.4842), Table 1;
    # convolutions with biases and no batch-norm (as in Caffe's bvlc_googlenet); the two
    # auxiliary classifiers are training-only side heads and are left out.
    n = Net()
    conv(n, "conv1", 3, 64, 7, 7, 112, 112, True, False)
    conv(n, "conv2_reduce", 64, 64, 1, 1, 56, 56, True, False)
    conv(n, "conv2", 64, 192, 3, 3, 56, 56, True, False)
    # (name, size, #1x1, #3x3reduce, #3x3, #5x5reduce, #5x5, pool proj)
    modules = [
        ("3a", 28, 64, 96, 128, 16, 32, 32),
        ("3b", 28, 128, 128, 192, 32, 96, 64),
        ("4a", 14, 192, 96, 208, 16, 48, 64),
        ("4b", 14, 160, 112, 224, 24, 64, 64),
        ("4c", 14, 128, 128, 256, 24, 64, 64),
        ("4d", 14, 112, 144, 288, 32, 64, 64),
        ("4e", 14, 256, 160, 320, 32, 128, 128),
        ("5a", 7, 256, 160, 320, 32, 128, 128),
        ("5b", 7, 384, 192, 384, 48, 128, 128),
    ]
    cin = 192
    for name, s, c1, r3, c3, r5, c5, pp in modules:
        pre = "inception_%s." % name
        conv(n, pre + "1x1", cin, c1, 1, 1, s, s, True, False)
        conv(n, pre + "3x3_reduce", cin, r3, 1, 1, s, s, True, False)
        conv(n, pre + "3x3", r3, c3, 3, 3, s, s, True, False)
        conv(n, pre + "5x5_reduce", cin, r5, 1, 1, s, s, True, False)
        conv(n, pre + "5x5", r5, c5, 5, 5, s, s, True, False)
        conv(n, pre + "pool_proj", cin, pp, 1, 1, s, s, True, False)
        cin = c1 + c3 + c5 + pp
    fc(n, "fc", 1024, 1000)
    return n


def inception3():
    # Szegedy et al., "Rethinking the Inception Architecture for Computer Vision", CVPR 2016
    # (arXiv:1512.00567), layer shapes as in torchvision.models.inception_v3 (299x299 input,
    # convolutions without bias followed by batch-norm with scale and shift), without the
    # auxiliary classifier.
    n = Net()

    def bc(name, cin, cout, kh, kw, s):
        conv(n, name, cin, cout, kh, kw, s, s, False, True)

    bc("Conv2d_1a_3x3", 3, 32, 3, 3, 149)
    bc("Conv2d_2a_3x3", 32, 32, 3, 3, 147)
    bc("Conv2d_2b_3x3", 32, 64, 3, 3, 147)
    bc("Conv2d_3b_1x1", 64, 80, 1, 1, 73)
    bc("Conv2d_4a_3x3", 80, 192, 3, 3, 71)

    def inc_a(p, cin, pool, s=35):
        bc(p + "branch1x1", cin, 64, 1, 1, s)
        bc(p + "branch5x5_1", cin, 48, 1, 1, s)
        bc(p + "branch5x5_2", 48, 64, 5, 5, s)
        bc(p + "branch3x3dbl_1", cin, 64, 1, 1, s)
        bc(p + "branch3x3dbl_2", 64, 96, 3, 3, s)
        bc(p + "branch3x3dbl_3", 96, 96, 3, 3, s)
        bc(p + "branch_pool", cin, pool, 1, 1, s)
        return 64 + 64 + 96 + pool

    def inc_b(p, cin):
        bc(p + "branch3x3", cin, 384, 3, 3, 17)
        bc(p + "branch3x3dbl_1", cin, 64, 1, 1, 35)
        bc(p + "branch3x3dbl_2", 64, 96, 3, 3, 35)
        bc(p + "branch3x3dbl_3", 96, 96, 3, 3, 17)
        return 384 + 96 + cin

    def inc_c(p, cin, c7, s=17):
        bc(p + "branch1x1", cin, 192, 1, 1, s)
        bc(p + "branch7x7_1", cin, c7, 1, 1, s)
        bc(p + "branch7x7_2", c7, c7, 1, 7, s)
        bc(p + "branch7x7_3", c7, 192, 7, 1, s)
        bc(p + "branch7x7dbl_1", cin, c7, 1, 1, s)
        bc(p + "branch7x7dbl_2", c7, c7, 7, 1, s)
        bc(p + "branch7x7dbl_3", c7, c7, 1, 7, s)
        bc(p + "branch7x7dbl_4", c7, c7, 7, 1, s)
        bc(p + "branch7x7dbl_5", c7, 192, 1, 7, s)
        bc(p + "branch_pool", cin, 192, 1, 1, s)
        return 768

    def inc_d(p, cin):
        bc(p + "branch3x3_1", cin, 192, 1, 1, 17)
        bc(p + "branch3x3_2", 192, 320, 3, 3, 8)
        bc(p + "branch7x7x3_1", cin, 192, 1, 1, 17)
        bc(p + "branch7x7x3_2", 192, 192, 1, 7, 17)
        bc(p + "branch7x7x3_3", 192, 192, 7, 1, 17)
        bc(p + "branch7x7x3_4", 192, 192, 3, 3, 8)
        return 320 + 192 + cin

    def inc_e(p, cin, s=8):
        bc(p + "branch1x1", cin, 320, 1, 1, s)
        bc(p + "branch3x3_1", cin, 384, 1, 1, s)
        bc(p + "branch3x3_2a", 384, 384, 1, 3, s)
        bc(p + "branch3x3_2b", 384, 384, 3, 1, s)
        bc(p + "branch3x3dbl_1", cin, 448, 1, 1, s)
        bc(p + "branch3x3dbl_2", 448, 384, 3, 3, s)
        bc(p + "branch3x3dbl_3a", 384, 384, 1, 3, s)
        bc(p + "branch3x3dbl_3b", 384, 384, 3, 1, s)
        bc(p + "branch_pool", cin, 192, 1, 1, s)
        return 320 + 768 + 768 + 192

    c = inc_a("Mixed_5b.", 192, 32)
    c = inc_a("Mixed_5c.", c, 64)
    c = inc_a("Mixed_5d.", c, 64)
    c = inc_b("Mixed_6a.", c)
    c = inc_c("Mixed_6b.", c, 128)
    c = inc_c("Mixed_6c.", c, 160)
    c = inc_c("Mixed_6d.", c, 160)
    c = inc_c("Mixed_6e.", c, 192)
    c = inc_d("Mixed_7a.", c)
    c = inc_e("Mixed_7b.", c)
    c = inc_e("Mixed_7c.", c)
    fc(n, "fc", c, 1000)
    return n


BERT_VOCAB = 30522
BERT_SEQ = 128
BERT_MASKED = 20  # max_predictions_per_seq for sequence length 128 in BERT pre-training


def bert(hidden, blocks):
    # Devlin et al., arXiv:1810.04805; parameter layout of Hugging Face's BertForPreTraining
    # (word/position/token-type embeddings + LayerNorm; per encoder block Q, K, V, attention
    # output, LayerNorm, intermediate 4h, output, LayerNorm; pooler; masked-LM transform +
    # LayerNorm + output bias, the output matrix being tied to the word embeddings; next-sentence
    # classifier). FLOPs per sequence of BERT_SEQ tokens; the masked-LM head runs on the
    # BERT_MASKED masked positions only, as in the reference pre-training code.
    h, L, V = hidden, BERT_SEQ, BERT_VOCAB
    n = Net()
    emb = V * h + 512 * h + 2 * h + 2 * h
    # element-wise only (three embedding adds + LayerNorm, about 10 FLOPs per element)
    n.add("embeddings", emb, 10 * L * h)
    block = 4 * (h * h + h) + 2 * h + (h * 4 * h + 4 * h) + (4 * h * h + h) + 2 * h
    for i in range(blocks):
        # Q, K, V, output projections: 4h^2 MACs/token; feed-forward: 8h^2 MACs/token;
        # attention scores and weighted sum: 2*L*h MACs/token
        n.add("encoder.%d" % i, block, L * (2 * 12 * h * h + 2 * 2 * L * h))
    n.add("pooler", h * h + h, 2 * h * h)
    heads = (h * h + h) + 2 * h + V + (2 * h + 2)
    n.add("heads", heads, BERT_MASKED * (2 * h * h + 2 * h * V) + 2 * 2 * h)
    return n


# --------------------------------------------------------------------------------------------
# Header of the generated file (YAML comments)
# --------------------------------------------------------------------------------------------
HEADER = """\
# inasim model zoo: per-layer gradient sizes and compute times of DNN training workloads.
#
# GENERATED by make-model-zoo.py (beside this file) from the published architectures and the
# cited measurements; change the script and regenerate rather than editing numbers by hand:
#   python3 src/ina-training/data/make-model-zoo.py > src/ina-training/data/model-zoo.yaml
# Read by ns3::ModelZoo (src/ina-training/model/model-zoo.h); the format is described in
# src/ina-training/doc/ina-training.rst. Every field is required; unknown fields are errors.
#
# Per model: name, description, gpu, batch_size, params (total trainable parameters; the layers'
# gradient bytes must add up to 4 x params), iteration_compute (forward + backward of one
# iteration; the layers' times must add up to it), sources, timing (how the times were derived),
# layers in forward order: {name, gradient (bytes, fp32), forward, backward}.
#
# How the numbers were obtained
#   parameters  counted layer by layer from each architecture's paper (layer shapes as in
#               torchvision where it implements the model); totals: alexnet 61.10 M,
#               vgg16 138.36 M, resnet50 25.56 M, resnet101 44.55 M, resnet152 60.19 M,
#               inception3 23.83 M (no auxiliary head), googlenet 7.00 M (the paper's Table 1
#               column rounds to 6.8 M), bert-base 110.11 M.
#   times       one iteration (forward + backward) takes batch / throughput, the throughput
#               being a cited single-GPU measurement (TensorFlow benchmarks on a P100, NVIDIA's
#               BERT numbers on a V100); each layer gets the share of it that its forward FLOPs
#               have of the model's, and backward = 2 x forward. Models without a measurement of
#               their own use the effective FLOP rate fitted to a measured sibling (alexnet:
#               the measured tf_cnn_benchmarks variant has a wider conv4; resnet101: between
#               resnet50 and resnet152; googlenet: inception3; bert-base: BERT-large); each
#               entry's 'timing' says which and gives the numbers.
#               Optimizer update time is inside the measured iteration and so spread over the
#               layers; communication is not (1-GPU measurements).
#
# What the INA papers (SwitchML, ESA, GRID, LIBRA) used, and the matching entries
#   SwitchML (NSDI'21)  8 workers with one P100 16 GB each; TensorFlow benchmark suite [55,56]
#       on ImageNet, batch 128 (Table 1: batch 64), AlexNet with synthetic data and batch 512.
#       Table 1 (8 workers, 10 Gb/s): inception3, resnet50, vgg16 -> entries inception3,
#       resnet50, vgg16 (ideal = 8 x single-GPU: 141.5, 229.75, 147.5 images/s per GPU; the
#       entries use the source's 142, 219, 154). Figure 3 covers nine models of that suite
#       (their names are only in the figure, not in the text); the text names AlexNet (batch
#       512) and, in the quantization appendix, GoogLeNet -> alexnet, googlenet; the suite's
#       other ImageNet models that the papers here use -> resnet101, resnet152.
#       Micro-benchmarks: tensors of 50 MB to 1.5 GB, reported for 100 MB -> workload
#       'tensor_bytes: 100MB' (no compute), not a zoo entry.
#   ESA  testbed: V100s; ResNet50 and VGG16 on CIFAR-100, batch 32, 4 or 8 workers; the paper
#       quotes ResNet50 as 23 M parameters (ResNet-50 with a 100-class head has 23.71 M; this
#       zoo has the ImageNet models, 25.56 M and 138.36 M). Micro-benchmark: fixed tensors
#       (4 MB in the job-count sweep) -> 'tensor_bytes'. Simulation (Section 7.2): two-layer
#       DNN A (4 MB partitions, 0.32 ms per layer) and DNN B (2 MB, 0.64 ms) -> esa-dnn-a,
#       esa-dnn-b.
#   GRID  RTX 3090 workers, batch 64; AlexNet, Inception-V3, ResNet50, VGG16 on CIFAR-100 and
#       BERT and an LSTM on wikitext-2 -> alexnet, inception3, resnet50, vgg16, bert-base (the
#       CNNs' CIFAR-100 heads are smaller than the ImageNet ones here; the LSTM's size is not
#       given in the paper, so it has no entry).
#   LIBRA (GPU thread allocation)  8 x V100, TensorFlow 2.1 + Horovod; Xception ~22 M / batch 32,
#       ResNet152 ~60 M / 32, VGG16 ~138 M / 128, BERT-Base ~110 M / 32 -> resnet152, vgg16,
#       bert-base (times here are for the entries' own batch sizes; Xception has no entry: no
#       cited measurement, and its depthwise convolutions run far below a dense-conv FLOP rate).
#   Libra (sparse INA)  sparse models: industrial OA (150 M parameters, top 30 K take > 50 % of
#       updates) and SE (about 9 M, top 30 K about 70 %), DeepLight, LSTM (One Billion Word),
#       NCF (MovieLens: 680 MB of SparseNet gradients per iteration, about 104 MB non-zero;
#       DenseNet 0.4 MB); Table 1: MLP 18 B / 1.2 M, CM 5 B / 1 M, DIN 18 B / 1.7 M. These are
#       not dense layer lists: they are ns3::SparseWorkload (Zipf-distributed embedding rows),
#       not zoo entries.
"""


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------
def fmt_bytes(b):
    """Exact, readable: the largest decimal unit that needs at most 6 fraction digits."""
    if b < 1000:
        return "%dB" % b
    for unit, mult in (("MB", 10**6), ("KB", 10**3)):
        if b >= mult:
            whole, frac = divmod(b, mult)
            digits = len(str(mult)) - 1
            s = "%d" % whole
            if frac:
                s += ("." + str(frac).rjust(digits, "0")).rstrip("0")
            return s + unit
    raise AssertionError


def fmt_ps(ps):
    """Milliseconds with up to 9 fraction digits (exact picoseconds)."""
    whole, frac = divmod(ps, 10**9)
    s = "%d" % whole
    if frac:
        s += ("." + str(frac).rjust(9, "0")).rstrip("0")
    return s + "ms"


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit_model(out, name, description, gpu, batch, net, iteration_s, sources, timing,
               fixed_times=None):
    params = sum(p for _, p, _ in net.layers)
    total_flops = sum(f for _, _, f in net.layers)
    out.append("  - name: %s" % name)
    out.append("    description: %s" % quote(description))
    out.append("    gpu: %s" % gpu)
    out.append("    batch_size: %d" % batch)
    out.append("    params: %d" % params)
    rows = []
    iteration_ps = 0
    for lname, p, f in net.layers:
        if fixed_times is not None:
            fwd, bwd = fixed_times
        else:
            # forward = iteration / 3 * share, rounded to the picosecond; backward = 2 x forward
            fwd = round(iteration_s * PS_PER_S * f / (3 * total_flops))
            bwd = 2 * fwd
        iteration_ps += fwd + bwd
        rows.append("      - {name: %s, gradient: %s, forward: %s, backward: %s}"
                    % (lname, fmt_bytes(4 * p), fmt_ps(fwd), fmt_ps(bwd)))
    out.append("    iteration_compute: %s" % fmt_ps(iteration_ps))
    out.append("    sources:")
    for s in sources:
        out.append("      - %s" % quote(s))
    out.append("    timing: %s" % quote(timing))
    out.append("    layers:")
    out.extend(rows)
    out.append("")
    return params, total_flops, iteration_ps


def rate_text(flops, batch, seconds):
    return "%.3f TFLOP/s" % (3 * flops * batch / seconds / 1e12)


def main():
    out = []
    out.append(HEADER.rstrip("\n"))
    out.append("")
    out.append("models:")

    arch_tv = ("layer shapes as in torchvision.models (pytorch/vision); every layer with "
               "parameters is one entry, in forward order")
    cnn_timing = ("Per-layer forward FLOPs (2 x multiply-accumulates of the layer's convolution "
                  "or matrix product, times the batch) scaled so that forward + backward of the "
                  "whole model equals batch / measured throughput = %s; backward = 2 x forward "
                  "for every layer; element-wise work (ReLU, pooling, batch-norm) is spread in "
                  "proportion to FLOPs. Effective rate %s of forward+backward FLOPs.")
    vgg_timing = cnn_timing + " " + WINOGRAD

    # ---- AlexNet
    net = alexnet()
    f = sum(x for _, _, x in net.layers)
    ftf = sum(x for _, _, x in alexnet(384).layers)
    rate_alex = 3 * ftf * 512 * 2987 / 512
    it = 3 * f * 512 / rate_alex
    emit_model(out, "alexnet",
               "AlexNet, single-tower 'one weird trick' variant (conv 64-192-384-256-256, fc "
               "4096-4096-1000), ImageNet 224x224",
               "P100", 512, net, it,
               ["Architecture: A. Krizhevsky, One weird trick for parallelizing convolutional "
                "neural networks, arXiv:1404.5997, 2014; " + arch_tv,
                "Throughput: " + TF_BENCH + ": AlexNet, batch 512: 2987 images/s. SwitchML "
                "trained AlexNet with synthetic data and batch 512 following this source.",
                "The measured model (tf_cnn_benchmarks models/alexnet_model.py) has 384 instead "
                "of 256 output channels in conv4, so its FLOPs calibrate the rate"],
               ("Effective rate of forward+backward FLOPs fitted to the measured "
                "tf_cnn_benchmarks AlexNet (conv4 with 384 channels, %.3f GFLOP forward per "
                "image): 3 x %.3f GFLOP x 2987 images/s = %.3f TFLOP/s. This variant has %.3f "
                "GFLOP forward per image, so one iteration of batch 512 takes %.3f ms; a layer's "
                "share is its share of the FLOPs (2 x multiply-accumulates); backward = 2 x "
                "forward for every layer. %s")
               % (ftf / 1e9, ftf / 1e9, rate_alex / 1e12, f / 1e9, it * 1e3, WINOGRAD))

    # ---- VGG16
    net = vgg16()
    it = 64 / 154
    f = sum(x for _, _, x in net.layers)
    emit_model(out, "vgg16", "VGG-16 (configuration D), ImageNet 224x224, 1000 classes",
               "P100", 64, net, it,
               ["Architecture: K. Simonyan, A. Zisserman, Very Deep Convolutional Networks for "
                "Large-Scale Image Recognition, arXiv:1409.1556, configuration D; " + arch_tv,
                "Throughput: " + TF_BENCH + ": VGG16, batch 64: 154 images/s"],
               vgg_timing % ("64 / 154 s = 415.584 ms", rate_text(f, 64, it)))

    # ---- ResNets
    r50, r152 = resnet([3, 4, 6, 3]), resnet([3, 8, 36, 3])
    f50 = sum(x for _, _, x in r50.layers)
    f152 = sum(x for _, _, x in r152.layers)
    it50, it152 = 64 / 219, 64 / 91.8
    rate50, rate152 = 3 * f50 * 64 / it50, 3 * f152 * 64 / it152
    res_desc = ("%s (bottleneck blocks, stride 2 on the first 1x1 convolution of a stage as in the "
                "paper and tf_cnn_benchmarks), "
                "ImageNet 224x224, 1000 classes; one entry per convolution with its batch-norm "
                "scale and shift, plus the fc layer")
    res_arch = ("Architecture: K. He, X. Zhang, S. Ren, J. Sun, Deep Residual Learning for Image "
                "Recognition, CVPR 2016 (arXiv:1512.03385), Table 1; " + arch_tv)
    emit_model(out, "resnet50", res_desc % "ResNet-50", "P100", 64, r50, it50,
               [res_arch, "Throughput: " + TF_BENCH + ": ResNet-50, batch 64: 219 images/s"],
               cnn_timing % ("64 / 219 s = 292.237 ms", rate_text(f50, 64, it50)))

    r101 = resnet([3, 4, 23, 3])
    f101 = sum(x for _, _, x in r101.layers)
    # No single-P100 measurement of ResNet-101 in the source: interpolate the effective rate
    # linearly in FLOPs between the two measured ResNets.
    rate101 = rate50 + (rate152 - rate50) * (f101 - f50) / (f152 - f50)
    it101 = 3 * f101 * 64 / rate101
    emit_model(out, "resnet101", res_desc % "ResNet-101", "P100", 64, r101, it101,
               [res_arch,
                "Throughput: derived; the source (" + TF_BENCH + ") measures ResNet-50 (219 "
                "images/s) and ResNet-152 (91.8 images/s) but not ResNet-101"],
               ("Per-layer forward FLOPs times the batch, divided by an effective rate of "
                "forward+backward FLOPs interpolated linearly in model FLOPs between the rates "
                "fitted to the measured ResNet-50 (%.3f TFLOP/s) and ResNet-152 (%.3f TFLOP/s): "
                "%.3f TFLOP/s, giving %.3f ms per iteration; backward = 2 x forward for every "
                "layer.") % (rate50 / 1e12, rate152 / 1e12, rate101 / 1e12, it101 * 1e3))

    emit_model(out, "resnet152", res_desc % "ResNet-152", "P100", 64, r152, it152,
               [res_arch, "Throughput: " + TF_BENCH + ": ResNet-152, batch 64: 91.8 images/s"],
               cnn_timing % ("64 / 91.8 s = 697.168 ms", rate_text(f152, 64, it152)))

    # ---- Inception-v3 and GoogLeNet
    inc3 = inception3()
    f3 = sum(x for _, _, x in inc3.layers)
    it3 = 64 / 142
    rate3 = 3 * f3 * 64 / it3
    emit_model(out, "inception3",
               "Inception-v3, ImageNet 299x299, 1000 classes, without the auxiliary classifier; "
               "one entry per convolution with its batch-norm scale and shift, plus the fc layer",
               "P100", 64, inc3, it3,
               ["Architecture: C. Szegedy, V. Vanhoucke, S. Ioffe, J. Shlens, Z. Wojna, "
                "Rethinking the Inception Architecture for Computer Vision, CVPR 2016 "
                "(arXiv:1512.00567); " + arch_tv + " (inception_v3 with aux_logits=False)",
                "Throughput: " + TF_BENCH + ": InceptionV3, batch 64: 142 images/s"],
               cnn_timing % ("64 / 142 s = 450.704 ms", rate_text(f3, 64, it3)))

    gn = googlenet()
    fg = sum(x for _, _, x in gn.layers)
    itg = 3 * fg * 64 / rate3
    emit_model(out, "googlenet",
               "GoogLeNet (Inception v1) as in the paper's Table 1, ImageNet 224x224, 1000 "
               "classes, convolutions with biases, no batch-norm, without the two auxiliary "
               "classifiers; one entry per convolution plus the fc layer",
               "P100", 64, gn, itg,
               ["Architecture: C. Szegedy et al., Going Deeper with Convolutions, CVPR 2015 "
                "(arXiv:1409.4842), Table 1 (its rounded per-layer column sums to about 6.8 M "
                "weights; the exact count with biases is the 'params' value here), the layout "
                "of Caffe's bvlc_googlenet; SwitchML trained GoogLeNet (its Appendix, Figure 10)",
                "Throughput: derived; the cited TensorFlow benchmarks (" + TF_BENCH + ") have no "
                "GoogLeNet, so the effective rate fitted to the same family's InceptionV3 "
                "measurement (142 images/s, batch 64) is used"],
               ("Per-layer forward FLOPs times the batch, divided by the effective rate of "
                "forward+backward FLOPs fitted to InceptionV3 on the same GPU and software "
                "(%.3f TFLOP/s), giving %.3f ms per iteration; backward = 2 x forward for every "
                "layer.") % (rate3 / 1e12, itg * 1e3))

    # ---- BERT-base, calibrated on BERT-large
    large = bert(1024, 24)
    flarge = sum(x for _, _, x in large.layers)
    rate_bert = 3 * flarge * 46.78
    base = bert(768, 12)
    fbase = sum(x for _, _, x in base.layers)
    itb = 3 * fbase * 32 / rate_bert
    emit_model(out, "bert-base",
               "BERT-base (12 encoder blocks, hidden 768, 12 heads), pre-training with masked-LM "
               "and next-sentence heads, sequence length 128, 20 masked positions per sequence; "
               "one entry for the embeddings, one per encoder block (attention + feed-forward), "
               "one for the pooler and one for the heads",
               "V100", 32, base, itb,
               ["Architecture: J. Devlin, M.-W. Chang, K. Lee, K. Toutanova, BERT: Pre-training "
                "of Deep Bidirectional Transformers for Language Understanding, NAACL 2019 "
                "(arXiv:1810.04805); parameter layout of Hugging Face transformers' "
                "BertForPreTraining (bert-base-uncased, vocabulary 30522); the masked-LM output "
                "matrix is tied to the word embeddings, so its gradient is part of "
                "'embeddings'",
                "Throughput: derived from " + NV_BERT + "; LIBRA (GPU thread allocation) trains "
                "BERT-Base with batch 32 per V100"],
               ("Effective rate of forward+backward FLOPs fitted to the measured BERT-large "
                "throughput with the same FLOP model: 3 x %.2f GFLOP per sequence x 46.78 "
                "sequences/s = %.3f TFLOP/s. BERT-base FLOPs per sequence: %.2f GFLOP forward "
                "(per encoder block and token 24 h^2 + 4 L h FLOPs with h = 768, L = 128; "
                "masked-LM head on 20 positions), so one iteration of batch 32 takes %.3f ms; a "
                "layer's share is its share of the FLOPs (the embeddings count 10 element-wise "
                "FLOPs per output element); backward = 2 x forward for every layer.")
               % (flarge / 1e9, rate_bert / 1e12, fbase / 1e9, itb * 1e3))

    # ---- ESA's synthetic DNNs (ESA, Section 7.2.1): two equal layers, each evenly divided into
    # two tensor partitions, so a layer's gradient is two partitions.
    for name, part, comp, kind, ratio in (
            ("esa-dnn-a", 4 * 10**6, 320 * 10**6, "communication", "2:1"),
            ("esa-dnn-b", 2 * 10**6, 640 * 10**6, "computation", "1:2")):
        n = Net()
        n.add("layer0", 2 * part // 4, 0)
        n.add("layer1", 2 * part // 4, 0)
        emit_model(out, name,
                   "ESA's simulated %s-intensive DNN: two layers of two %s tensor partitions "
                   "each, %s of computation per layer" % (kind, fmt_bytes(part), fmt_ps(comp)),
                   "synthetic", 1, n, 0,
                   ["H. Wang, Y. Qin, C. Lao, Y. Le, W. Wu, K. Chen, Efficient Data-Plane Memory "
                    "Scheduling for In-Network Aggregation (ESA), Section 7.2.1: 'all DNNs have "
                    "only two layers with the same size, and each layer is evenly divided into "
                    "two tensor partitions'; DNN %s: 'tensor partition size of %s and a "
                    "computation time of %s per layer (theoretical communication time: "
                    "computation time = %s)'"
                    % (name[-1].upper(), fmt_bytes(part), fmt_ps(comp), ratio)],
                   ("In ESA's model a layer's computation starts when that layer's aggregated "
                    "gradients have arrived (the next iteration's forward pass), so the %s per "
                    "layer is 'forward' and 'backward' is 0 (the gradients are all sent at the end "
                    "of the iteration). Sizes are decimal: a layer is 2 x %s; at 100 Gb/s it "
                    "takes %s to send, which gives the paper's %s ratio."
                    % (fmt_ps(comp), fmt_bytes(part), fmt_ps(2 * part * 8 * 10**12 // 10**11),
                       ratio)),
                   fixed_times=(comp, 0))

    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
