#!/usr/bin/env bash
# Generates the exact-timing fixtures of issue 44 item 7 under test/fixtures/media/timing/
# (committed, like scripts/make-staged-fixtures.sh's: a different ffmpeg build must not change them
# under the truth below). Deterministic for one ffmpeg build. Run by hand:
# bash scripts/make-timing-fixtures.sh (needs ffmpeg ≥ 5 with libx264).
#
# Real-style footage whose keyframes test/compass/response/timing.test.ts cuts at known frames —
# the output of a generator that hits each target exactly. Small (256x144 or 320x180), over the
# photographs of assets/photos (public domain / CC0, see its LICENSE.md):
#   calm-25.mp4        256x144, 25 fps, 60 frames: a locked-off shot of a photograph with fresh
#                      sensor grain every frame (consecutive frames 43–45 dB apart, and so is any
#                      pair of frames 0–29: only the grain changes); from frame 30 the camera
#                      drifts (1/16 px a frame; consecutive frames 40–45 dB apart). Frames 40–49
#                      are one frame held (frame 40, grain and all: a real freeze, duplicated
#                      frames).
#   handheld-25.mp4    256x144, 25 fps, 40 frames: a photograph under handheld-like jitter
#                      (sub-pixel shake of 1–2 px) with grain.
#   interlaced-25i.mp4 320x180, 25 fps interlaced (top field first, coded as fields): a 50 fps
#                      slow pan with grain woven into frames, 40 frames.
#   vfr-calm.mp4       256x144, variable frame rate: the calm shot made at 30 fps, 72 frames (the
#                      drift from frame 36), of which frames with n mod 5 = 2 or n mod 7 = 4 are
#                      dropped (original timestamps kept); source frames 48–59 are one frame held
#                      (source frame 48).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=test/fixtures/media/timing
PHOTOS=assets/photos
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -nostdin -v error -y)
X264=(-c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p -g 50 -bf 0 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1)

# the calm shot at rate R, N frames, the drift starting at frame D: coffee at 8x, cropped and
# area-scaled to 256x144 (whole pixels at 8x: 1/16 px steps every other frame), grain ±4 levels
calm() {
  echo "scale=3200:2134:flags=bicubic,crop=2048:1152:x='500+max(0\,n-$3)/2':y=400,scale=256:144:flags=area,\
format=yuv420p,noise=alls=4:allf=t,setsar=1,trim=end_frame=$2"
}

# --- calm-25.mp4 ---------------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 25 -t 4 -i "$PHOTOS/coffee.png" \
  -filter_complex "[0:v]$(calm 25 60 30),split[m][r];[m][r]freezeframes=first=40:last=49:replace=40[out]" \
  -map "[out]" "${X264[@]}" "$OUT/calm-25.mp4"

# --- handheld-25.mp4 -----------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 25 -t 3 -i "$PHOTOS/chelsea.png" \
  -vf "scale=1804:1200:flags=bicubic,crop=1536:864:x='260+5*sin(n*1.3)+3*sin(n*0.71+1)':y='200+4*cos(n*1.1)+2*sin(n*0.53)',\
scale=256:144:flags=area,format=yuv420p,noise=alls=2:allf=t,setsar=1" \
  -frames:v 40 "${X264[@]}" "$OUT/handheld-25.mp4"

# --- interlaced-25i.mp4 --------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 50 -t 3 -i "$PHOTOS/astronaut.png" \
  -vf "scale=1024:1024:flags=bicubic,crop=640:360:x='200+n/4':y=300,scale=320:180:flags=area,\
format=yuv420p,noise=alls=2:allf=t,tinterlace=mode=interleave_top,setfield=tff,setsar=1" \
  -frames:v 40 -r 25 -flags +ildct+ilme -x264opts tff=1 "${X264[@]}" "$OUT/interlaced-25i.mp4"

# --- vfr-calm.mp4 --------------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 30 -t 4 -i "$PHOTOS/coffee.png" \
  -filter_complex "[0:v]$(calm 30 72 36),split[m][r];[m][r]freezeframes=first=48:last=59:replace=48,\
settb=1/30,setpts=N,select='not(eq(mod(n\,5)\,2)+eq(mod(n\,7)\,4))'[out]" \
  -map "[out]" -fps_mode passthrough -video_track_timescale 30000 "${X264[@]}" "$OUT/vfr-calm.mp4"

ls -la "$OUT"
