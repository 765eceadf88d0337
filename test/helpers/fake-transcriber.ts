import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake OpenAI-compatible transcription server received. */
export interface TranscriptionRequest {
  path: string;
  auth: string | undefined;
  /** the raw multipart body */
  body: Buffer;
  /** the PCM16 samples of the WAV file in the body (the data chunk after a 44-byte header) */
  pcm: Buffer;
}

export interface FakeTranscriber {
  /** base URL to use as STT_BASE_URL */
  url: string;
  requests: TranscriptionRequest[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible `/audio/transcriptions` server over real HTTP: it keeps every request and answers
 * `{"text": reply(n)}` for the n-th one (1-based).
 */
export async function startFakeTranscriber(reply: (n: number) => string): Promise<FakeTranscriber> {
  const requests: TranscriptionRequest[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const riff = body.indexOf('RIFF');
      const size = riff >= 0 ? body.readUInt32LE(riff + 40) : 0;
      requests.push({
        path: req.url ?? '',
        auth: req.headers.authorization,
        body,
        pcm: riff >= 0 ? body.subarray(riff + 44, riff + 44 + size) : Buffer.alloc(0),
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ text: reply(requests.length) }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
