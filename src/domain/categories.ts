// SPEC §2.1: the 33 conversation categories.
export const CONVERSATION_CATEGORIES = [
  'personal',
  'education',
  'health',
  'finance',
  'legal',
  'philosophy',
  'spiritual',
  'science',
  'entrepreneurship',
  'parenting',
  'romantic',
  'travel',
  'inspiration',
  'technology',
  'business',
  'social',
  'work',
  'sports',
  'politics',
  'literature',
  'history',
  'architecture',
  'music',
  'weather',
  'news',
  'entertainment',
  'psychology',
  'real',
  'design',
  'family',
  'economics',
  'environment',
  'other',
] as const;
export type ConversationCategory = (typeof CONVERSATION_CATEGORIES)[number];

/** The memory categories extraction may assign (the rest are set by the system or by hand). */
export const EXTRACTABLE_MEMORY_CATEGORIES = [
  'core',
  'hobbies',
  'lifestyle',
  'interests',
  'habits',
  'work',
  'skills',
  'learnings',
  'other',
] as const;

// SPEC §2.4: memory categories known to the command-line client.
export const MEMORY_CATEGORIES = [...EXTRACTABLE_MEMORY_CATEGORIES, 'system', 'interesting', 'manual'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
