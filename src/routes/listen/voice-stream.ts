import type { Services } from '../../context.js';
import type { TypedApp } from '../../http/typed-app.js';
import { parseVoiceStreamParams, VoiceStreamSession } from '../../listen/voice-stream.js';
import { admitNative, buffer } from './listen.js';

const DESCRIPTION =
  'WebSocket (push-to-talk, transcription only). Query: language, sample_rate (8000–48000), codec=linear16, ' +
  'channels=1, keywords (accepted, not used). Binary frames: PCM16 LE. Text frame `finalize`: flush and send the ' +
  'last segments. Out: JSON arrays of segments. Closes: 1008 bad parameter, audio after finalize, 60 s without ' +
  'audio, authentication; 1011 no transcription provider. See docs/listen.md.';

/** `/v2/voice-message/transcribe-stream` as the desktop clients speak it (docs/listen.md). */
export function registerVoiceStreamRoutes(app: TypedApp, ctx: Services): void {
  app.get(
    '/v2/voice-message/transcribe-stream',
    {
      websocket: true,
      schema: {
        tags: ['Listen'],
        summary: 'Push-to-talk transcription stream (Authorization: Bearer session token)',
        description: DESCRIPTION,
      },
    },
    (socket, request) => {
      const early = buffer(socket);
      void admitNative(ctx, socket, request).then((userId) => {
        if (!userId) return;
        const parsed = parseVoiceStreamParams(request.query as Record<string, string | undefined>);
        if (!parsed.ok) {
          socket.close(parsed.code, parsed.reason);
          return;
        }
        const session = new VoiceStreamSession(socket, userId, parsed.params, ctx.listen);
        void session.start(early.stop());
      });
    },
  );
}
