#!/usr/bin/env bash
# Generates the media test fixtures under test/fixtures/media/ (committed: a different ffmpeg
# build must not change them under the reference values). Deterministic for one ffmpeg build.
# Run by hand: bash scripts/make-media-fixtures.sh [base] [real]   (needs ffmpeg ≥ 5; no argument:
# both groups). `real` makes only the real-footage fixtures (variable frame rate, display rotation,
# crossfade into busy footage, fades over flat fields, repeated timestamps), so that adding them
# does not re-encode the older ones.
set -euo pipefail
WANT=" ${*:-base real} "
want() { [[ "$WANT" == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
OUT=test/fixtures/media
PHOTOS=assets/photos
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -nostdin -v error -y)
X264=(-c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p -g 48 -bf 0 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1)
NORM="settb=AVTB,fps=24,format=yuv420p,setsar=1"

if want base; then

# --- shots.mp4: 320x180, 24 fps, 264 frames (11 s) ----------------------------------------
# frames   0– 47  testsrc2 (moving pattern)
# cut at  48:     smptehdbars, static stretch (48–95)
# cut at  96:     astronaut, fast pan (96–143)
# cut at 144:     mandelbrot zoom (144–215), crossfade of 1 s (24 frames: 192–215) into
#                 coffee, slow pan (192–263)
"${FF[@]}" \
  -f lavfi -i "testsrc2=s=320x180:r=24:d=2" \
  -f lavfi -i "smptehdbars=s=320x180:r=24:d=2" \
  -loop 1 -framerate 24 -t 2 -i "$PHOTOS/astronaut.png" \
  -f lavfi -i "mandelbrot=s=320x180:r=24,trim=duration=3" \
  -loop 1 -framerate 24 -t 3 -i "$PHOTOS/coffee.png" \
  -filter_complex "\
[0:v]$NORM[a];\
[1:v]$NORM[b];\
[2:v]scale=1024:1024,crop=320:180:x='min(700,t*350)':y='200+t*120',$NORM[c];\
[3:v]$NORM[d];\
[4:v]scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180,$NORM[e];\
[a][b][c]concat=n=3:v=1:a=0,$NORM[abc];\
[d][e]xfade=transition=fade:duration=1:offset=2,$NORM[de];\
[abc][de]concat=n=2:v=1:a=0,$NORM[out]" \
  -map "[out]" "${X264[@]}" "$OUT/shots.mp4"

# --- fade.mp4: 320x180, 24 fps: chelsea (slow drift) fades out to black over 12 frames, then
# rocket fades in over 12 frames; plus a hard cut to testsrc. 
# frames 0–47 chelsea (fade-out 36–47), 48–95 rocket (fade-in 48–59), cut at 96: testsrc 96–143
"${FF[@]}" \
  -loop 1 -framerate 24 -t 2 -i "$PHOTOS/chelsea.png" \
  -loop 1 -framerate 24 -t 2 -i "$PHOTOS/rocket.jpg" \
  -f lavfi -i "testsrc=s=320x180:r=24:d=2" \
  -filter_complex "\
[0:v]crop=400:225:x='t*20':y=30,scale=320:180,$NORM,fade=t=out:st=1.5:d=0.5[a];\
[1:v]crop=400:225:x=100:y='100+t*10',scale=320:180,$NORM,fade=t=in:st=0:d=0.5[b];\
[2:v]$NORM[c];\
[a][b][c]concat=n=3:v=1:a=0,$NORM[out]" \
  -map "[out]" "${X264[@]}" "$OUT/fade.mp4"

# --- audio.mp4: 2 s testsrc2 with a sine tone (has_audio = true) ----------------------------
"${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=2" -f lavfi -i "sine=f=440:d=2" \
  "${X264[@]}" -c:a aac -b:a 64k -shortest "$OUT/audio.mp4"

# --- rational.mp4: 29.97 fps (30000/1001), 60 frames, frame number burnt in as a grey level ---
# Each frame n is a flat grey of luma level 16 + 3n (16..193): a decoded frame says which frame it is.
"${FF[@]}" -f lavfi -i "color=c=black:s=160x96:r=30000/1001:d=2.1" \
  -vf "geq=lum='16+3*N':cb=128:cr=128,format=yuv420p" -frames:v 60 \
  -c:v libx264 -preset medium -qp 0 -pix_fmt yuv420p -g 12 -bf 2 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1 "$OUT/rational.mp4"

# --- bad inputs --------------------------------------------------------------------------------
head -c 6000 "$OUT/shots.mp4" > "$OUT/truncated.mp4"
# header intact (moov first), data cut: probes fine, decoding fails part way
"${FF[@]}" -i "$OUT/shots.mp4" -c copy -movflags +faststart "$OUT/faststart.tmp.mp4"
head -c 250000 "$OUT/faststart.tmp.mp4" > "$OUT/truncated-data.mp4"
rm "$OUT/faststart.tmp.mp4"
printf 'this is not a video\n' > "$OUT/not-a-video.mp4"
"${FF[@]}" -f lavfi -i "sine=f=440:d=1" -c:a aac "$OUT/audio-only.m4a"
"${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=24" -frames:v 0 -c:v libx264 "$OUT/zero-frames.mp4"

# --- images: a base photo and its variants (PNG), JPEG versions ---------------------------------
"${FF[@]}" -i "$PHOTOS/chelsea.png" -vf "scale=320:213:flags=lanczos" -frames:v 1 "$OUT/base.png"
"${FF[@]}" -i "$OUT/base.png" -vf "noise=alls=20:allf=u:all_seed=7" -frames:v 1 "$OUT/noise.png"
"${FF[@]}" -i "$OUT/base.png" -vf "gblur=sigma=2" -frames:v 1 "$OUT/blur.png"
"${FF[@]}" -i "$OUT/base.png" -vf "crop=316:213:4:0,pad=320:213:0:0:gray" -frames:v 1 "$OUT/shift.png"
"${FF[@]}" -i "$OUT/base.png" -q:v 2 -frames:v 1 "$OUT/base.jpg"
"${FF[@]}" -i "$OUT/base.png" -q:v 20 -frames:v 1 "$OUT/recompressed.jpg"
"${FF[@]}" -i "$PHOTOS/coffee.png" -vf "scale=480:320:flags=lanczos" -frames:v 1 "$OUT/coffee.png"
"${FF[@]}" -i "$PHOTOS/astronaut.png" -vf "scale=400:400:flags=lanczos" -frames:v 1 "$OUT/astronaut.png"
"${FF[@]}" -i "$OUT/astronaut.png" -q:v 3 -frames:v 1 "$OUT/astronaut.jpg"
"${FF[@]}" -f lavfi -i "testsrc2=s=320x240:r=1:d=1" -frames:v 1 "$OUT/testsrc.png"
"${FF[@]}" -f lavfi -i "mandelbrot=s=333x187:r=1" -frames:v 1 "$OUT/mandel.png"
head -c 3000 "$OUT/base.jpg" > "$OUT/truncated.jpg"
printf 'not an image' > "$OUT/not-an-image.jpg"

fi

if want real; then
# --- vfr.mp4: 320x180, variable frame rate, B-frames; truth by construction ----------------------
# A 120 fps source (time base 1/120) of four shots with cuts at exactly 3.75 s, 6.0 s and 8.75 s;
# frames are then kept irregularly (original timestamps kept, -fps_mode passthrough):
#   t < 3.75   a 24 fps grid with every third frame dropped (gaps 1/24, 1/24, 1/12)  → 60 frames
#   3.75–6.0   12 fps                                                                → 27 frames
#   6.0–8.75   30 fps                                                                → 83 frames
#   ≥ 8.75     gaps alternating 1/40 s and 7/120 s                                   → 42 frames
# 212 frames; the cuts are frames 60, 87 and 170, shown at 3.75 s, 6.0 s and 8.75 s.
N120="settb=1/120,fps=120,format=yuv420p,setsar=1"
"${FF[@]}" \
  -f lavfi -i "testsrc2=s=320x180:r=120:d=3.75" \
  -loop 1 -framerate 120 -t 2.25 -i "$PHOTOS/astronaut.png" \
  -f lavfi -i "mandelbrot=s=320x180:r=120,trim=duration=2.75" \
  -loop 1 -framerate 120 -t 1.75 -i "$PHOTOS/coffee.png" \
  -filter_complex "\
[0:v]$N120[a];\
[1:v]scale=1024:1024,crop=320:180:x='min(700,t*300)':y='200+t*100',$N120[b];\
[2:v]$N120[c];\
[3:v]scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180,$N120[d];\
[a][b][c][d]concat=n=4:v=1:a=0,$N120,\
select='if(lt(n\,450)\,not(mod(n\,5))*not(eq(mod(n/5\,3)\,2))\,if(lt(n\,720)\,not(mod(n\,10))\,if(lt(n\,1050)\,not(mod(n\,4))\,eq(mod(n-1050\,10)\,0)+eq(mod(n-1050\,10)\,3))))'[out]" \
  -map "[out]" -fps_mode passthrough -video_track_timescale 120 \
  -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p -g 48 -bf 2 -threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1 \
  "$OUT/vfr.mp4"

# --- rotated.mp4: a phone clip stored sideways with a −90° display matrix ---------------------------
# Shown upright (136x320): a white bar across the top 60 rows, a grey strip down the left 30 columns,
# black elsewhere. Stored turned a quarter (coded 320x136) with rotate=270 (ffprobe: rotation −90).
"${FF[@]}" -f lavfi \
  -i "color=c=black:s=136x320:r=24:d=1,drawbox=x=0:y=0:w=136:h=60:c=white:t=fill,drawbox=x=0:y=0:w=30:h=320:c=gray:t=fill" \
  -vf "transpose=cclock,format=yuv420p" "${X264[@]}" "$OUT/rotated.tmp.mp4"
"${FF[@]}" -i "$OUT/rotated.tmp.mp4" -c copy -metadata:s:v:0 rotate=270 "$OUT/rotated.mp4"
rm "$OUT/rotated.tmp.mp4"

# --- repeat-ts.mkv: 25 intra frames of which frame 10 repeats frame 9's timestamp (bad input) ------
"${FF[@]}" -f lavfi -i "testsrc2=s=160x90:r=25:d=1" -c:v libx264 -g 1 -bf 0 -threads 1 -fflags +bitexact "$OUT/repeat-ts.tmp.mkv"
"${FF[@]}" -i "$OUT/repeat-ts.tmp.mkv" -c copy -bsf:v "setts=ts='if(eq(N,10),PREV_INPTS,PTS)'" "$OUT/repeat-ts.mkv"
rm "$OUT/repeat-ts.tmp.mkv"

# --- xfade.mp4: 320x180, 24 fps, crossfades into and out of busy, high-contrast footage ------------
# 0–47 chelsea (slow drift); crossfade of 1 s (48–71) into a Game of Life (64x36 cells blown up
# ×5, black and white, every cell changing every frame); crossfade of 1 s (120–143) into coffee
# (slow pan); cut to testsrc2 at 191 (xfade keeps one frame fewer than 8 s: 191 frames before it).
"${FF[@]}" \
  -loop 1 -framerate 24 -t 3 -i "$PHOTOS/chelsea.png" \
  -f lavfi -i "life=s=64x36:r=24:ratio=0.5:seed=7:mold=0:life_color=white:death_color=black,scale=320:180:flags=neighbor,trim=duration=4" \
  -loop 1 -framerate 24 -t 3 -i "$PHOTOS/coffee.png" \
  -f lavfi -i "testsrc2=s=320x180:r=24:d=2" \
  -filter_complex "\
[0:v]crop=400:225:x='t*20':y=30,scale=320:180,$NORM[a];[1:v]$NORM[b];\
[2:v]scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180,$NORM[c];[3:v]$NORM[d];\
[a][b]xfade=transition=fade:duration=1:offset=2,$NORM[ab];\
[ab][c]xfade=transition=fade:duration=1:offset=5,$NORM[abc];\
[abc][d]concat=n=2:v=1:a=0,$NORM[out]" -map "[out]" "${X264[@]}" "$OUT/xfade.mp4"

# --- flat-fade.mp4: 320x180, 24 fps, luminance ramps over flat fields -------------------------------
# 0–47 testsrc2; cut at 48 to a flat blue field that fades in from black over 2 s (48–95) and out
# to black over 2 s (96–143) — one shot, no transition inside; cut at 144 to coffee (slow pan),
# which fades out to white over 1.5 s (156–191); astronaut fades in from white over 1.5 s
# (192–227): one gradual transition 156–227 through a flat white field; astronaut to 239.
"${FF[@]}" \
  -f lavfi -i "testsrc2=s=320x180:r=24:d=2" \
  -f lavfi -i "color=c=0x6080c0:s=320x180:r=24:d=4" \
  -loop 1 -framerate 24 -t 2 -i "$PHOTOS/coffee.png" \
  -loop 1 -framerate 24 -t 2 -i "$PHOTOS/astronaut.png" \
  -filter_complex "\
[0:v]$NORM[a];\
[1:v]$NORM,fade=t=in:st=0:d=2,fade=t=out:st=2:d=2[b];\
[2:v]scale=600:400,crop=480:270:x='t*20':y='40+t*8',scale=320:180,$NORM,fade=t=out:st=0.5:d=1.5:color=white[c];\
[3:v]scale=1024:1024,crop=320:180:x='100+t*30':y=300,$NORM,fade=t=in:st=0:d=1.5:color=white[d];\
[a][b][c][d]concat=n=4:v=1:a=0,$NORM[out]" -map "[out]" "${X264[@]}" "$OUT/flat-fade.mp4"
fi

cat > "$OUT/truth.json" <<'EOF'
{
  "shots.mp4": {
    "frames": 264,
    "cuts": [48, 96, 144],
    "gradual": [{ "start_frame": 192, "end_frame": 215 }],
    "static": [48, 95],
    "fast_motion": [96, 143]
  },
  "fade.mp4": {
    "frames": 144,
    "cuts": [96],
    "gradual": [{ "start_frame": 36, "end_frame": 59 }]
  },
  "xfade.mp4": {
    "frames": 239,
    "cuts": [191],
    "gradual": [
      { "start_frame": 48, "end_frame": 71 },
      { "start_frame": 120, "end_frame": 143 }
    ]
  },
  "flat-fade.mp4": {
    "frames": 240,
    "cuts": [48, 144],
    "gradual": [{ "start_frame": 156, "end_frame": 227 }],
    "static": [48, 143]
  },
  "vfr.mp4": {
    "frames": 212,
    "cuts": [60, 87, 170],
    "cut_times": [3.75, 6.0, 8.75],
    "gradual": []
  }
}
EOF
ls -la "$OUT"
