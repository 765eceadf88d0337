import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './server-process.js';

const emptyHome = mkdtempSync(join(tmpdir(), 'keepsake-home-'));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `keepsake <args>` as a process with only the given client settings in its environment. */
export function keepsake(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<CliResult> {
  // An empty HOME: no profile file of the machine's user leaks into a test.
  const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: emptyHome, ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: clean, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
