import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationCategory } from '../src/domain/categories.js';
import type { ExistingActionItem, TranscriptInput } from '../src/processing/engine.js';

/** The labels a careful reader wrote for one transcript, before any engine ran on it. */
export interface CaseLabels {
  discard: boolean;
  /** the best category */
  category: ConversationCategory;
  /** every category a reasonable reader accepts (includes `category`); defaults to [category] */
  categories_ok?: ConversationCategory[];
  /** a good title contains at least one of these words */
  title_keywords?: string[];
  action_items: Array<{ keywords: string[]; due?: string }>;
  memories: Array<{ keywords: string[] }>;
  events: Array<{ keywords: string[]; date?: string }>;
}

/** How the transcript reaches the service: segments (with or without is_user) or one of the text forms. */
export type InputForm =
  | 'segments_is_user'
  | 'segments_diarized'
  | 'text_speaker_n'
  | 'text_speaker_nn'
  | 'text_names'
  | 'text_reference'
  | 'memo';

interface RawCase {
  id: string;
  kind?: 'dialogue' | 'monologue' | 'memo';
  form?: InputForm;
  started_at: string;
  timezone: string;
  user_name?: string;
  language?: string;
  text?: string;
  segments?: Array<{ speaker: string; is_user?: boolean; text: string }>;
  recent?: Array<{ description: string; created_at: string; due_at: string | null }>;
  labels: CaseLabels;
}

export interface EvalCase {
  id: string;
  form: InputForm;
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
      // The API's segment schema defaults is_user to false; diarized input leaves it out.
      isUser: segment.is_user ?? false,
      start: clock,
      end: clock + seconds,
    };
    clock += seconds + 0.4;
    return timed;
  });
}

/** The older cases name a kind; the form follows from how they were written. */
function formOf(raw: RawCase): InputForm {
  if (raw.form !== undefined) return raw.form;
  if (raw.segments === undefined) return 'memo';
  return raw.segments.every((segment) => segment.is_user !== undefined) ? 'segments_is_user' : 'segments_diarized';
}

/** The input exactly as the service builds it from a create request (pipeline.transcriptInput). */
function toCase(raw: RawCase): EvalCase {
  const segments = segmentsOf(raw);
  const text = segments.length > 0 ? segments.map((s) => s.text).join('\n') : (raw.text ?? '');
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
  return { id: raw.id, form: formOf(raw), input, recent, labels: raw.labels };
}

/** Every labeled transcript under eval/transcripts, in file and then list order. */
export function loadDataset(dir = TRANSCRIPTS_DIR): EvalCase[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as RawCase[]).map(toCase));
}
