/** `local:READER.json`: the embedded reader fitted by `hero fit-reader` (../local.ts); no server. */
import { LocalBackend } from '../local.js';
import { type JudgeBackendFactory, restOfJudgeSpec } from './factory.js';

export interface LocalSpec {
  kind: 'local';
  path: string;
}

export const localJudge: JudgeBackendFactory<LocalSpec> = {
  prefix: 'local',
  form: 'local:READER.json',
  example: 'local:reader.json',
  help: 'the embedded reader fitted by `hero fit-reader`: no server, deterministic',
  parse(spec) {
    return { kind: 'local', path: restOfJudgeSpec(this, spec) };
  },
  open(spec) {
    return LocalBackend.open(spec.path);
  },
};
