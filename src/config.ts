import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { bool, ConfigError, type Env, host, integer, nonEmpty, oneOf, positiveNumber, url } from './config-env.js';

/** The only module that reads process.env (STYLE.md). Everything else receives a Config. */

export type SttProviderName = 'auto' | 'deepgram' | 'openai' | 'sherpa' | 'pocketsphinx' | 'none';
export type RecordingSessionMode = 'dual_write' | 'shadow' | 'enforce';
export type DispatchMode = 'inline' | 'queue';
/** Readable log lines for a person at a terminal, JSON lines for collectors; auto picks by stdout. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  llm: { baseUrl: string; apiKey: string | null; model: string } | null;
  embeddings: { baseUrl: string; apiKey: string | null; model: string } | null;
  stt: {
    provider: SttProviderName;
    deepgramApiKey: string | null;
    deepgramUrl: string;
    baseUrl: string | null;
    apiKey: string | null;
    modelDir: string | null;
    /** VAD_ENGINE: Silero first (`auto`) or only the energy detector (`energy`). */
    vad?: 'auto' | 'energy';
  };
  speakerModel: string | null;
  /** Where captured audio is stored (AUDIO_DIR; default DATA_DIR/audio, in memory when DATA_DIR is :memory:). */
  audioDir: string | null;
  /** AUDIO_STORE=s3: captured audio in an S3-compatible bucket instead (docs/deployment.md). */
  audioS3: AudioS3Config | null;
  oidc: OidcConfig | null;
  recordingSessionMode: RecordingSessionMode;
  dispatchMode: DispatchMode;
  pushWebhookUrl: string | null;
  /** Signs push-gateway calls (X-Keepsake-Signature) when set. */
  pushWebhookSecret: string | null;
  allowPrivateWebhooks: boolean;
  /** Timeout of one outgoing webhook or push call. */
  webhookTimeoutMs: number;
  rateLimitBoost: number;
  /** Per-policy overrides from RATE_LIMITS (`policy=max/windowSeconds,...`); RATE_LIMIT_BOOST still applies. */
  rateLimits: Record<string, RateLimitOverride>;
  /** Secret for session tokens and signed URLs; null → generated once and kept in DATA_DIR. */
  secret: string | null;
  logLevel: string;
  /** LOG_FORMAT: auto (readable on a terminal, JSON otherwise), json or pretty. */
  logFormat: LogFormat;
  /** Largest accepted request body in bytes (documented in the README). */
  bodyLimit: number;
  /** Worker threads running the local engine (ENGINE_WORKERS; 0: on the main thread). */
  engineWorkers: number;
  /** Memory for cached developer-API list responses (RESPONSE_CACHE_MB; 0 turns the cache off). */
  responseCacheBytes: number;
  publicUrl: string | null;
  /** Live listen stream timers and limits (SPEC §8); tests shorten them. */
  listen: ListenTimings;
  /** Scale-out operations (docs/deployment.md): metrics token, pool size, shutdown delay. */
  ops: OpsConfig;
}

export interface OpsConfig {
  /** When set, GET /metrics needs `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken: string | null;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** On SIGTERM, /readyz answers 503 this long before the server stops accepting (SHUTDOWN_DELAY_SECONDS). */
  shutdownDelayMs: number;
  /** Open notification streams (SSE) one user may hold (MAX_SSE_STREAMS_PER_USER; over all processes with Redis). */
  maxSseStreamsPerUser: number;
  /** Open /v4/listen and /v4/web/listen sockets one user may hold (MAX_LISTEN_SOCKETS_PER_USER). */
  maxListenSocketsPerUser: number;
}

function opsConfig(env: Env): OpsConfig {
  return {
    metricsToken: nonEmpty(env, 'METRICS_TOKEN'),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 600) * 1000,
    maxSseStreamsPerUser: integer(env, 'MAX_SSE_STREAMS_PER_USER', 10, 1, 10_000),
    maxListenSocketsPerUser: integer(env, 'MAX_LISTEN_SOCKETS_PER_USER', 8, 1, 10_000),
  };
}

/** SPEC §8 / research/omi-listen.md §1.7 timers of the live stream, in milliseconds. */
export interface ListenTimings {
  lifecycleCheckMs: number;
  minConversationTimeoutMs: number;
  inactivityMs: number;
  receiveTimeoutMs: number;
  pingMs: number;
  drainMs: number;
  webAuthTimeoutMs: number;
  /** A live socket renews its recording session's lease; an expired lease marks the session gone. */
  sessionLeaseMs: number;
  /** How often the stale-session sweep looks for conversations whose session is gone. */
  sweepMs: number;
  finalizationLeaseMs: number;
  finalizationMaxAttempts: number;
}

export const DEFAULT_LISTEN_TIMINGS: ListenTimings = {
  lifecycleCheckMs: 5_000,
  minConversationTimeoutMs: 120_000,
  inactivityMs: 90_000,
  receiveTimeoutMs: 300_000,
  pingMs: 10_000,
  drainMs: 30_000,
  webAuthTimeoutMs: 5_000,
  sessionLeaseMs: 60_000,
  sweepMs: 30_000,
  finalizationLeaseMs: 60_000,
  finalizationMaxAttempts: 5,
};

function listenTimings(env: Env): ListenTimings {
  return {
    ...DEFAULT_LISTEN_TIMINGS,
    sessionLeaseMs: integer(env, 'LISTEN_SESSION_LEASE_SECONDS', 60, 1, 86_400) * 1000,
    sweepMs: integer(env, 'LISTEN_SWEEP_INTERVAL_SECONDS', 30, 1, 86_400) * 1000,
    finalizationLeaseMs: integer(env, 'LISTEN_FINALIZATION_LEASE_SECONDS', 60, 1, 86_400) * 1000,
    finalizationMaxAttempts: integer(env, 'LISTEN_FINALIZATION_MAX_ATTEMPTS', 5, 1, 100),
    // Operators keep the SPEC §8 defaults; the multi-process tests shorten silence detection.
    lifecycleCheckMs: integer(env, 'LISTEN_LIFECYCLE_CHECK_SECONDS', 5, 1, 3600) * 1000,
    minConversationTimeoutMs: integer(env, 'LISTEN_MIN_CONVERSATION_TIMEOUT_SECONDS', 120, 1, 86_400) * 1000,
  };
}

export { ConfigError };

export interface AudioS3Config {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** key prefix inside the bucket, without slashes at the ends ('' for none) */
  prefix: string;
}

/** AUDIO_STORE=s3 and its S3_* settings; every bad or missing value is one clear line. */
function audioS3Config(env: Env): AudioS3Config | null {
  if (oneOf(env, 'AUDIO_STORE', ['local', 's3'], 'local') === 'local') return null;
  const required = (name: string) => {
    const value = nonEmpty(env, name);
    if (value === null) throw new ConfigError(`AUDIO_STORE=s3 needs ${name}`);
    return value;
  };
  const bucket = required('S3_BUCKET');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(`S3_BUCKET is not a valid bucket name (got "${bucket}")`);
  const region = nonEmpty(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new ConfigError(`S3_REGION is not a valid region (got "${region}")`);
  const prefix = (nonEmpty(env, 'S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !prefix.split('/').every((p) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(p)))
    throw new ConfigError(`S3_PREFIX may hold letters, digits, '.', '_', '-' and '/' only (got "${prefix}")`);
  return {
    bucket,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']) ?? `https://s3.${region}.amazonaws.com`,
    region,
    accessKeyId: required('S3_ACCESS_KEY_ID'),
    secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE'),
    prefix,
  };
}

export interface OidcConfig {
  issuer: string;
  /** Audience API tokens must carry (OIDC_AUDIENCE); null accepts any. */
  audience: string | null;
  /** Web sign-in with the provider (authorization code + PKCE) is offered when a client id is set. */
  clientId: string | null;
  clientSecret: string | null;
  /** Callback URL registered with the provider; null → PUBLIC_URL or the request's own address. */
  redirectUrl: string | null;
}

function oidcConfig(env: Env, issuer: string | null): OidcConfig | null {
  const clientId = nonEmpty(env, 'OIDC_CLIENT_ID');
  if (issuer === null) {
    if (clientId !== null) throw new ConfigError('OIDC_CLIENT_ID needs OIDC_ISSUER (the identity provider)');
    return null;
  }
  const clientSecret = nonEmpty(env, 'OIDC_CLIENT_SECRET');
  const redirectUrl = url(env, 'OIDC_REDIRECT_URL', ['http:', 'https:']);
  if (clientId === null && (clientSecret !== null || redirectUrl !== null))
    throw new ConfigError('OIDC_CLIENT_SECRET and OIDC_REDIRECT_URL need OIDC_CLIENT_ID (the web sign-in client)');
  if (redirectUrl !== null && new URL(redirectUrl).pathname !== '/sign-in/oidc/callback')
    throw new ConfigError(`OIDC_REDIRECT_URL must end in /sign-in/oidc/callback (got "${redirectUrl}")`);
  return { issuer, audience: nonEmpty(env, 'OIDC_AUDIENCE'), clientId, clientSecret, redirectUrl };
}

export function loadConfig(env: Env = process.env): Config {
  const llmBase = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  const embeddingsBase = url(env, 'EMBEDDINGS_BASE_URL', ['http:', 'https:']) ?? llmBase;
  const issuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']);
  const secret = nonEmpty(env, 'KEEPSAKE_SECRET');
  if (secret !== null && secret.length < 32) throw new ConfigError('KEEPSAKE_SECRET must be at least 32 characters');
  return {
    host: host(env),
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: resolve(nonEmpty(env, 'DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    llm: llmBase
      ? { baseUrl: llmBase, apiKey: nonEmpty(env, 'LLM_API_KEY'), model: nonEmpty(env, 'LLM_MODEL') ?? 'gpt-4o-mini' }
      : null,
    embeddings: embeddingsBase
      ? {
          baseUrl: embeddingsBase,
          apiKey: nonEmpty(env, 'EMBEDDINGS_API_KEY') ?? nonEmpty(env, 'LLM_API_KEY'),
          model: nonEmpty(env, 'EMBEDDINGS_MODEL') ?? 'text-embedding-3-small',
        }
      : null,
    stt: {
      provider: oneOf(env, 'STT_PROVIDER', ['auto', 'deepgram', 'openai', 'sherpa', 'pocketsphinx', 'none'], 'auto'),
      deepgramApiKey: nonEmpty(env, 'DEEPGRAM_API_KEY'),
      deepgramUrl: url(env, 'DEEPGRAM_URL', ['http:', 'https:', 'ws:', 'wss:']) ?? 'wss://api.deepgram.com',
      baseUrl: url(env, 'STT_BASE_URL', ['http:', 'https:']),
      apiKey: nonEmpty(env, 'STT_API_KEY'),
      modelDir: nonEmpty(env, 'STT_MODEL_DIR'),
      vad: oneOf<'auto' | 'energy'>(env, 'VAD_ENGINE', ['auto', 'energy'], 'auto'),
    },
    speakerModel: nonEmpty(env, 'SPEAKER_MODEL'),
    audioDir: nonEmpty(env, 'AUDIO_DIR') === null ? null : resolve(nonEmpty(env, 'AUDIO_DIR') ?? ''),
    audioS3: audioS3Config(env),
    oidc: oidcConfig(env, issuer),
    recordingSessionMode: oneOf(env, 'RECORDING_SESSION_MODE', ['dual_write', 'shadow', 'enforce'], 'dual_write'),
    dispatchMode: oneOf(env, 'LISTEN_FINALIZATION_DISPATCH_MODE', ['inline', 'queue'], 'inline'),
    pushWebhookUrl: url(env, 'PUSH_WEBHOOK_URL', ['http:', 'https:']),
    pushWebhookSecret: nonEmpty(env, 'PUSH_WEBHOOK_SECRET'),
    allowPrivateWebhooks: bool(env, 'ALLOW_PRIVATE_WEBHOOKS'),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    rateLimitBoost: positiveNumber(env, 'RATE_LIMIT_BOOST', 1),
    rateLimits: rateLimitOverrides(env),
    secret,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    bodyLimit: integer(env, 'BODY_LIMIT', 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    engineWorkers: integer(env, 'ENGINE_WORKERS', Math.min(4, availableParallelism()), 0, 64),
    responseCacheBytes: integer(env, 'RESPONSE_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']),
    listen: listenTimings(env),
    ops: opsConfig(env),
  };
}

/** A config for tests: embedded defaults, nothing read from the environment except what is passed. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Suites send many requests; a huge boost lifts the hourly limits. Rate-limit tests set their own.
  // The engine runs in-process: a worker thread loads it anew (seconds), too slow for a test's context.
  const base = { dataDir: ':memory:', rateLimitBoost: 1e6, engineWorkers: 0 };
  return { ...loadConfig({ LOG_LEVEL: 'silent' }), ...base, ...overrides };
}

export interface RateLimitOverride {
  max: number;
  windowSeconds: number;
}

/** RATE_LIMITS=`dev:memories_read=600/3600,dev:conversations=50/60`; names are checked when the limiter starts. */
function rateLimitOverrides(env: Env): Record<string, RateLimitOverride> {
  const value = nonEmpty(env, 'RATE_LIMITS');
  const out: Record<string, RateLimitOverride> = {};
  if (value === null) return out;
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9_]+:[a-z0-9_]+)=(\d{1,9})\/(\d{1,9})$/.exec(entry);
    if (!match || Number(match[2]) < 1 || Number(match[3]) < 1) {
      throw new ConfigError(
        `RATE_LIMITS entries must look like policy=max/windowSeconds with positive integers (got "${entry}")`,
      );
    }
    out[match[1]] = { max: Number(match[2]), windowSeconds: Number(match[3]) };
  }
  return out;
}
