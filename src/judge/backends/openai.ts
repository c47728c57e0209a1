/**
 * `openai:MODEL@BASE_URL`: any OpenAI-compatible chat-completions server (../openai.ts). MODEL is
 * everything before the last "@" that is followed by http:// or https://, so Ollama names such as
 * qwen2.5vl:7b work; more endpoints of the same model come from a repeatable --judge-url.
 */
import { RateLimiter } from '../../concurrency/rate.js';
import { checkJudgeUrl } from '../endpoints.js';
import { OpenAiBackend } from '../openai.js';
import { type JudgeBackendFactory, malformedJudgeSpec } from './factory.js';

export interface OpenAiSpec {
  kind: 'openai';
  model: string;
  url: string;
}

export const openaiJudge: JudgeBackendFactory<OpenAiSpec> = {
  prefix: 'openai',
  form: 'openai:MODEL@BASE_URL',
  example: 'openai:qwen2.5vl:7b@http://127.0.0.1:11434/v1',
  help: 'an OpenAI-compatible chat-completions server (vLLM, SGLang, Ollama, llama.cpp, a hosted API)',
  parse(spec) {
    const m = /^openai:(.+)@(https?:\/\/\S+)$/.exec(spec);
    if (!m?.[1] || !m[2]) throw malformedJudgeSpec(this, spec);
    return { kind: 'openai', model: m[1], url: checkJudgeUrl(m[2], 'the --judge URL') };
  },
  async open(spec, env) {
    const s = env.settings;
    for (const u of s.extraUrls) checkJudgeUrl(u, '--judge-url');
    return new OpenAiBackend({
      model: spec.model,
      baseUrls: [spec.url, ...s.extraUrls.filter((u) => u !== spec.url)],
      apiKey: s.apiKey,
      concurrency: s.concurrency,
      limiter: new RateLimiter({ rpm: s.rpm, tpm: s.tpm }),
      timeoutMs: s.timeoutMs,
      maxRetries: s.maxRetries,
      maxRetryWaitMs: s.maxRetryWaitMs,
      onProgress: env.onProgress,
      ...(env.backoffBaseMs !== undefined ? { backoffBaseMs: env.backoffBaseMs } : {}),
      ...(env.restMs !== undefined ? { restMs: env.restMs } : {}),
    });
  },
};
