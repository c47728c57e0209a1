/**
 * Whether a Compass number is on the paper's scale, said wherever it is shown (issue 54 item 1).
 * The seed's keyframe matching uses "L2-normalized DINOv3 features" with "deployed γ⋆ = 0.80"
 * (App. B); kfbench's default embedder is `builtin` (a small hand-made descriptor that needs no
 * download, γ 0.76), so Keyframe Fidelity, Temporal Organization and every Overall made with it are
 * not the paper's. `--embedder dinov3-small` (src/embed/registry.ts: the ViT-S/16 DINOv3, the
 * paper names no size) gives the paper's features. Why builtin stays the default:
 * docs/compass.md, "The embedder by default".
 */

/** The alias of the paper's features (src/embed/registry.ts). */
const PAPER_EMBEDDER = 'dinov3-small';

/** The embedder's id is a DINOv3 model (the paper's features; the size is kfbench's choice). */
function isPaperEmbedder(embedderId: string): boolean {
  return /dinov3/i.test(embedderId);
}

/**
 * The notice shown beside a number made with an embedder that is not the paper's (undefined for a
 * DINOv3 one): which embedder, that the numbers are not on the paper's scale, and the flag that is.
 */
export function embedderNotice(embedderId: string): string | undefined {
  if (!embedderId || isPaperEmbedder(embedderId)) return undefined;
  return `embedder ${embedderId} is not the paper's (L2-normalized DINOv3 features, γ⋆ = 0.80): Keyframe Fidelity, Temporal Organization and Overall are not on the paper's scale; --embedder ${PAPER_EMBEDDER} gives the paper's`;
}
