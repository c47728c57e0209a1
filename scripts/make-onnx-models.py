#!/usr/bin/python3
"""Writes small ONNX image models with fixed weights, and reference outputs computed by numpy.

- test/fixtures/embed/tiny-vit.onnx (+ tiny-vit.json, its preprocessing): input
  "pixel_values" [N, 3, 32, 32] → Conv(3→8, kernel 8, stride 8) = 16 patch tokens;
  GlobalAveragePool → Gemm(8→8) = a "CLS"/pooled vector; outputs "last_hidden_state"
  [N, 17, 8] (pooled token first, then the patches) and "pooler_output" [N, 8].
- test/fixtures/embed/references.json: for a few 32×32 PNG images (no resize needed, so the
  preprocessing is exact in both implementations) the preprocessed tensor's checksum and the
  numpy outputs for each pooling (cls, mean over patch tokens, pooled).
- bench/out/bench-vit.onnx (not committed, ~28 MB): 224×224 input, 16×16 patches, 384 channels,
  six 384→1536→384 1×1-conv MLP blocks — a ViT-S-like cost for bench/embed.

Run by hand (never in CI):  /usr/bin/python3 scripts/make-onnx-models.py [--bench]
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIX = os.path.join(ROOT, "test", "fixtures", "embed")
MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]


def tiny_model(path):
    rng = np.random.default_rng(7)
    W = (rng.normal(size=(8, 3, 8, 8)) * 0.05).astype(np.float32)
    B = (rng.normal(size=(8,)) * 0.1).astype(np.float32)
    G = (rng.normal(size=(8, 8)) * 0.5).astype(np.float32)
    GB = (rng.normal(size=(8,)) * 0.1).astype(np.float32)
    inits = [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B"), numpy_helper.from_array(G, "G"),
             numpy_helper.from_array(GB, "GB"), numpy_helper.from_array(np.array([0, 8, 16], np.int64), "shape_tokens"),
             numpy_helper.from_array(np.array([1], np.int64), "axis1")]
    nodes = [
        helper.make_node("Conv", ["pixel_values", "W", "B"], ["patches4d"], kernel_shape=[8, 8], strides=[8, 8]),
        helper.make_node("Reshape", ["patches4d", "shape_tokens"], ["patches_cf"]),
        helper.make_node("Transpose", ["patches_cf"], ["patches"], perm=[0, 2, 1]),
        helper.make_node("GlobalAveragePool", ["patches4d"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["gapflat"], axis=1),
        helper.make_node("Gemm", ["gapflat", "G", "GB"], ["pooler_output"], transB=1),
        helper.make_node("Unsqueeze", ["pooler_output", "axis1"], ["cls"]),
        helper.make_node("Concat", ["cls", "patches"], ["last_hidden_state"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "tiny-vit",
        [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", 3, 32, 32])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", 17, 8]),
         helper.make_tensor_value_info("pooler_output", TensorProto.FLOAT, ["batch", 8])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="kfbench-scripts")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return W, B, G, GB


def forward(x, W, B, G, GB):
    n = x.shape[0]
    patches = np.zeros((n, 8, 4, 4), np.float64)
    for i in range(4):
        for j in range(4):
            blk = x[:, :, i * 8:(i + 1) * 8, j * 8:(j + 1) * 8].astype(np.float64)
            patches[:, :, i, j] = np.einsum("nchw,ochw->no", blk, W.astype(np.float64)) + B
    tokens = patches.reshape(n, 8, 16).transpose(0, 2, 1)
    pooled = patches.mean(axis=(2, 3)) @ G.T.astype(np.float64) + GB
    return np.concatenate([pooled[:, None, :], tokens], axis=1), pooled


def preprocess(png):
    a = np.asarray(Image.open(png).convert("RGB"), np.float64) / 255.0
    a = (a - np.array(MEAN)) / np.array(STD)
    return a.transpose(2, 0, 1)[None].astype(np.float32)


def make_images():
    rng = np.random.default_rng(11)
    names = []
    for k in range(4):
        yy, xx = np.mgrid[0:32, 0:32]
        img = np.stack([(xx * (k + 1) * 8) % 256, (yy * (5 - k) * 7) % 256,
                        rng.integers(0, 256, size=(32, 32))], axis=-1).astype(np.uint8)
        name = f"img{k}.png"
        Image.fromarray(img, "RGB").save(os.path.join(FIX, name))
        names.append(name)
    return names


def bench_model(path):
    rng = np.random.default_rng(3)
    C, H = 384, 1536
    inits = [numpy_helper.from_array((rng.normal(size=(C, 3, 16, 16)) * 0.02).astype(np.float32), "pe_w"),
             numpy_helper.from_array(np.zeros(C, np.float32), "pe_b")]
    nodes = [helper.make_node("Conv", ["pixel_values", "pe_w", "pe_b"], ["h0"], kernel_shape=[16, 16], strides=[16, 16])]
    cur = "h0"
    for b in range(6):
        inits += [numpy_helper.from_array((rng.normal(size=(H, C, 1, 1)) * 0.02).astype(np.float32), f"w1_{b}"),
                  numpy_helper.from_array((rng.normal(size=(C, H, 1, 1)) * 0.02).astype(np.float32), f"w2_{b}")]
        nodes += [helper.make_node("Conv", [cur, f"w1_{b}"], [f"a{b}"]),
                  helper.make_node("Relu", [f"a{b}"], [f"r{b}"]),
                  helper.make_node("Conv", [f"r{b}", f"w2_{b}"], [f"m{b}"]),
                  helper.make_node("Add", [cur, f"m{b}"], [f"h{b + 1}"])]
        cur = f"h{b + 1}"
    nodes += [helper.make_node("GlobalAveragePool", [cur], ["g"]), helper.make_node("Flatten", ["g"], ["pooler_output"])]
    graph = helper.make_graph(nodes, "bench-vit",
                              [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", 3, 224, 224])],
                              [helper.make_tensor_value_info("pooler_output", TensorProto.FLOAT, ["batch", C])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="kfbench-scripts")
    model.ir_version = 8
    onnx.save(model, path)
    with open(path[:-5] + ".json", "w") as f:
        json.dump({"input_size": 224, "resize": "shorter_side_center_crop", "mean": MEAN, "std": STD,
                   "layout": "NCHW", "output": "pooler_output", "pooling": "pooled"}, f, indent=1)


def main():
    os.makedirs(FIX, exist_ok=True)
    W, B, G, GB = tiny_model(os.path.join(FIX, "tiny-vit.onnx"))
    with open(os.path.join(FIX, "tiny-vit.json"), "w") as f:
        json.dump({"input_size": 32, "resize": "squash", "mean": MEAN, "std": STD, "layout": "NCHW",
                   "input": "pixel_values", "output": "last_hidden_state", "pooling": "cls"}, f, indent=1)
    names = make_images()
    refs = {"images": [], "generated_by": f"scripts/make-onnx-models.py with numpy {np.__version__}, onnx {onnx.__version__}"}
    for name in names:
        x = preprocess(os.path.join(FIX, name))
        tokens, pooled = forward(x, W, B, G, GB)
        refs["images"].append({
            "image": name,
            "input_sum": float(x.astype(np.float64).sum()),
            "input_first": [float(v) for v in x.reshape(-1)[:6]],
            "cls": [float(v) for v in tokens[0, 0]],
            "mean": [float(v) for v in tokens[0, 1:].mean(axis=0)],
            "pooled": [float(v) for v in pooled[0]],
        })
    with open(os.path.join(FIX, "references.json"), "w") as f:
        json.dump(refs, f, indent=1)
        f.write("\n")
    with open(os.path.join(FIX, "not-a-model.onnx"), "wb") as f:
        f.write(b"this is not an onnx model\n")
    if "--bench" in sys.argv:
        os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
        bench_model(os.path.join(ROOT, "bench", "out", "bench-vit.onnx"))
    print("ok", os.listdir(FIX))


if __name__ == "__main__":
    main()
