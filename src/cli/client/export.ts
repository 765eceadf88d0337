import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { parse, str } from './args.js';
import type { Command } from './command.js';
import { ClientError, EXIT } from './errors.js';
import type { Io } from './output.js';

const PROGRESS_MS = 500;

/** Counts records by type and reports them on stderr while the export streams (docs/cli.md). */
class Progress {
  readonly counts = new Map<string, number>();
  private lastReport = 0;

  constructor(private readonly io: Io) {}

  count(type: string): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
    const now = Date.now();
    if (now - this.lastReport >= PROGRESS_MS) {
      this.lastReport = now;
      this.report(false);
    }
  }

  summary(): string {
    const parts = [...this.counts].filter(([t]) => t !== 'export' && t !== 'end').map(([t, n]) => `${n} ${t}`);
    return parts.length > 0 ? parts.join(', ') : 'nothing yet';
  }

  report(final: boolean): void {
    const text = `${final ? 'export complete' : 'exporting'}: ${this.summary()}`;
    // A terminal gets one line rewritten in place; a log file gets one line per report.
    if (this.io.stderr.isTTY) this.io.stderr.write(`\r\x1b[K${text}${final ? '\n' : ''}`);
    else this.io.stderr.write(`${text}\n`);
  }
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    yield* parts.filter((line) => line.trim() !== '');
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield pending;
}

/** `keepsake export [--output FILE]`: the NDJSON export, to a file or stdout, with progress on stderr. */
export const exportCommand: Command = {
  usage: 'export [--output FILE]',
  async run({ api, io, args }) {
    const { values } = parse(args, { output: { type: 'string', short: 'o' } });
    const output = str(values, 'output');
    const response = await api.request('GET', '/v1/dev/user/export');
    if (!response.body) throw new ClientError(EXIT.other, 'the server sent an empty export');
    const file = output ? createWriteStream(output) : null;
    const write = async (text: string) => {
      if (file) {
        if (!file.write(text)) await once(file, 'drain');
      } else io.stdout.write(text);
    };
    const progress = new Progress(io);
    let ended = false;
    for await (const line of lines(response.body)) {
      const type = (JSON.parse(line) as { type?: unknown }).type;
      progress.count(typeof type === 'string' ? type : 'record');
      ended = type === 'end';
      await write(`${line}\n`);
    }
    if (file)
      await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (!ended) throw new ClientError(EXIT.other, `the export stopped early (${progress.summary()})`);
    progress.report(true);
  },
};
