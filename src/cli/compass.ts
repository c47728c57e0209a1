/** `kfbench compass …`: the Compass benchmark, one file per part of it. */
import type { Command } from 'commander';
import { registerCompassCheck } from './compass-check.js';
import { registerCompassEvaluate } from './compass-evaluate.js';
import { registerCompassInit } from './compass-init.js';
import { registerCompassMini } from './compass-mini.js';
import { registerCompassReport } from './compass-report.js';
import { registerCompassResponse } from './compass-response.js';
import type { CliImpls } from './impls.js';

export function registerCompass(compass: Command, impls: CliImpls): void {
  registerCompassInit(compass);
  registerCompassResponse(compass, impls);
  registerCompassCheck(compass);
  registerCompassEvaluate(compass, impls);
  registerCompassMini(compass);
  registerCompassReport(compass);
}
