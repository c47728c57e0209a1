import { describe, expect, it } from 'vitest';
import { probe } from '../../src/media/probe.js';
import { detectShots } from '../../src/media/shots.js';
import { detectShotsMany } from '../../src/media/shots-many.js';
import { media, tempDir } from '../support/paths.js';
import { truncatedMp4 } from '../support/truncated.js';

describe('detectShotsMany: many clips through one decode', () => {
  it('gives each video the shots detectShots gives it alone (cuts, dissolves, fades, variable rate, turned)', async () => {
    const infos = await Promise.all(
      ['shots.mp4', 'xfade.mp4', 'fade.mp4', 'flat-fade.mp4', 'vfr.mp4', 'rotated.mp4', 'shots.mp4'].map(
        (f) => probe(media(f)),
      ),
    );
    const many = await detectShotsMany(infos);
    const alone = [];
    for (const info of infos) alone.push(await detectShots(info));
    expect(many).toEqual(alone);
    expect(many[0]!.shots.length).toBeGreaterThan(1);
  });

  it('a damaged file in the batch: the error of detectShots on that file, naming it', async () => {
    const cut = await probe((await truncatedMp4(tempDir('kfbench-shots-many-'))).cut);
    const alone = await detectShots(cut).catch((e: unknown) => e);
    expect(alone).toBeInstanceOf(Error);
    const many = await detectShotsMany([await probe(media('shots.mp4')), cut]).catch((e: unknown) => e);
    expect(many).toEqual(alone);
    expect((many as Error).message).toContain(cut.file);
  });
});
