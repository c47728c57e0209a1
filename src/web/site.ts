/**
 * The viewer's pages and the files they point at, shared by the server and the static export.
 * Every URL a page writes is relative and flat (`film-<id>.html`, `files/<root>/<path>`,
 * `derived/<hash>.jpg`), so the same HTML works served and opened from disk. Derived media (frames,
 * proxies) can only be requested under names a rendered page produced. Files are served from an
 * allow-list built at start from the loaded data — the stills of the chains, rubrics and
 * insertions, the track frames of the insertions, the keyframe images of the cases, the videos of
 * the models — never a whole folder: anything else there (a dotfile, a key, the cases file) is a 404.
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PROMPT_MODES, type PromptMode, videoPath } from '../compass/cases/cases.js';
import { loadViewerData } from './data.js';
import { type Derived, MediaCache, type ProxyMode } from './media.js';
import { casePageName, filmPageName } from './page-names.js';
import { Roots } from './roots.js';
import { hasVideo, type ViewerData, type ViewerInputs } from './view-types.js';

export type RootName = 'images' | 'track' | 'keyframes' | 'videos';
export const ROOT_NAMES: RootName[] = ['images', 'track', 'keyframes', 'videos'];

export interface VideoSource {
  url: string;
  type: string;
  proxy: boolean;
  codec: string;
}

export class Site {
  readonly roots = new Roots();
  private readonly derived = new Map<string, Derived>();
  /** Files the rendered pages pointed at, by URL (for the export). */
  readonly used = new Map<string, { root: RootName; rel: string }>();
  /** The files each root may serve (paths relative to it, "/"-separated), from the loaded data. */
  private readonly allowed = new Map<RootName, Set<string>>(ROOT_NAMES.map((r) => [r, new Set<string>()]));

  constructor(
    readonly data: ViewerData,
    readonly media: MediaCache,
  ) {
    if (data.hero) {
      this.roots.add('images', join(data.hero.data, 'images'));
      this.roots.add('track', data.hero.track);
    }
    if (data.compass) {
      this.roots.add('keyframes', data.compass.casesDir);
      this.roots.add('videos', data.compass.videos);
    }
    this.allowData(data);
  }

  private allow(root: RootName, rel: string): void {
    this.allowed.get(root)!.add(rel);
  }

  /** The allow-list: every file a page can point at, named by the loaded data. */
  private allowData(data: ViewerData): void {
    const hero = data.hero;
    if (hero) {
      const still = (film: string, id: string | undefined) => id && this.allow('images', `${film}/${id}.jpg`);
      for (const [film, fc] of hero.chains)
        for (const c of fc.chains) {
          for (const id of c.order) still(film, id);
          for (const im of c.images) still(film, im.image_id);
          for (const p of c.pairs) {
            still(film, p.a);
            still(film, p.b);
          }
        }
      for (const [film, r] of hero.rubrics)
        for (const c of r.criteria) for (const id of c.source_pair) still(film, id);
      for (const [film, ps] of hero.proposals)
        for (const p of ps) for (const id of p.source_pair) still(film, id);
      for (const res of hero.results)
        for (const [film, rows] of res.insertions)
          for (const r of rows) {
            if (typeof r.frame === 'number') this.allow('track', `${film}/${r.frame}.jpg`);
            else still(film, r.frame);
            for (const v of r.verdicts ?? []) still(film, v.against);
          }
    }
    const c = data.compass;
    if (c) {
      for (const k of c.cases)
        for (const kf of k.keyframes) {
          const rel = relative(c.casesDir, kf.image);
          if (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
            this.allow('keyframes', rel.split(sep).join('/'));
        }
      for (const k of c.cases)
        for (const mode of PROMPT_MODES)
          for (const model of c.models)
            if (hasVideo(c, k.case_id, model, mode))
              this.allow('videos', `${model}/${k.case_id}__${mode}.mp4`);
    }
  }

  /**
   * The real path of `rel` in root `name` when the allow-list names it and it is a regular file
   * inside the root (no dotfile, no link out of it); otherwise null (a 404).
   */
  servable(name: RootName, rel: string): string | null {
    if (!this.allowed.get(name)?.has(rel)) return null;
    if (rel.split('/').some((p) => p.startsWith('.'))) return null;
    return this.roots.resolve(name, rel);
  }

  /** URL of a file inside a root (`rel` uses "/"). */
  file(root: RootName, rel: string): string {
    const url = `files/${root}/${rel.split('/').map(encodeURIComponent).join('/')}`;
    this.used.set(url, { root, rel });
    return url;
  }

  /** URL of a frame of a video at `t` seconds, `width` px wide. */
  frame(video: string, t: number, width = 240): string {
    return this.derive({ kind: 'frame', video, t: Math.max(0, t), width });
  }

  private derive(d: Derived): string {
    const name = this.media.name(d);
    this.derived.set(name, d);
    return `derived/${name}`;
  }

  derivedItem(name: string): Derived | undefined {
    return this.derived.get(name);
  }

  derivedItems(): [string, Derived][] {
    return [...this.derived];
  }

  /** The video of a model for a case and mode: the file itself, or a WebM proxy. */
  async video(model: string, caseId: string, mode: PromptMode): Promise<VideoSource | undefined> {
    const dir = this.data.compass?.videos;
    if (!dir) return undefined;
    const abs = videoPath(dir, model, caseId, mode);
    const rel = `${model}/${caseId}__${mode}.mp4`;
    if (!this.roots.resolve('videos', rel)) return undefined;
    const p = await this.media.needsProxy(abs);
    if (p.proxy)
      return {
        url: this.derive({ kind: 'proxy', video: abs, hasAudio: p.hasAudio }),
        type: 'video/webm',
        proxy: true,
        codec: p.codec,
      };
    return { url: this.file('videos', rel), type: 'video/mp4', proxy: false, codec: p.codec };
  }

  /** Every page name (for the export and the tests). */
  pages(): string[] {
    const out = ['index.html'];
    for (const id of [...(this.data.hero?.chains.keys() ?? [])].sort()) out.push(filmPageName(id));
    const c = this.data.compass;
    if (c)
      for (const k of c.cases) {
        out.push(casePageName(k.case_id));
        for (const mode of PROMPT_MODES)
          for (const model of c.models)
            if (hasVideo(c, k.case_id, model, mode)) out.push(casePageName(k.case_id, mode, model));
      }
    return out;
  }
}

/** The viewer's site from its inputs: their data loaded (what is wrong in them as `problems`), frames and proxies cached under `cacheDir`. */
export async function openSite(i: ViewerInputs, o: { cacheDir: string; proxy: ProxyMode }): Promise<Site> {
  return new Site(await loadViewerData(i), new MediaCache(resolve(o.cacheDir), o.proxy));
}
