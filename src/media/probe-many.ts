/** Probing many short files (clips) through one ffmpeg process per batch. */
import { ffmpegLog } from './ffmpeg.js';
import { probe } from './probe.js';
import { parseRational } from './probe-listing.js';
import { displayRotation } from './timeline.js';
import type { VideoInfo } from './video-info.js';

/**
 * Probe many files with one ffmpeg process per `batch` files (a process start costs ~90 ms; over
 * LSMDC's 128k clips one ffprobe each would add hours). Exact frame rates come from `showinfo`'s
 * link configuration; size, audio and duration from ffmpeg's input summary. The frame count is
 * estimated as round(duration·fps) (`frames` is exact only from `probe`); readers that select
 * frames verify that what they planned was decoded. A file ffmpeg cannot open fails the batch,
 * which is then probed file by file so that the error names the file. A file whose mean rate
 * differs from its base rate (ffmpeg's `fps` against `tbr`: a variable frame rate) is probed
 * alone with `probe`, which reads its timestamps.
 */
export async function probeMany(files: string[], batch = 64): Promise<VideoInfo[]> {
  const out: VideoInfo[] = [];
  for (let s = 0; s < files.length; s += batch) {
    const group = files.slice(s, s + batch);
    if (group.length === 1) {
      out.push(await probe(group[0]!));
      continue;
    }
    let log: string;
    try {
      const args: string[] = [];
      for (const f of group) args.push('-threads', '1', '-i', f);
      const graph = group.map((_, j) => `[${j}:v:0]trim=end_frame=1,showinfo@in${j}[o${j}]`).join(';');
      args.push('-filter_complex', graph);
      for (let j = 0; j < group.length; j++) args.push('-map', `[o${j}]`);
      args.push('-frames:v', '1', '-f', 'null', '-');
      log = await ffmpegLog(args, group.join(', '));
    } catch {
      for (const f of group) out.push(await probe(f));
      continue;
    }
    const parsed = parseProbeLog(log, group);
    for (let j = 0; j < group.length; j++) out.push(parsed[j] ?? (await probe(group[j]!)));
  }
  return out;
}

function parseProbeLog(log: string, files: string[]): (VideoInfo | undefined)[] {
  const lines = log.split('\n');
  const res: (VideoInfo | undefined)[] = [];
  for (let j = 0; j < files.length; j++) {
    const file = files[j]!;
    const start = lines.findIndex((l) => l.startsWith(`Input #${j},`));
    if (start < 0) {
      res.push(undefined);
      continue;
    }
    let end = lines.findIndex((l, k) => k > start && /^(Input #|Stream mapping|Output #|\[)/.test(l));
    if (end < 0) end = lines.length;
    const block = lines.slice(start, end);
    const dur = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(block.join('\n'));
    const video = block.find((l) => new RegExp(`Stream #${j}:\\d+.*: Video:`).test(l));
    // the displayed size: that of the first decoded frame (ffmpeg turns frames by the display matrix)
    const shown = new RegExp(`\\[showinfo@in${j} @ [^\\]]+\\] n: *0 .* s:(\\d+)x(\\d+) `).exec(log);
    const size = shown ?? (video ? /, (\d+)x(\d+)[ ,]/.exec(video) : null);
    // a mean rate (fps) unlike the base rate (tbr) says the frame rate varies: probe that file alone
    const rates = video ? /, ([\d.]+)(k?) fps, ([\d.]+)(k?) tbr/.exec(video) : null;
    if (rates) {
      const avg = Number(rates[1]) * (rates[2] ? 1000 : 1);
      const base = Number(rates[3]) * (rates[4] ? 1000 : 1);
      if (Math.abs(avg - base) > 0.01 * base) {
        res.push(undefined);
        continue;
      }
    }
    const rot = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(block.join('\n'));
    const rotation = rot ? displayRotation({ tags: { rotate: rot[1]! } }) : 0;
    const has_audio = block.some((l) => new RegExp(`Stream #${j}:\\d+.*: Audio:`).test(l));
    const cfg = new RegExp(
      `\\[showinfo@in${j} @ [^\\]]+\\] config in time_base: \\d+/\\d+, frame_rate: (\\d+)/(\\d+)`,
    ).exec(log);
    const fpsRational = cfg ? parseRational(`${cfg[1]}/${cfg[2]}`) : undefined;
    if (!dur || !size || !fpsRational) {
      res.push(undefined);
      continue;
    }
    const duration_s = Number(dur[1]) * 3600 + Number(dur[2]) * 60 + Number(dur[3]);
    const fps = fpsRational.num / fpsRational.den;
    res.push({
      file,
      duration_s,
      fps,
      fpsRational,
      frames: Math.max(1, Math.round(duration_s * fps)),
      width: Number(size[1]),
      height: Number(size[2]),
      has_audio,
      vfr: false,
      mean_fps: fps,
      rotation,
    });
  }
  return res;
}
