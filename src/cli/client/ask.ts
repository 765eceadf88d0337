import type { AskAnswer } from '../../domain/ask/service.js';
import { UsageError } from '../usage.js';
import { int, parse, str } from './args.js';
import type { Command } from './command.js';
import { json, shortTime } from './output.js';

/** The answer, then its sources numbered as the answer cites them. */
function render(result: AskAnswer): string {
  const sources = result.sources.map((s, i) => `  [${i + 1}] ${shortTime(s.created_at)}  ${s.title}  (${s.id})`);
  return `${result.answer}\n${sources.length > 0 ? `\nSources:\n${sources.join('\n')}\n` : ''}`;
}

export const askCommand: Command = {
  usage: 'ask QUESTION… [--limit 1-10] [--timezone ZONE] [--json]   (QUESTION "-" reads standard input)',
  async run({ api, io, args, stdin }) {
    const { values, positionals } = parse(args, { limit: { type: 'string' }, timezone: { type: 'string' } });
    const typed = positionals.join(' ');
    const question = (typed === '-' ? await stdin() : typed).trim();
    if (!question) throw new UsageError('a question is required, e.g. keepsake ask "what did I promise Maria?"');
    const body = {
      question,
      limit: int(values, 'limit', 1, 10),
      // Relative dates ("yesterday") mean this machine's days unless told otherwise.
      timezone: str(values, 'timezone') ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    };
    const result = await api.json<AskAnswer>('POST', '/v1/dev/user/ask', { body });
    io.stdout.write(values.json ? json(result) : render(result));
  },
};
