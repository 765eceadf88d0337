import type { ApiClient } from './http.js';
import type { Io } from './output.js';

/** What one client command gets: the API, where to write, its arguments. */
export interface Run {
  api: ApiClient;
  io: Io;
  args: string[];
  /** The whole of standard input (for `--text -`). */
  stdin(): Promise<string>;
}

export interface Command {
  usage: string;
  run(run: Run): Promise<void>;
}

export type CommandGroup = Record<string, Command>;
