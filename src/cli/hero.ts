/** `kfbench hero …`: the HeroFrame benchmark, one file per part of it. */
import type { Command } from 'commander';
import { registerHeroBuild } from './hero-build.js';
import { registerHeroDataset } from './hero-dataset.js';
import { registerHeroEvaluate } from './hero-evaluate.js';
import { registerHeroInit } from './hero-init.js';
import { registerHeroPrompt } from './hero-prompt.js';
import { registerHeroReaders } from './hero-readers.js';
import { registerHeroTrack } from './hero-track.js';
import type { CliImpls } from './impls.js';

export function registerHero(hero: Command, impls: CliImpls): void {
  registerHeroInit(hero);
  registerHeroDataset(hero);
  registerHeroTrack(hero, impls);
  registerHeroReaders(hero, impls);
  registerHeroBuild(hero, impls);
  registerHeroEvaluate(hero, impls);
  registerHeroPrompt(hero);
}
