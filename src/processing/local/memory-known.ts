import { type ContentKey, memoryKey, sameIntent } from './similarity.js';
import { FUNCTION_WORDS } from './vocabulary.js';

/** Content words of a memory, for the cheap first comparison of KnownMemories. */
function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}']+/u)
      .filter((word) => word.length > 2 && word !== 'user' && !FUNCTION_WORDS.has(word)),
  );
}

/** Existing memories, parsed lazily: only those sharing a word with a new fact are compared in depth. */
export class KnownMemories {
  private readonly entries: Array<{ content: string; words: Set<string>; key?: ContentKey }>;

  constructor(existing: ReadonlyArray<{ content: string }>) {
    this.entries = existing.map((memory) => ({ content: memory.content, words: wordsOf(memory.content) }));
  }

  has(content: string): boolean {
    const words = wordsOf(content);
    const key = memoryKey(content);
    return this.entries.some((entry) => {
      if (![...words].some((word) => entry.words.has(word))) return false;
      entry.key ??= memoryKey(entry.content);
      return sameIntent(entry.key, key);
    });
  }

  add(content: string): void {
    this.entries.push({ content, words: wordsOf(content) });
  }
}
