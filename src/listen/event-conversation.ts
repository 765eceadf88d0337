import type { DeveloperConversation } from '../domain/conversations/views.js';

/**
 * The conversation inside `memory_processing_started` / `memory_created` (SPEC §6.1): the developer
 * shape plus every field of the reference's Conversation model with its default, as the app's
 * parser reads it (research/omi-listen.md §1.4). Photos, audio files and app-store fields have no
 * counterpart here and keep their empty defaults; the app reads audio through /v1/sync/audio.
 */
export function eventConversation(conversation: DeveloperConversation) {
  const segments = conversation.transcript_segments ?? [];
  return {
    ...conversation,
    transcript_segments: segments.map((s) => ({
      ...s,
      speech_profile_processed: true,
      stt_provider: null,
      translations: [],
    })),
    transcript_segments_compressed: false,
    photos: [],
    audio_files: [],
    private_cloud_sync_enabled: false,
    apps_results: conversation.apps_results,
    // The reference keeps plugins_results as a copy of apps_results for older app builds.
    plugins_results: conversation.apps_results.map((r) => ({ plugin_id: r.app_id, content: r.content })),
    suggested_summarization_apps: [],
    external_data: null,
    app_id: null,
    deleted: false,
    visibility: 'private',
    is_locked: false,
    data_protection_level: null,
    processing_memory_id: null,
    processing_conversation_id: null,
  };
}
