import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationCategory } from '../src/domain/categories.js';
import type { ExistingActionItem, TranscriptInput } from '../src/processing/engine.js';

/** The labels a careful reader wrote for one transcript, before any engine ran on it. */
export interface CaseLabels {
  discard: boolean;
  category: ConversationCategory;
  action_items: Array<{ keywords: string[]; due?: string }>;
  memories: Array<{ keywords: string[] }>;
  events: Array<{ keywords: string[] }>;
}

interface RawCase {
  id: string;
  kind: 'dialogue' | 'monologue' | 'memo';
  started_at: string;
  timezone: string;
  user_name?: string;
  language?: string;
  text?: string;
  segments?: Array<{ speaker: string; is_user: boolean; text: string }>;
  recent?: Array<{ description: string; created_at: string; due_at: string | null }>;
  labels: CaseLabels;
}

export interface EvalCase {
  id: string;
  kind: RawCase['kind'];
  input: TranscriptInput;
  recent: ExistingActionItem[];
  labels: CaseLabels;
}

const TRANSCRIPTS_DIR = join(import.meta.dirname, 'transcripts');
// Speech runs at roughly 2.5 words a second; segment times only need to be plausible and ordered.
const WORDS_PER_SECOND = 2.5;

function segmentsOf(raw: RawCase): TranscriptInput['segments'] {
  let clock = 0;
  return (raw.segments ?? []).map((segment) => {
    const seconds = Math.max(1, segment.text.split(/\s+/).length / WORDS_PER_SECOND);
    const timed = {
      text: segment.text,
      speaker: segment.speaker,
      isUser: segment.is_user,
      start: clock,
      end: clock + seconds,
    };
    clock += seconds + 0.4;
    return timed;
  });
}

function toCase(raw: RawCase): EvalCase {
  const segments = segmentsOf(raw);
  const text = segments.length > 0 ? segments.map((s) => `${s.speaker}: ${s.text}`).join('\n') : (raw.text ?? '');
  const input: TranscriptInput = {
    text,
    segments,
    startedAt: new Date(raw.started_at),
    timezone: raw.timezone,
    language: raw.language ?? 'en',
    userName: raw.user_name ?? 'Alex',
  };
  const recent = (raw.recent ?? []).map((item, index) => ({
    id: `recent-${index}`,
    description: item.description,
    dueAt: item.due_at === null ? null : new Date(item.due_at),
    createdAt: new Date(item.created_at),
  }));
  return { id: raw.id, kind: raw.kind, input, recent, labels: raw.labels };
}

/** Every labeled transcript under eval/transcripts, in file and then list order. */
export function loadDataset(dir = TRANSCRIPTS_DIR): EvalCase[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as RawCase[]).map(toCase));
}
