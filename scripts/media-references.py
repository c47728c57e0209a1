#!/usr/bin/python3
"""Reference values for the media building blocks, from independent implementations.

- dHash: Python's `imagehash.dhash` algorithm (imagehash is not packaged in Debian; its dhash
  is these few lines over PIL): img.convert("L").resize((9, 8), Image.LANCZOS), bit = right > left,
  row-major, first bit most significant, hex.
- PSNR, SSIM: scikit-image on PIL's "L" conversion, with
  structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255).
- PSNR again from ffmpeg's own `psnr` filter on the same luma planes (written as grey PNGs).
- dHash of video frames decoded by ffmpeg to PNG (frame selected by exact number).

Run by hand (never in CI):  /usr/bin/python3 scripts/media-references.py
Writes test/fixtures/media/references.json.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image
from skimage.metrics import peak_signal_noise_ratio, structural_similarity

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIX = os.path.join(ROOT, "test", "fixtures", "media")


def dhash(img: Image.Image) -> str:
    small = img.convert("L").resize((9, 8), Image.LANCZOS)
    px = np.asarray(small)
    diff = px[:, 1:] > px[:, :-1]
    bits = "".join("1" if b else "0" for b in diff.flatten())
    return "{:0>16x}".format(int(bits, 2))


def luma(path: str) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB").convert("L"))


def ffmpeg_psnr(a: np.ndarray, b: np.ndarray) -> float:
    with tempfile.TemporaryDirectory() as d:
        pa, pb = os.path.join(d, "a.png"), os.path.join(d, "b.png")
        Image.fromarray(a, "L").save(pa)
        Image.fromarray(b, "L").save(pb)
        out = subprocess.run(
            ["ffmpeg", "-hide_banner", "-nostdin", "-i", pa, "-i", pb,
             "-lavfi", "[0:v]format=gray[x];[1:v]format=gray[y];[x][y]psnr", "-f", "null", "-"],
            capture_output=True, text=True, check=True,
        ).stderr
        m = re.search(r"PSNR .*average:(\S+)", out)
        v = m.group(1)
        return None if v == "inf" else float(v)


def video_frame_png(video: str, n: int, out: str) -> None:
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y", "-i", video,
         "-vf", f"select=eq(n\\,{n})", "-fps_mode", "passthrough", "-frames:v", "1",
         "-pix_fmt", "rgb24", out],
        check=True,
    )


def main() -> None:
    images = ["base.png", "noise.png", "blur.png", "shift.png", "coffee.png", "astronaut.png",
              "testsrc.png", "mandel.png", "base.jpg", "recompressed.jpg", "astronaut.jpg"]
    refs = {"dhash": {}, "compare": [], "video_dhash": [], "timing_ms": {}}
    for name in images:
        refs["dhash"][name] = dhash(Image.open(os.path.join(FIX, name)).convert("RGB"))

    pairs = [("base.png", "noise.png"), ("base.png", "blur.png"), ("base.png", "shift.png"),
             ("base.png", "base.jpg"), ("base.png", "recompressed.jpg"), ("base.png", "base.png"),
             ("astronaut.png", "astronaut.jpg")]
    for a, b in pairs:
        la, lb = luma(os.path.join(FIX, a)), luma(os.path.join(FIX, b))
        identical = bool(np.array_equal(la, lb))
        psnr = None if identical else float(peak_signal_noise_ratio(la, lb, data_range=255))
        ssim = float(structural_similarity(la.astype(np.float64), lb.astype(np.float64),
                                           gaussian_weights=True, sigma=1.5,
                                           use_sample_covariance=False, data_range=255))
        refs["compare"].append({"a": a, "b": b, "psnr_db": psnr, "identical": identical,
                                "ssim": ssim, "ffmpeg_psnr_db": ffmpeg_psnr(la, lb)})

    with tempfile.TemporaryDirectory() as d:
        for video, frames in [("shots.mp4", [0, 47, 48, 100, 200, 263]), ("rational.mp4", [0, 29, 59])]:
            for n in frames:
                out = os.path.join(d, f"{n}.png")
                video_frame_png(os.path.join(FIX, video), n, out)
                img = Image.open(out).convert("RGB")
                refs["video_dhash"].append({"video": video, "frame": n, "dhash": dhash(img),
                                            "mean_luma": float(np.asarray(img.convert("L")).mean())})

    # per-image timings of the Python implementations (for bench/media; informative only)
    big = luma(os.path.join(FIX, "astronaut.png"))
    big2 = luma(os.path.join(FIX, "astronaut.jpg"))
    img = Image.open(os.path.join(FIX, "astronaut.png")).convert("RGB")
    for key, fn in [("dhash", lambda: dhash(img)),
                    ("psnr", lambda: peak_signal_noise_ratio(big, big2, data_range=255)),
                    ("ssim", lambda: structural_similarity(big.astype(np.float64), big2.astype(np.float64),
                                                          gaussian_weights=True, sigma=1.5,
                                                          use_sample_covariance=False, data_range=255))]:
        t = time.perf_counter()
        for _ in range(20):
            fn()
        refs["timing_ms"][key] = (time.perf_counter() - t) / 20 * 1000

    refs["generated_by"] = "scripts/media-references.py with " + " ".join(
        f"{m.__name__} {m.__version__}" for m in (np, __import__("PIL"), __import__("skimage")))
    with open(os.path.join(FIX, "references.json"), "w") as f:
        json.dump(refs, f, indent=2, sort_keys=True)
        f.write("\n")
    print(json.dumps(refs, indent=1)[:3000], file=sys.stderr)


if __name__ == "__main__":
    main()
