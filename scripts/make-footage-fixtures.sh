#!/usr/bin/env bash
# Generates the real-footage fixtures of issue 48 items 1 to 4 (and issue 56 item 6) under test/fixtures/media/footage/
# (committed, like scripts/make-timing-fixtures.sh's: a different ffmpeg build must not change them
# under the truth below). Deterministic for one ffmpeg build. Run by hand:
# bash scripts/make-footage-fixtures.sh (needs ffmpeg ≥ 5 with libx264, libvpx-vp9, mpeg2video,
# mpeg4 and mp2).
#
# Transport streams are named .m2t (the HDV name), not .ts, which TypeScript and Biome would read.
# Item 3, a broadcast capture (test/media/broadcast.test.ts):
#   (broadcast-whole, not kept) MPEG-2 video (open GOPs of 12, 2 B-frames) + MP2 audio in a transport
#                       stream, 320x180, 25 fps, 100 frames: a pan over a photograph above a strip
#                       (the bottom 20 rows) of flat grey of luma 16 + 2n in frame n (a decoded
#                       frame says which frame it is).
#   broadcast-midgop.m2t the same stream cut at 188-byte packet boundaries: in the middle of its
#                       second GOP (`tail -c`, as a recorder that starts mid-broadcast) and in the
#                       middle of its last picture's data (`head -c`, the recording stops). The
#                       decoder has no sequence header until the third GOP's I-frame (source frame 24): it drops
#                       the 6 frames ahead of it ("Invalid frame dimensions 0x0") and the open
#                       GOP's two leading B-frames after it (22, 23); the last picture's data is
#                       cut short and concealed ("Warning MVs not available"); ffmpeg exits 0.
# Item 4, videos without a container duration, and their twins (test/compass/response/footage.test.ts):
#   recorder.webm       VP9 in WebM written to a pipe (no Duration element, no cues: what a
#                       browser's MediaRecorder writes), 1 ms time base, variable rate (a 30 fps
#                       source with every third frame dropped), 256x144; a pan over a photograph.
#   recorder-remux.webm the same packets remuxed to a file (`-c copy`): with a Duration.
#   interlaced.m2t       H.264 coded interlaced (top field first) in a transport stream, 25 fps, the
#                       fields of a 50 fps pan; no stream duration is stored in a TS.
#   interlaced-deint.mp4 its twin: that file deinterlaced (bwdif, one frame per frame: each frame at
#                       its first field's instant), 25 fps progressive.
#   phone.mp4           a phone clip: variable rate (frames of a 30 fps source with n mod 4 = 3
#                       dropped), stored sideways with a −90° display matrix (coded 256x144,
#                       shown 144x256).
#   phone-upright.mp4   its twin: the same frames stored upright (144x256, no display matrix),
#                       same timestamps.
#   mpeg4.avi           MPEG-4 Part 2 (ASP, 2 B-frames) in AVI, 25 fps: AVI stores no
#                       presentation timestamps (only a frame counter).
#   mpeg4-remux.mp4     the same packets remuxed to MP4.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=test/fixtures/media/footage
PHOTOS=assets/photos
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -nostdin -v error -y)
BITEXACT=(-threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1)

# --- broadcast-whole.m2t / broadcast-midgop.m2t ------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 25 -t 4 -i "$PHOTOS/coffee.png" -f lavfi -i "color=c=black:s=320x20:r=25:d=4" \
  -f lavfi -i "sine=f=440:d=4" -filter_complex "\
[0:v]scale=600:400,crop=320:160:x='20+n*2':y='60+n',format=yuv420p,setsar=1[p];\
[1:v]geq=lum='16+2*N':cb=128:cr=128,format=yuv420p,setsar=1[g];[p][g]vstack,format=yuv420p[v]" \
  -map "[v]" -map 2:a -frames:v 100 -c:v mpeg2video -q:v 3 -g 12 -bf 2 "${BITEXACT[@]}" -c:a mp2 -b:a 64k \
  -f mpegts "$OUT/broadcast-whole.tmp.m2t"
# the cuts: at the first 188-byte packet boundary after the start of the second GOP's sixth video
# packet (decode order), and at the boundary in the middle of the last video packet's data
W="$OUT/broadcast-whole.tmp.m2t"
pos=$(ffprobe -v error -select_streams v -show_entries packet=pos -of default=nw=1:nk=1 "$W" | sed -n 16p)
lastpos=$(ffprobe -v error -select_streams v -show_entries packet=pos -of default=nw=1:nk=1 "$W" | tail -1)
lastsize=$(ffprobe -v error -select_streams v -show_entries packet=size -of default=nw=1:nk=1 "$W" | tail -1)
end=$(((lastpos + lastsize / 2) / 188 * 188))
head -c "$end" "$W" | tail -c +$(((pos / 188 + 1) * 188 + 1)) > "$OUT/broadcast-midgop.m2t"
rm "$OUT/broadcast-whole.tmp.m2t"

# --- recorder.webm / recorder-remux.webm ----------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 30 -t 3 -i "$PHOTOS/coffee.png" \
  -vf "scale=600:400,crop=384:216:x='20+t*40':y='40+t*12',scale=256:144:flags=area,format=yuv420p,setsar=1,\
select='not(eq(mod(n\,3)\,2))'" -fps_mode passthrough \
  -c:v libvpx-vp9 -b:v 150k -deadline good -cpu-used 4 -g 60 "${BITEXACT[@]}" -f webm - > "$OUT/recorder.webm"
"${FF[@]}" -i "$OUT/recorder.webm" -c copy "${BITEXACT[@]}" "$OUT/recorder-remux.webm"

# --- interlaced.m2t / interlaced-deint.mp4 ---------------------------------------------------------
PAN="scale=1024:1024:flags=bicubic,crop=640:360:x='200+n*2':y=300,scale=320:180:flags=area,format=yuv420p,setsar=1"
"${FF[@]}" -loop 1 -framerate 50 -t 3 -i "$PHOTOS/astronaut.png" \
  -vf "$PAN,tinterlace=mode=interleave_top,setfield=tff" -frames:v 40 -r 25 \
  -c:v libx264 -preset medium -crf 18 -g 25 -bf 2 -flags +ildct+ilme -x264opts tff=1 "${BITEXACT[@]}" \
  -f mpegts "$OUT/interlaced.m2t"
"${FF[@]}" -i "$OUT/interlaced.m2t" -vf "bwdif=mode=send_frame:parity=auto:deint=all" \
  -c:v libx264 -preset medium -crf 10 -g 25 -bf 2 "${BITEXACT[@]}" "$OUT/interlaced-deint.mp4"

# --- phone.mp4 / phone-upright.mp4 ----------------------------------------------------------------
SHOT="scale=1024:1024:flags=bicubic,crop=288:512:x='300+n*3':y='200+n',scale=144:256:flags=area,format=yuv420p,setsar=1,\
settb=1/30,setpts=N,select='not(eq(mod(n\,4)\,3))'"
"${FF[@]}" -loop 1 -framerate 30 -t 3 -i "$PHOTOS/astronaut.png" -vf "$SHOT" -frames:v 60 -fps_mode passthrough \
  -video_track_timescale 30000 -c:v libx264 -preset medium -crf 16 -g 30 -bf 2 "${BITEXACT[@]}" "$OUT/phone-upright.mp4"
"${FF[@]}" -loop 1 -framerate 30 -t 3 -i "$PHOTOS/astronaut.png" -vf "$SHOT,transpose=cclock" -frames:v 60 \
  -fps_mode passthrough -video_track_timescale 30000 -c:v libx264 -preset medium -crf 16 -g 30 -bf 2 \
  "${BITEXACT[@]}" "$OUT/phone.tmp.mp4"
"${FF[@]}" -i "$OUT/phone.tmp.mp4" -c copy -metadata:s:v:0 rotate=270 "${BITEXACT[@]}" "$OUT/phone.mp4"
rm "$OUT/phone.tmp.mp4"

# --- mpeg4.avi / mpeg4-remux.mp4 ------------------------------------------------------------------
"${FF[@]}" -loop 1 -framerate 25 -t 3 -i "$PHOTOS/chelsea.png" \
  -vf "scale=600:400,crop=384:216:x='10+n*3':y='60+n',scale=320:180:flags=area,format=yuv420p,setsar=1" \
  -frames:v 60 -c:v mpeg4 -q:v 6 -g 25 -bf 2 "${BITEXACT[@]}" "$OUT/mpeg4.avi"
"${FF[@]}" -i "$OUT/mpeg4.avi" -c copy "${BITEXACT[@]}" "$OUT/mpeg4-remux.mp4"

# --- dissolves.mp4 / matched-cut.mp4 (items 1 and 2; truth.json here, bench/shots-accuracy.ts) ---
# dissolves.mp4: 320x180, 25 fps, 310 frames; xfade (fade) dissolves of 0.2, 0.4, 1 and 2 s
#   0–59 chelsea (slow drift) → dissolve 0.2 s (55–59) → coffee (slow pan)
#   → dissolve 0.4 s (105–114) → astronaut (slow pan) → dissolve 1 s (140–164) into a Game of Life
#   (busy: every cell changing every frame) → cut at 199 to rocket (xfade keeps one frame fewer) (slow pan) → dissolve 2 s
#   (235–284) → mandelbrot zoom to 309.
# matched-cut.mp4: 320x180, 25 fps, 100 frames: coffee panned right at 2 px a frame (0–49), cut at
#   50 to the same photograph mirrored (hflip: the same colour histogram), panned at the same speed.
N25="settb=AVTB,fps=25,format=yuv420p,setsar=1"
"${FF[@]}" \
  -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/chelsea.png" \
  -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/coffee.png" \
  -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/astronaut.png" \
  -f lavfi -i "life=s=64x36:r=25:ratio=0.5:seed=7:mold=0:life_color=white:death_color=black,scale=320:180:flags=neighbor,trim=duration=2.4" \
  -loop 1 -framerate 25 -t 3.4 -i "$PHOTOS/rocket.jpg" \
  -f lavfi -i "mandelbrot=s=320x180:r=25,trim=duration=3" \
  -filter_complex "\
[0:v]crop=400:225:x='t*20':y=30,scale=320:180,$N25[a];\
[1:v]scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180,$N25[b];\
[2:v]scale=1024:1024,crop=320:180:x='100+t*30':y=300,$N25[c];[3:v]$N25[d];\
[4:v]scale=480:-2,crop=320:180:x='t*15':y='20+t*5',$N25[e];[5:v]$N25[f];\
[a][b]xfade=transition=fade:duration=0.2:offset=2.2,$N25[ab];\
[ab][c]xfade=transition=fade:duration=0.4:offset=4.2,$N25[abc];\
[abc][d]xfade=transition=fade:duration=1:offset=5.6,$N25[abcd];\
[abcd][e]concat=n=2:v=1:a=0,$N25[abcde];\
[abcde][f]xfade=transition=fade:duration=2:offset=9.4,$N25[out]" \
  -map "[out]" -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/dissolves.mp4"
"${FF[@]}" -loop 1 -framerate 25 -t 2 -i "$PHOTOS/coffee.png" -loop 1 -framerate 25 -t 2 -i "$PHOTOS/coffee.png" \
  -filter_complex "\
[0:v]scale=600:400,crop=320:180:x='20+n*2':y=100,$N25[a];\
[1:v]scale=600:400,hflip,crop=320:180:x='120+n*2':y=140,$N25[b];[a][b]concat=n=2:v=1:a=0,$N25[out]" \
  -map "[out]" -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/matched-cut.mp4"

# --- crossfades.mp4 / matched-motion.mp4 (items 1 and 2, the harder half) -------------------------
# crossfades.mp4: 320x180, 25 fps, 625 frames: six clips joined by hard cuts, each clip one
#   transition between two shots (`xfade`, each clip trimmed to an exact frame count, so every
#   boundary is known by construction: a clip's blended frames are offset·25 … (offset + d)·25 − 1,
#   the convention of dissolves.mp4's truth; a clip's first frame is a cut)
#   0–99    chelsea (slow drift) → dissolve 0.2 s (50–54) into a Game of Life (busy)
#   100–199 coffee (slow pan) → dissolve 0.4 s (150–159) into a fast pan and zoom over astronaut (busy)
#   200–299 rocket (slow pan) → dissolve 1 s (240–264) into chelsea (calm, another crop)
#   300–424 coffee (slow pan) → dissolve 2 s (340–389) into astronaut (slow pan, calm)
#   425–524 astronaut (slow pan) → fade through black 1 s (465–489) into rocket (a flat-field fade)
#   525–624 a Game of Life (busy) → fade through white 1 s (565–589) into chelsea
# matched-motion.mp4: 320x180, 25 fps, 120 frames: chelsea (fur and foliage) panned fast, 10 px a
#   frame (and 3 down), turning back at frame 30 (a change of motion, not a cut); cut at 60 to the
#   same photograph mirrored (hflip: the same colour histogram) panned at the same speed, with a 24 px camera bump
#   at frame 90 (a change of motion again). Only frame 60 is a cut.
CALM_A="crop=400:225:x='t*20':y=30,scale=320:180"
CALM_B="scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180"
CALM_C="scale=1024:1024,crop=320:180:x='100+t*30':y=300"
CALM_D="scale=480:-2,crop=320:180:x='t*15':y='20+t*5'"
CALM_E="crop=360:203:x='60+t*10':y=120,scale=320:180"
BUSY_PAN="scale=1024:1024,crop=w='480-n*2':h='270-n*9/8':x='n*10':y='200+n*3',scale=320:180"
LIFE="scale=320:180:flags=neighbor"
T=$(mktemp -d)
img() { printf '%s' "-loop 1 -framerate 25 -t 6 -i $PHOTOS/$1"; }
life() { printf '%s' "-f lavfi -i life=s=64x36:r=25:ratio=0.5:seed=$1:mold=0:life_color=white:death_color=black,trim=duration=6"; }
# clip INPUT_I INPUT_J FILTER_I FILTER_J TRANSITION DURATION OFFSET FRAMES OUT: one transition between
# two shots (inputs given as ffmpeg input arguments), exactly FRAMES long, lossless
clip() {
  # shellcheck disable=SC2086
  "${FF[@]}" $1 $2 -filter_complex "\
[0:v]$3,$N25[a];[1:v]$4,$N25[b];[a][b]xfade=transition=$5:duration=$6:offset=$7,trim=end_frame=$8,\
setpts=PTS-STARTPTS,$N25[out]" -map "[out]" -c:v ffv1 "${BITEXACT[@]}" "$9"
}
clip "$(img chelsea.png)" "$(life 11)" "$CALM_A" "$LIFE" fade 0.2 2.0 100 "$T/1.mkv"
clip "$(img coffee.png)" "$(img astronaut.png)" "$CALM_B" "$BUSY_PAN" fade 0.4 2.0 100 "$T/2.mkv"
clip "$(img rocket.jpg)" "$(img chelsea.png)" "$CALM_D" "$CALM_E" fade 1 1.6 100 "$T/3.mkv"
clip "$(img coffee.png)" "$(img astronaut.png)" "$CALM_B" "$CALM_C" fade 2 1.6 125 "$T/4.mkv"
clip "$(img astronaut.png)" "$(img rocket.jpg)" "$CALM_C" "$CALM_D" fadeblack 1 1.6 100 "$T/5.mkv"
clip "$(life 5)" "$(img chelsea.png)" "$LIFE" "$CALM_E" fadewhite 1 1.6 100 "$T/6.mkv"
"${FF[@]}" -i "$T/1.mkv" -i "$T/2.mkv" -i "$T/3.mkv" -i "$T/4.mkv" -i "$T/5.mkv" -i "$T/6.mkv" \
  -filter_complex "concat=n=6:v=1:a=0,$N25[out]" -map "[out]" \
  -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/crossfades.mp4"
rm -r "$T"
"${FF[@]}" -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/chelsea.png" -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/chelsea.png" \
  -filter_complex "\
[0:v]scale=1200:800,crop=320:180:x='40+10*min(n\,30)-10*max(0\,n-30)':y='100+n*3',$N25[a];\
[1:v]scale=1200:800,hflip,crop=320:180:x='200+n*10+24*gte(n\,30)':y='400+n*3',$N25[b];\
[a][b]concat=n=2:v=1:a=0,trim=end_frame=120,$N25[out]" \
  -map "[out]" -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/matched-motion.mp4"

# --- dark-cut.mp4 / glass-move.mp4 (issue 56 item 6: the two misses of the side-by-side run) -----
# dark-cut.mp4: 320x180, 25 fps, 120 frames: two dark shots of similar tone (night footage: luma
#   16 + (Y − 16)·0.35, chroma at half strength, sensor noise changing every frame), both regions of
#   chelsea (the same palette), each panned slowly; a hard cut at 60. PySceneDetect's
#   AdaptiveDetector finds it; kfbench before issue 56 did not (each change under its absolute floor).
# glass-move.mp4: 320x180, 25 fps, 100 frames, no cut: a camera panning behind a window (astronaut
#   at 2 px a frame, a still blurred reflection of coffee screened over it at 40 %) that jerks 18 px
#   a frame for frames 51–53 (a short camera move). kfbench before issue 56 reported a cut at 52.
NIGHT="lutyuv=y='16+(val-16)*0.35':u='128+(val-128)*0.5':v='128+(val-128)*0.5',noise=alls=8:allf=t"
"${FF[@]}" -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/chelsea.png" -loop 1 -framerate 25 -t 2.4 -i "$PHOTOS/chelsea.png" \
  -filter_complex "\
[0:v]scale=640:-2,crop=320:180:x='20+t*20':y=40,$NIGHT,$N25[a];\
[1:v]scale=640:-2,crop=320:180:x='200-t*20':y=150,hflip,$NIGHT,$N25[b];\
[a][b]concat=n=2:v=1:a=0,trim=end_frame=120,$N25[out]" \
  -map "[out]" -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/dark-cut.mp4"
"${FF[@]}" -loop 1 -framerate 25 -t 4.4 -i "$PHOTOS/astronaut.png" -loop 1 -framerate 25 -t 4.4 -i "$PHOTOS/coffee.png" \
  -filter_complex "\
[0:v]scale=1600:1600,crop=320:180:x='100+2*n+18*clip(n-50\,0\,3)':y=600,format=gbrp,setsar=1[bg];\
[1:v]scale=800:-2,crop=320:180:x=200:y=100,gblur=sigma=3,format=gbrp,setsar=1[rf];\
[bg][rf]blend=all_mode=screen:all_opacity=0.4,trim=end_frame=100,$N25[out]" \
  -map "[out]" -c:v libx264 -preset medium -crf 23 -g 50 -bf 0 "${BITEXACT[@]}" "$OUT/glass-move.mp4"
cat > "$OUT/truth.json" <<'JSON'
{
  "dissolves.mp4": {
    "frames": 310,
    "cuts": [199],
    "gradual": [
      { "start_frame": 55, "end_frame": 59 },
      { "start_frame": 105, "end_frame": 114 },
      { "start_frame": 140, "end_frame": 164 },
      { "start_frame": 235, "end_frame": 284 }
    ]
  },
  "matched-cut.mp4": { "frames": 100, "cuts": [50], "gradual": [] },
  "crossfades.mp4": {
    "frames": 625,
    "cuts": [100, 200, 300, 425, 525],
    "gradual": [
      { "start_frame": 50, "end_frame": 54 },
      { "start_frame": 150, "end_frame": 159 },
      { "start_frame": 240, "end_frame": 264 },
      { "start_frame": 340, "end_frame": 389 },
      { "start_frame": 465, "end_frame": 489 },
      { "start_frame": 565, "end_frame": 589 }
    ]
  },
  "matched-motion.mp4": { "frames": 120, "cuts": [60], "gradual": [] },
  "dark-cut.mp4": { "frames": 120, "cuts": [60], "gradual": [] },
  "glass-move.mp4": { "frames": 100, "cuts": [], "gradual": [] }
}
JSON

ls -la "$OUT"
