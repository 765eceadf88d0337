import type { DownloadProgress } from '../providers/models/download.js';

const MB = 1024 * 1024;

/** "12.3 MB of 80.0 MB (15%)", or "12.3 MB" when the total is unknown. */
export function progressText(bytes: number, total: number | null): string {
  const done = `${(bytes / MB).toFixed(1)} MB`;
  if (!total) return done;
  return `${done} of ${(total / MB).toFixed(1)} MB (${Math.floor((bytes / total) * 100)}%)`;
}

/**
 * A progress line rewritten in place on a terminal (at most every 200 ms), nothing otherwise:
 * stdout keeps the one JSON result, so scripts read the same output either way.
 */
export function terminalProgress(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
): {
  report: DownloadProgress;
  end(): void;
} {
  if (!stream.isTTY) return { report: () => {}, end: () => {} };
  let last = 0;
  let shown = false;
  return {
    report(bytes, total) {
      const now = Date.now();
      if (now - last < 200 && bytes !== total) return;
      last = now;
      shown = true;
      stream.write(`\r${label}: ${progressText(bytes, total)}\u001b[K`);
    },
    end() {
      if (shown) stream.write('\n');
    },
  };
}
