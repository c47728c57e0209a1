/** What a probe says of a video: the types every reader of a probe shares. */

export interface Rational {
  num: number;
  den: number;
}

export interface VideoInfo {
  file: string;
  duration_s: number;
  fps: number;
  fpsRational: Rational;
  frames: number;
  /** Displayed size: the coded size turned by the display matrix (see `rotation`). */
  width: number;
  height: number;
  has_audio: boolean;
  /** Frame durations vary (from the packets' presentation timestamps). */
  vfr: boolean;
  /** frames / duration: the real mean rate (= fps for a constant-rate file). */
  mean_fps: number;
  /** Degrees the display matrix turns the coded frames (0, 90, 180, 270); ffmpeg decodes them turned. */
  rotation: number;
  /** The stream's colour matrix as ffprobe names it (`bt709` …); absent when the file does not say. */
  color_space?: string | undefined;
  /** The decoder's pixel format (`yuv420p` …) as ffprobe names it. */
  pix_fmt?: string | undefined;
  /** Coded interlaced (as fields): every reader deinterlaces its frames (`decodeChain`). */
  interlaced?: boolean | undefined;
  /**
   * ffprobe's index of the stream described here, when it is not the file's first video stream
   * (cover art or a still picture comes first): every decoder maps this one (`videoStream`).
   */
  stream?: number | undefined;
  /**
   * Variable-rate files only: start of each frame's display interval (seconds from the first
   * frame), in decode order. Absent for constant-rate files, whose frame n starts at n/fps.
   */
  times?: Float64Array | undefined;
  /**
   * The file is cut short: its container lists `frames` frames but only `packets` packets of the
   * video stream could be read (the last may be partial). `frames` stays the container's count;
   * decoding the file fails past the cut (`countDecodableFrames` says how far it gets).
   */
  truncated?: { packets: number } | undefined;
  /**
   * The stream begins where no decoder can start (a capture from the middle of a broadcast: see
   * mid-stream.ts): `frames` and the times are those of the frames that decode; `dropped` packets
   * gave no frame, `concealed` frames were reported concealed by the decoder.
   */
  decoding?: { dropped: number; concealed: number } | undefined;
  /**
   * Some packets of the video stream carry no presentation timestamp (an AVI with B-frames: its
   * frames are timed from decoding order, the first shown a frame late): a seek by time cannot be
   * trusted to land on a numbered frame, so a window is read from the start (window.ts).
   */
  untimed?: true | undefined;
}
