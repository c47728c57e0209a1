/** The hero examples of src/cli/help.ts run as printed (test/support/examples.ts). */
import { describeExamples } from '../support/examples.js';

describeExamples('hero');
