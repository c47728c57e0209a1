#!/usr/bin/python3
"""Reference values for src/media/image-stats.ts (`imageStatsOf`, the photographic statistics of an
image at its own size) from an independent implementation: numpy on the RGB pixels OpenCV decodes.

- brightness: mean BT.601 luma (0.299 R + 0.587 G + 0.114 B) / 255
- contrast: population standard deviation of luma / 128
- sharpness: mean |4-neighbour Laplacian| of luma over the interior pixels / 40, capped at 1
- colourfulness: Hasler & Süsstrunk (2003), sqrt(sd_rg² + sd_yb²) + 0.3 sqrt(mean_rg² + mean_yb²),
  rg = R − G, yb = (R + G)/2 − B, / 100, capped at 1
- centredness: 0.5 + (sd of luma in the central third − sd of luma outside it) / 64, in [0, 1]

Run by hand (never in CI):  /usr/bin/python3 scripts/image-stats-references.py
Writes test/fixtures/media/image-stats.json.
"""
import json
import os

import cv2
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MEDIA = os.path.join(ROOT, "test", "fixtures", "media")
FILES = ["astronaut.png", "base.png", "blur.png", "coffee.png", "mandel.png", "noise.png", "testsrc.png"]


def stats_of(rgb):
    rgb = rgb.astype(np.float64)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    h, w = luma.shape
    rg = r - g
    yb = 0.5 * (r + g) - b
    colour = np.sqrt(rg.std() ** 2 + yb.std() ** 2) + 0.3 * np.sqrt(rg.mean() ** 2 + yb.mean() ** 2)
    c = luma[1:-1, 1:-1]
    lap = np.abs(4 * c - luma[1:-1, :-2] - luma[1:-1, 2:] - luma[:-2, 1:-1] - luma[2:, 1:-1]).mean()
    ys, xs = np.mgrid[0:h, 0:w]
    inside = (xs >= w / 3) & (xs < 2 * w / 3) & (ys >= h / 3) & (ys < 2 * h / 3)
    centred = 0.5 + (luma[inside].std() - luma[~inside].std()) / 64
    return {
        "sharpness": min(1.0, lap / 40),
        "colourfulness": min(1.0, colour / 100),
        "centredness": min(1.0, max(0.0, centred)),
        "brightness": luma.mean() / 255,
        "contrast": luma.std() / 128,
    }


def main():
    out = {"source": "numpy on OpenCV's decode (scripts/image-stats-references.py)", "images": {}}
    for name in FILES:
        bgr = cv2.imread(os.path.join(MEDIA, name), cv2.IMREAD_COLOR)
        out["images"][name] = stats_of(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    with open(os.path.join(MEDIA, "image-stats.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


main()
