#!/usr/bin/env bash
# Generates the real-style fixtures of issue 28 under test/fixtures/media/staged/ (committed, like
# scripts/make-media-fixtures.sh's: a different ffmpeg build must not change them under the truth
# below). Deterministic for one ffmpeg build. Run by hand: bash scripts/make-staged-fixtures.sh
# (needs ffmpeg ≥ 5 with libx264 and drawtext, and fonts-dejavu-core for the counter's digits).
#
# Keyframe matching (test/compass/response/stage2.test.ts cuts its keyframes from these videos at
# the frames named here):
#   pan-2997.mp4   640x360, 30000/1001 fps, 90 frames: a slow pan over a photograph (1 px per
#                  frame, sub-pixel steps: cropped at 4× and scaled down) with sensor noise that
#                  changes every frame; frames 30–59 are one frame held (frame 30, noise and all:
#                  a freeze in the middle of the motion, which then goes on from where it stopped).
#   counter-10.mp4 640x360, 10 fps, 40 frames: a frame counter (large digits, frame n shows n) over
#                  a still photograph with fixed grain — the digits are all that changes.
# Shot detection (test/media/shots-staged.test.ts, truth.json here):
#   dissolve-busy.mp4  320x180, 24 fps, 144 frames: a plain shot (a flat grey-blue wall with a
#                  little fixed grain) dissolves over 1 s (frames 48–71) into busy, textured, moving
#                  footage (a photograph panned fast, heavy noise changing every frame); cut at 120
#                  to testsrc2. One gradual transition and one cut.
#   vfr-similar.mp4    320x180, variable frame rate: a 30 fps source of three shots — the coffee
#                  photograph panned (0–59), a cut at 60 to another region of the same photograph
#                  (similar colour and brightness: the hard cut), a cut at 120 to testsrc2 (other
#                  colours) to 179 — of which frames with n mod 5 = 2 or n mod 7 = 4 are dropped
#                  (original timestamps kept), as real variable-rate files are made.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=test/fixtures/media/staged
PHOTOS=assets/photos
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -nostdin -v error -y)
X264=(-c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p -g 48 -bf 0 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1)

# --- pan-2997.mp4 --------------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 30000/1001 -t 3.1 -i "$PHOTOS/coffee.png" \
  -filter_complex "\
[0:v]scale=3840:2560:flags=bicubic,crop=2560:1440:x='160+120*(t-clip(t-1.001,0,0.967634))':y='480+16*(t-clip(t-1.001,0,0.967634))',\
scale=640:360:flags=area,format=yuv420p,noise=alls=8:allf=t,setsar=1,split[m][r];\
[m][r]freezeframes=first=30:last=59:replace=30,trim=end_frame=90,setpts=N/(30000/1001)/TB[out]" \
  -map "[out]" -r 30000/1001 "${X264[@]}" "$OUT/pan-2997.mp4"

# --- counter-10.mp4 ------------------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 10 -t 4 -i "$PHOTOS/chelsea.png" \
  -vf "scale=640:426,crop=640:360:0:30,noise=alls=8:allf=0:all_seed=11,\
drawtext=fontfile=$FONT:text='%{eif\:n\:d}':fontsize=150:fontcolor=white:borderw=6:bordercolor=black:x=(w-text_w)/2:y=(h-text_h)/2,\
format=yuv420p,setsar=1" \
  -frames:v 40 "${X264[@]}" "$OUT/counter-10.mp4"

NORM="settb=AVTB,fps=24,format=yuv420p,setsar=1"
# --- dissolve-busy.mp4 ---------------------------------------------------------------------------
"${FF[@]}" \
  -f lavfi -i "color=c=0x607890:s=320x180:r=24:d=3" \
  -loop 1 -framerate 24 -t 4 -i "$PHOTOS/astronaut.png" \
  -f lavfi -i "testsrc2=s=320x180:r=24:d=1" \
  -filter_complex "\
[0:v]$NORM[a];\
[1:v]scale=1024:1024,crop=320:180:x='100+t*160':y='300+t*60',noise=alls=12:allf=t,$NORM[b];\
[2:v]$NORM[c];\
[a][b]xfade=transition=fade:duration=1:offset=2,trim=end_frame=120,setpts=N/(24*TB)[ab];\
[ab][c]concat=n=2:v=1:a=0,setpts=N/(24*TB),format=yuv420p[out]" -map "[out]" "${X264[@]}" "$OUT/dissolve-busy.mp4"

# --- vfr-similar.mp4 -----------------------------------------------------------------------------
N30="settb=1/30,fps=30,format=yuv420p,setsar=1"
"${FF[@]}" \
  -loop 1 -framerate 30 -t 2 -i "$PHOTOS/coffee.png" \
  -loop 1 -framerate 30 -t 2 -i "$PHOTOS/coffee.png" \
  -f lavfi -i "testsrc2=s=320x180:r=30:d=2" \
  -filter_complex "\
[0:v]crop=320:180:x='20+t*25':y=40,$N30[a];\
[1:v]crop=320:180:x='40+t*25':y=60,hflip,$N30[b];\
[2:v]$N30[c];\
[a][b][c]concat=n=3:v=1:a=0,$N30,select='not(eq(mod(n\,5)\,2)+eq(mod(n\,7)\,4))'[out]" \
  -map "[out]" -fps_mode passthrough -video_track_timescale 30000 \
  -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p -g 48 -bf 2 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1 \
  "$OUT/vfr-similar.mp4"

# kept frames before source frame n: n − #{m < n : m mod 5 = 2 or m mod 7 = 4}
kept() { local n=$1 c=0 m; for ((m = 0; m < n; m++)); do ((m % 5 == 2 || m % 7 == 4)) || c=$((c + 1)); done; echo $c; }
# the time of the first kept source frame at or after n
shown() { local m=$1; while ((m % 5 == 2 || m % 7 == 4)); do m=$((m + 1)); done; awk -v m="$m" 'BEGIN { printf "%.6f", m / 30 }'; }
cat > "$OUT/truth.json" <<EOF
{
  "dissolve-busy.mp4": {
    "frames": 144,
    "cuts": [120],
    "gradual": [{ "start_frame": 48, "end_frame": 71 }]
  },
  "vfr-similar.mp4": {
    "frames": $(kept 180),
    "cuts": [$(kept 60), $(kept 120)],
    "cut_times": [$(shown 60), $(shown 120)],
    "gradual": []
  }
}
EOF
ls -la "$OUT"
