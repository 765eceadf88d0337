import type { Config } from '../../config.js';
import { DeepgramProvider } from './deepgram.js';
import { OpenAiTranscriptionProvider } from './openai.js';
import { PocketsphinxProvider } from './pocketsphinx.js';
import type { SttProvider } from './port.js';

export interface SttChoice {
  provider: SttProvider | null;
  /** Why no provider serves the stream (reported in service_status), null when one does. */
  reason: string | null;
}

/**
 * DESIGN §6: STT_PROVIDER=auto picks Deepgram (key set) → OpenAI-compatible (STT_BASE_URL) →
 * sherpa-onnx (STT_MODEL_DIR) → pocketsphinx (installed); an explicit name uses only that one.
 */
export function chooseSttProvider(stt: Config['stt'], pocketsphinxInstalled: () => boolean): SttChoice {
  const candidates: Record<Exclude<Config['stt']['provider'], 'auto' | 'none'>, () => SttChoice> = {
    deepgram: () =>
      stt.deepgramApiKey
        ? { provider: new DeepgramProvider(stt.deepgramApiKey, stt.deepgramUrl), reason: null }
        : { provider: null, reason: 'deepgram_not_configured' },
    openai: () =>
      stt.baseUrl
        ? { provider: new OpenAiTranscriptionProvider(stt.baseUrl, stt.apiKey), reason: null }
        : { provider: null, reason: 'stt_base_url_not_configured' },
    // sherpa-onnx-node is not installed in this build (see docs/listen.md).
    sherpa: () => ({ provider: null, reason: 'sherpa_onnx_not_available' }),
    pocketsphinx: () =>
      pocketsphinxInstalled()
        ? { provider: new PocketsphinxProvider(), reason: null }
        : { provider: null, reason: 'pocketsphinx_not_installed' },
  };
  if (stt.provider === 'none') return { provider: null, reason: 'stt_disabled' };
  if (stt.provider !== 'auto') return candidates[stt.provider]();
  for (const name of ['deepgram', 'openai', 'sherpa', 'pocketsphinx'] as const) {
    const choice = candidates[name]();
    if (choice.provider) return choice;
  }
  return { provider: null, reason: 'no_stt_provider_available' };
}
