import type { Config } from '../../config.js';
import { chooseVad } from '../vad/index.js';
import { DeepgramProvider } from './deepgram.js';
import { OpenAiTranscriptionProvider } from './openai.js';
import { PocketsphinxProvider } from './pocketsphinx.js';
import type { SttProvider } from './port.js';
import { detectSherpaModel, SherpaProvider } from './sherpa.js';

export interface SttChoice {
  provider: SttProvider | null;
  /** Why no provider serves the stream (reported in service_status), null when one does. */
  reason: string | null;
}

type Candidate = Exclude<Config['stt']['provider'], 'auto' | 'none'>;

/** One sherpa provider per model directory: the loaded model is shared by every stream. */
const sherpaProviders = new Map<string, SherpaProvider>();

function sherpaProvider(dir: string): SherpaProvider {
  let provider = sherpaProviders.get(dir);
  if (!provider) {
    provider = new SherpaProvider(dir);
    sherpaProviders.set(dir, provider);
  }
  return provider;
}

/**
 * DESIGN §6: STT_PROVIDER=auto picks Deepgram (key set) → OpenAI-compatible (STT_BASE_URL) →
 * sherpa-onnx (STT_MODEL_DIR holds a model) → pocketsphinx (installed); an explicit name uses only
 * that one, and an explicit `sherpa` with a wrong directory fails the stream with the reason.
 */
export function chooseSttProvider(stt: Config['stt'], pocketsphinxInstalled: () => boolean): SttChoice {
  const vad = () => chooseVad(stt.vad ?? 'auto').factory;
  const candidates: Record<Candidate, (auto: boolean) => SttChoice> = {
    deepgram: () =>
      stt.deepgramApiKey
        ? { provider: new DeepgramProvider(stt.deepgramApiKey, stt.deepgramUrl), reason: null }
        : { provider: null, reason: 'deepgram_not_configured' },
    openai: () =>
      stt.baseUrl
        ? { provider: new OpenAiTranscriptionProvider(stt.baseUrl, stt.apiKey, vad()), reason: null }
        : { provider: null, reason: 'stt_base_url_not_configured' },
    sherpa: (auto) => {
      if (!stt.modelDir) return { provider: null, reason: 'stt_model_dir_not_configured' };
      if (auto && !detectSherpaModel(stt.modelDir).ok) return { provider: null, reason: 'stt_model_dir_has_no_model' };
      return { provider: sherpaProvider(stt.modelDir), reason: null };
    },
    pocketsphinx: () =>
      pocketsphinxInstalled()
        ? { provider: new PocketsphinxProvider(vad()), reason: null }
        : { provider: null, reason: 'pocketsphinx_not_installed' },
  };
  if (stt.provider === 'none') return { provider: null, reason: 'stt_disabled' };
  if (stt.provider !== 'auto') return candidates[stt.provider](false);
  for (const name of ['deepgram', 'openai', 'sherpa', 'pocketsphinx'] as const) {
    const choice = candidates[name](true);
    if (choice.provider) return choice;
  }
  return { provider: null, reason: 'no_stt_provider_available' };
}

/** Which speech provider serves new streams, for the start-up banner, /readyz and the record page. */
export interface SpeechStatus {
  provider: string | null;
  /** Why none serves (the service_status reason), null when one does. */
  reason: string | null;
}

/** The ways to turn speech recognition on (README "Speech"), in one line. */
export const ENABLE_SPEECH =
  'apt-get install pocketsphinx pocketsphinx-en-us (Debian/Ubuntu), or keepsake models download, or set DEEPGRAM_API_KEY or STT_BASE_URL';

export function speechStatus(choice: SttChoice): SpeechStatus {
  return { provider: choice.provider?.name ?? null, reason: choice.reason };
}
