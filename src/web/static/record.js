// Browser recorder: microphone → AudioWorklet (16 kHz PCM16) → /v4/web/listen; renders transcript
// segments and lifecycle events as they arrive (SPEC §4.11, §6.1).
const $ = (id) => document.getElementById(id);
const ui = {
  start: $('start'),
  stop: $('stop'),
  status: $('status'),
  level: $('level'),
  transcript: $('transcript'),
  events: $('events'),
  result: $('result'),
  resultText: $('result-text'),
  resultLink: $('result-link'),
};
const SILENCE = new Uint8Array(320); // the contract's keepalive frame
let socket = null;
let audio = null;
let keepalive = null;
let current = null; // the conversation segments are being written to
const bindings = new Map(); // conversation id → { recordingSessionId, sequence, segments }
const segments = new Map();

// Rendered by the server: no speech provider, so never tell the user their words are transcribed.
const noSpeech = document.getElementById('speech')?.dataset.provider === '';
const NO_SPEECH = 'Recording, but this server has no speech recognition: audio is accepted, no transcript appears.';
const setStatus = (text) => {
  ui.status.textContent = text;
};

function logEvent(type, detail) {
  const li = document.createElement('li');
  li.dataset.type = type;
  li.textContent = `${new Date().toLocaleTimeString()} ${type}${detail ? ` — ${detail}` : ''}`;
  ui.events.append(li);
}

function showSegments(batch) {
  for (const s of batch) {
    let li = segments.get(s.id);
    if (!li) {
      li = document.createElement('li');
      li.append(document.createElement('span'), ' ', document.createElement('p'));
      li.firstChild.className = 'speaker';
      segments.set(s.id, li);
      ui.transcript.append(li);
    }
    li.firstChild.textContent = s.is_user ? 'You' : `Speaker ${s.speaker_id ?? 0}`;
    li.lastChild.textContent = s.text;
  }
  const binding = current && bindings.get(current);
  if (binding) binding.segments += batch.length;
}

/** SPEC §6.1: accept an envelope only for a known binding with a higher sequence. */
function accept(event) {
  const binding = bindings.get(event.conversation_id);
  if (!binding) return false;
  if (event.recording_session_id && event.recording_session_id !== binding.recordingSessionId) return false;
  if (typeof event.lifecycle_sequence === 'number') {
    if (event.lifecycle_sequence <= binding.sequence) return false;
    binding.sequence = event.lifecycle_sequence;
  }
  return true;
}

function showResult(event) {
  const structured = event.memory?.structured ?? {};
  ui.resultText.textContent = `${structured.emoji ?? ''} ${structured.title || 'Untitled'}: ${structured.overview ?? ''}`;
  ui.resultLink.href = `/conversations/${encodeURIComponent(event.conversation_id)}`;
  ui.result.hidden = false;
}

function onEvent(event) {
  switch (event.type) {
    case 'conversation_session':
      bindings.set(event.conversation_id, {
        recordingSessionId: event.recording_session_id,
        sequence: event.lifecycle_sequence ?? -1,
        segments: 0,
      });
      current = event.conversation_id;
      return logEvent(event.type, `conversation ${event.conversation_id} (${event.status})`);
    case 'service_status':
      logEvent(event.type, [event.status, event.reason].filter(Boolean).join(', '));
      if (event.status === 'ready' && audio && !noSpeech) setStatus('Recording: speak now.');
      if (event.status === 'stt_unavailable') setStatus(NO_SPEECH);
      if (event.status === 'stt_failed') setStatus('Transcription failed on the server; stop and try again.');
      return;
    case 'memory_processing_started':
      if (!accept(event)) return;
      logEvent(event.type, `conversation ${event.conversation_id}`);
      return setStatus('Summarizing the conversation…');
    case 'memory_created': {
      if (!accept(event)) return;
      logEvent(event.type, event.memory?.structured?.title ?? '');
      const binding = bindings.get(event.conversation_id);
      if (binding && binding.segments === 0 && ui.result.hidden === false) return;
      showResult(event);
      if (!audio) finish('Done: the conversation is saved.');
      return;
    }
    default:
      return logEvent(event.type ?? 'message');
  }
}

function onMessage(message) {
  if (typeof message.data !== 'string' || message.data === 'ping') return;
  let parsed;
  try {
    parsed = JSON.parse(message.data);
  } catch {
    return;
  }
  if (Array.isArray(parsed)) showSegments(parsed);
  else if (parsed && typeof parsed === 'object') onEvent(parsed);
}

function socketUrl() {
  const params = new URLSearchParams({ codec: 'pcm16', sample_rate: '16000', language: 'en' });
  const timeout = new URLSearchParams(location.search).get('timeout');
  if (timeout && /^\d+$/.test(timeout)) params.set('conversation_timeout', timeout);
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v4/web/listen?${params}`;
}

async function listenToken() {
  const response = await fetch('/record/token', { method: 'POST', headers: { accept: 'application/json' } });
  if (response.status === 401) throw new Error('Your session has expired: sign in again.');
  if (!response.ok) throw new Error(`Could not start (HTTP ${response.status}).`);
  return (await response.json()).token;
}

/** Opens the stream and resolves once the first-message auth succeeded. */
function connect(token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl());
    ws.binaryType = 'arraybuffer';
    let authed = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
    ws.onmessage = (message) => {
      if (authed) return onMessage(message);
      if (message.data === 'ping') return;
      const reply = JSON.parse(message.data);
      if (reply.type !== 'auth_response') return;
      authed = reply.success === true;
      if (authed) resolve(ws);
      else reject(new Error('The server refused the session.'));
    };
    ws.onclose = (event) => {
      if (!authed) reject(new Error(`Connection closed (${event.code} ${event.reason})`));
      else if (socket === ws) finish(`Disconnected (${event.code}${event.reason ? `: ${event.reason}` : ''}).`);
    };
  });
}

async function startAudio(stream) {
  const context = new AudioContext();
  await context.audioWorklet.addModule('/static/pcm-worklet.js');
  const source = context.createMediaStreamSource(stream);
  const node = new AudioWorkletNode(context, 'pcm16-downsampler');
  node.port.onmessage = ({ data }) => {
    ui.level.value = data.level;
    if (socket?.readyState === WebSocket.OPEN) socket.send(data.pcm);
  };
  source.connect(node);
  return { context, stream, node };
}

function stopAudio() {
  if (!audio) return;
  for (const track of audio.stream.getTracks()) track.stop();
  audio.node.port.onmessage = null;
  audio.node.disconnect();
  void audio.context.close();
  audio = null;
  ui.level.value = 0;
}

function finish(text) {
  stopAudio();
  clearInterval(keepalive);
  keepalive = null;
  const ws = socket;
  socket = null;
  if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, 'done');
  ui.start.disabled = false;
  ui.stop.disabled = true;
  ui.stop.textContent = 'Stop recording';
  setStatus(text);
}

async function start() {
  ui.start.disabled = true;
  ui.result.hidden = true;
  setStatus('Asking for the microphone…');
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1 } });
    setStatus('Connecting…');
    socket = await connect(await listenToken());
    audio = await startAudio(stream);
    ui.stop.disabled = false;
    ui.stop.focus();
    setStatus(noSpeech ? NO_SPEECH : 'Recording: speak now.');
  } catch (err) {
    finish(err instanceof Error ? err.message : String(err));
  }
}

// Stop ends the microphone but keeps the stream open with keepalives, so the server's silence
// timeout closes the conversation and its summary arrives here; a second press disconnects.
function stop() {
  if (!audio) return finish('Disconnected: the conversation is finished on the server later.');
  stopAudio();
  keepalive = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send(SILENCE), 5000);
  ui.stop.textContent = 'Disconnect';
  setStatus('Stopped. Waiting for the pause that ends the conversation; its summary appears below.');
}

ui.start.addEventListener('click', start);
ui.stop.addEventListener('click', stop);
