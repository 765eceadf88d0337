import { UsageError } from '../usage.js';
import { actionItemCommands } from './action-items.js';
import { askCommand } from './ask.js';
import type { Command, CommandGroup } from './command.js';
import { conversationCommands } from './conversations.js';
import { ClientError, EXIT } from './errors.js';
import { exportCommand } from './export.js';
import { goalCommands } from './goals.js';
import { ApiClient } from './http.js';
import { memoryCommands } from './memories.js';
import type { Io } from './output.js';
import { loadClientSettings } from './settings.js';

/** The developer-API client commands of `keepsake` (docs/cli.md). */
export const CLIENT_GROUPS: Record<string, CommandGroup> = {
  conversations: conversationCommands,
  memories: memoryCommands,
  'action-items': actionItemCommands,
  goals: goalCommands,
};

/** Commands that are one verb, not a group. */
const SINGLE_COMMANDS: Record<string, Command> = { export: exportCommand, ask: askCommand };

export const CLIENT_COMMANDS = new Set([...Object.keys(CLIENT_GROUPS), ...Object.keys(SINGLE_COMMANDS)]);

export function clientUsage(): string {
  const lines = Object.values(CLIENT_GROUPS).flatMap((group) => Object.values(group).map((c) => `  ${c.usage}`));
  return [...lines, ...Object.values(SINGLE_COMMANDS).map((c) => `  ${c.usage}`)].join('\n');
}

/** `keepsake <group> --help` (or `-h`, `help`): that group's commands, on stdout. */
function helpFor(command: string, rest: string[]): string | null {
  if (!rest.some((a) => a === '--help' || a === '-h') && !(rest[0] === 'help' && rest.length === 1)) return null;
  const group = CLIENT_GROUPS[command];
  const lines = group ? Object.values(group).map((c) => `  ${c.usage}`) : [`  ${SINGLE_COMMANDS[command].usage}`];
  return `usage:\n${lines.join('\n')}\n\nSettings: KEEPSAKE_URL, KEEPSAKE_API_KEY or a profile file (docs/cli.md).\n`;
}

function resolve(command: string, rest: string[]): { cmd: Command; args: string[] } {
  const single = SINGLE_COMMANDS[command];
  if (single) return { cmd: single, args: rest };
  const group = CLIENT_GROUPS[command];
  const [verb, ...args] = rest;
  const cmd = verb === undefined ? undefined : group?.[verb];
  if (!cmd) {
    const verbs = Object.keys(group ?? {}).join('|');
    throw new UsageError(
      verb ? `unknown command "${command} ${verb}" (${verbs})` : `${command} needs one of: ${verbs}`,
    );
  }
  return { cmd, args };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs one client command; returns the exit code (0 ok, 2 usage, 3 auth, 4 not found, 5 rate limited, 1 other). */
export async function runClient(
  command: string,
  rest: string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const help = helpFor(command, rest);
  if (help) {
    io.stdout.write(help);
    return EXIT.ok;
  }
  try {
    const { cmd, args } = resolve(command, rest);
    const api = new ApiClient(loadClientSettings(env));
    await cmd.run({ api, io, args, stdin: readStdin });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`keepsake: ${err.message} (keepsake ${command} --help lists its commands)\n`);
      return EXIT.usage;
    }
    if (err instanceof ClientError) {
      io.stderr.write(`keepsake: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}
