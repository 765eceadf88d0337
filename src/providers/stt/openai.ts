import { pcm16ToWav } from '../audio/wav.js';
import type { VadFactory } from '../vad/port.js';
import type { SttCallbacks, SttOpenOptions, SttProvider, SttSession } from './port.js';
import { UtteranceSession } from './utterances.js';

const NAME = 'openai';
const TIMEOUT_MS = 60_000;

/**
 * Any OpenAI-compatible transcription server (`STT_BASE_URL`): each VAD-cut utterance is posted as
 * a WAV file to /v1/audio/transcriptions.
 */
export class OpenAiTranscriptionProvider implements SttProvider {
  readonly name = NAME;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | null,
    private readonly vad?: VadFactory,
    private readonly model = 'whisper-1',
  ) {}

  async open(options: SttOpenOptions, callbacks: SttCallbacks): Promise<SttSession> {
    return new UtteranceSession(NAME, (pcm) => this.transcribe(pcm, options), callbacks, this.vad);
  }

  private async transcribe(pcm: Buffer, options: SttOpenOptions): Promise<string> {
    const form = new FormData();
    form.set(
      'file',
      new Blob([new Uint8Array(pcm16ToWav(pcm, options.sampleRate))], { type: 'audio/wav' }),
      'utterance.wav',
    );
    form.set('model', this.model);
    form.set('response_format', 'json');
    if (options.language !== 'multi' && options.language !== 'auto') form.set('language', options.language);
    // STT_BASE_URL may name the server root or its /v1 prefix, as OpenAI clients accept both.
    const base = this.baseUrl.replace(/\/+$/, '');
    const url = `${base}${base.endsWith('/v1') ? '' : '/v1'}/audio/transcriptions`;
    const response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`transcription server answered HTTP ${response.status}`);
    const body: unknown = await response.json();
    const text = typeof body === 'object' && body !== null ? (body as { text?: unknown }).text : undefined;
    if (typeof text !== 'string') throw new Error('transcription response has no text');
    return text;
  }
}
