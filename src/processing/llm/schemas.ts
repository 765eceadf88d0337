import { type Static, type TSchema, Type } from 'typebox';
import {
  CONVERSATION_CATEGORIES,
  type ConversationCategory,
  EXTRACTABLE_MEMORY_CATEGORIES,
} from '../../domain/categories.js';

/**
 * The answers each step asks of the model, written once: sent as the json_schema response format
 * (OpenAI strict mode: every property required, no extra properties) and used to validate replies.
 * Lengths and counts are not in the schemas (strict mode rejects maxLength, and a fifth memory should be
 * dropped, not fail the step); they are clamped after validation.
 */

function stringEnum<T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values] });
}

const closed = { additionalProperties: false } as const;

export const RelevanceAnswer = Type.Object({ discard: Type.Boolean() }, closed);

export const StructureAnswer = Type.Object(
  {
    title: Type.String(),
    overview: Type.String(),
    emoji: Type.String(),
    category: stringEnum<ConversationCategory>(CONVERSATION_CATEGORIES),
    events: Type.Array(
      Type.Object(
        { title: Type.String(), description: Type.String(), start: Type.String(), duration: Type.Integer() },
        closed,
      ),
    ),
  },
  closed,
);

export const ActionItemsAnswer = Type.Object(
  {
    action_items: Type.Array(
      Type.Object({ description: Type.String(), due_at: Type.Union([Type.String(), Type.Null()]) }, closed),
    ),
  },
  closed,
);

export const MemoriesAnswer = Type.Object(
  {
    memories: Type.Array(
      Type.Object(
        {
          content: Type.String(),
          category: stringEnum(EXTRACTABLE_MEMORY_CATEGORIES),
          tags: Type.Array(Type.String()),
        },
        closed,
      ),
    ),
  },
  closed,
);

export type RelevanceAnswer = Static<typeof RelevanceAnswer>;
export type StructureAnswer = Static<typeof StructureAnswer>;
export type ActionItemsAnswer = Static<typeof ActionItemsAnswer>;
export type MemoriesAnswer = Static<typeof MemoriesAnswer>;

/** A schema and the name it is sent under (the name must match ^[a-zA-Z0-9_-]+$). */
export interface NamedSchema<T extends TSchema> {
  name: string;
  schema: T;
}

export const SCHEMAS = {
  relevance: { name: 'relevance', schema: RelevanceAnswer },
  structure: { name: 'structure', schema: StructureAnswer },
  actionItems: { name: 'action_items', schema: ActionItemsAnswer },
  memories: { name: 'memories', schema: MemoriesAnswer },
} as const;
