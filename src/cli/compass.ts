/** `kfbench compass …`: the Compass benchmark, one file per part of it. */
import type { Command } from 'commander';
import { registerCompassCheck } from './compass-check.js';
import { registerCompassEvaluate } from './compass-evaluate.js';
import { registerCompassInit } from './compass-init.js';
import { registerCompassMini } from './compass-mini.js';
import { registerCompassReport } from './compass-report.js';
import { registerCompassResponse } from './compass-response.js';
import { type CliImpls, LIBRARY } from './impls.js';

export function registerCompass(program: Command, impls: CliImpls = LIBRARY): void {
  const compass = program.command('compass').description('Compass: keyframe-conditioned video generation');
  registerCompassInit(compass);
  registerCompassResponse(compass, impls);
  registerCompassCheck(compass);
  registerCompassEvaluate(compass, impls);
  registerCompassMini(compass);
  registerCompassReport(compass);
}
