import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import {
  DownloadError,
  downloadFile,
  downloadSttModel,
  RECOMMENDED_SPEAKER,
  RECOMMENDED_STT,
} from '../providers/models/download.js';
import { terminalProgress } from './progress.js';
import { UsageError } from './usage.js';

/**
 * `keepsake models download [--dir DIR] [--url URL] [--sha256 HEX] [--speaker] [--speaker-url URL]`:
 * prints one JSON object (the paths to put in STT_MODEL_DIR / SPEAKER_MODEL) or one error line.
 */
export async function runModels(config: Config, args: string[]): Promise<number> {
  const [verb, ...rest] = args;
  if (verb !== 'download') throw new UsageError(`unknown models command "${verb ?? ''}"`);
  const { values } = parseOptions(rest);
  const dir = values.dir ?? (config.dataDir === ':memory:' ? null : join(config.dataDir, 'models'));
  if (!dir) throw new UsageError('--dir is required when DATA_DIR is :memory:');
  for (const [name, value] of [
    ['url', values.url],
    ['speaker-url', values['speaker-url']],
  ] as const) {
    if (value !== undefined && !/^https?:\/\//.test(value)) throw new UsageError(`--${name} must be an http(s) URL`);
  }
  const sttProgress = terminalProgress('speech model');
  try {
    const stt = await downloadSttModel(
      values.url
        ? { url: values.url, sha256: values.sha256 ?? null }
        : { ...RECOMMENDED_STT, sha256: values.sha256 ?? RECOMMENDED_STT.sha256 },
      dir,
      sttProgress.report,
    );
    sttProgress.end();
    const result: Record<string, unknown> = {
      stt_model_dir: stt.dir,
      stt_files: stt.files,
      bytes: stt.bytes,
      sha256: stt.sha256,
    };
    if (values.speaker || values['speaker-url']) {
      const source = values['speaker-url']
        ? { url: values['speaker-url'], sha256: values['speaker-sha256'] ?? null }
        : RECOMMENDED_SPEAKER;
      const file = join(dir, new URL(source.url).pathname.split('/').pop() || 'speaker.onnx');
      const speakerProgress = terminalProgress('speaker model');
      const speaker = await downloadFile(source, file, speakerProgress.report);
      speakerProgress.end();
      result.speaker_model = speaker.path;
      result.speaker_sha256 = speaker.sha256;
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    sttProgress.end();
    if (!(err instanceof DownloadError)) throw err;
    process.stderr.write(`keepsake: models download failed: ${err.message}\n`);
    return 1;
  }
}

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        dir: { type: 'string' },
        url: { type: 'string' },
        sha256: { type: 'string' },
        speaker: { type: 'boolean' },
        'speaker-url': { type: 'string' },
        'speaker-sha256': { type: 'string' },
      },
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
