#!/usr/bin/python3
"""Reference cut lists for the shot detector, from PySceneDetect (issue 56 item 6).

PySceneDetect's `AdaptiveDetector` at its defaults (adaptive_threshold 3, min_scene_len 15 frames,
window_width 2, min_content_val 15, HSV weights 1/1/1, no edges), run the way its `detect()` runs it:
`SceneManager.detect_scenes` on `open_video(path)` (the OpenCV backend, auto downscale to ≥ 256 px
wide), on every shot fixture — each video named in test/fixtures/media/truth.json,
test/fixtures/media/footage/truth.json and test/fixtures/media/staged/truth.json.

PySceneDetect is not vendored and not installed: the script imports it from a checkout of its
public repository (Breakthrough/PySceneDetect; the directory that holds the `scenedetect/` package),
given by `--pyscenedetect DIR` or the PYSCENEDETECT_SRC environment variable. Its only other needs
are numpy and OpenCV, which Debian packages (nothing else had to be installed):
    apt-get install python3-opencv python3-numpy
(Made with PySceneDetect 0.7.1, commit 131c5f60c9d4, Debian's OpenCV 4.6.0 and numpy 1.24.2.)

Run by hand (never in CI):
    PYSCENEDETECT_SRC=/path/to/PySceneDetect /usr/bin/python3 scripts/shots-references.py
Writes test/fixtures/media/pyscenedetect.json: per video (path under test/fixtures/media) its
decoded frame count and each cut PySceneDetect reports — the first frame of the new scene as
PySceneDetect numbers it (`psd_frame`, from its timestamp × the mean rate), its time (`time_s`), and
`frame`: the decoded frame shown at that time (counting decoded frames from 0, as kfbench and the
truth files number them; they differ on variable-rate videos) — and the CPU seconds its detection
took in this process (`cpu_s`: decode, scale and detect; the interpreter's start-up and imports
left out; median of 3 runs), and the process's peak RSS (`peak_rss_mb`).

    /usr/bin/python3 scripts/shots-references.py --print FILE…
prints the same record for each FILE as one JSON object on stdout (after one warm-up run on the
first) and writes nothing: what bench/shots-accuracy.ts runs to measure PySceneDetect in its run.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MEDIA = os.path.join(ROOT, "test", "fixtures", "media")
TRUTHS = ["truth.json", "footage/truth.json", "staged/truth.json"]
OUT = os.path.join(MEDIA, "pyscenedetect.json")


def import_scenedetect(src):
    if not src:
        sys.exit("shots-references: give the PySceneDetect checkout with --pyscenedetect DIR "
                 "or PYSCENEDETECT_SRC (the directory that holds scenedetect/)")
    if not os.path.isfile(os.path.join(src, "scenedetect", "__init__.py")):
        sys.exit(f"shots-references: {src}: no scenedetect/__init__.py there")
    sys.path.insert(0, os.path.abspath(src))
    import scenedetect  # noqa: E402

    return scenedetect


def frame_times(path):
    """Each decoded frame's presentation time (s), as ffprobe reports it."""
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "frame=best_effort_timestamp_time", "-of", "csv=p=0", path],
        capture_output=True, text=True, check=True,
    ).stdout
    return [float(x.strip().rstrip(",")) for x in out.splitlines() if x.strip() and x.strip() != "N/A"]


def detect(sd, path):
    """One run of AdaptiveDetector at its defaults: the cuts and the CPU seconds it took."""
    t0 = time.process_time()
    video = sd.open_video(path)
    manager = sd.SceneManager()
    manager.add_detector(sd.AdaptiveDetector())
    manager.detect_scenes(video=video)
    scenes = manager.get_scene_list()
    cpu = time.process_time() - t0
    return [start for start, _end in scenes[1:]], cpu


def record(sd, path, runs):
    cpus = []
    for _ in range(runs):
        starts, cpu = detect(sd, path)
        cpus.append(cpu)
    times = frame_times(path)
    cuts = []
    for s in starts:
        t = float(s.seconds)
        frame = min(range(len(times)), key=lambda i: abs(times[i] - t))
        cuts.append({"frame": frame, "psd_frame": int(s.frame_num), "time_s": round(t, 6)})
    return {
        "frames": len(times),
        "cuts": cuts,
        "cpu_s": round(statistics.median(cpus), 4),
    }


def peak_rss_mb():
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def fixtures():
    names = []
    for t in TRUTHS:
        with open(os.path.join(MEDIA, t)) as f:
            folder = os.path.dirname(t)
            names += [os.path.join(folder, name) if folder else name for name in json.load(f)]
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pyscenedetect", default=os.environ.get("PYSCENEDETECT_SRC"))
    ap.add_argument("--print", nargs="+", metavar="FILE", dest="files")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    sd = import_scenedetect(a.pyscenedetect)
    if a.files:
        detect(sd, a.files[0])  # warm-up: OpenCV's and numpy's first calls
        out = {f: record(sd, f, a.runs) for f in a.files}
        out["_version"] = sd.__version__
        out["_peak_rss_mb"] = peak_rss_mb()
        json.dump(out, sys.stdout)
        print()
        return
    import cv2
    import numpy

    refs = {
        "generated_by": "scripts/shots-references.py with PySceneDetect "
        f"{sd.__version__}, OpenCV {cv2.__version__}, numpy {numpy.__version__}",
        "detector": "AdaptiveDetector() at its defaults: adaptive_threshold 3.0, min_scene_len 15, "
        "window_width 2, min_content_val 15.0, weights (1, 1, 1, 0); SceneManager auto downscale",
        "videos": {},
    }
    for name in fixtures():
        refs["videos"][name] = record(sd, os.path.join(MEDIA, name), a.runs)
        print(name, [c["frame"] for c in refs["videos"][name]["cuts"]], file=sys.stderr)
    refs["peak_rss_mb"] = peak_rss_mb()
    with open(OUT, "w") as f:
        json.dump(refs, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
