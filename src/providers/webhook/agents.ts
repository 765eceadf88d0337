import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { guardLookup, nonPublicReason, PrivateTargetError } from './ssrf.js';

export interface AgentPair {
  'http:': http.Agent;
  'https:': https.Agent;
  destroy(): void;
}

/** A socket that fails at once: the request sees the error as it would a refused connection. */
function refusedSocket(reason: string): Duplex {
  const socket = new Socket();
  process.nextTick(() => socket.destroy(new PrivateTargetError(reason)));
  return socket;
}

/** Why a literal host may not be dialled (names never reach here unchecked: the agent's lookup guards them). */
function literalRefusal(host: string | null | undefined): string | null {
  const bare = (host ?? '').replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return null;
  const reason = nonPublicReason(bare);
  return reason === null ? null : `${bare} is ${reason}`;
}

// Node skips `lookup` for IP literals, so a guarded agent checks a literal itself before dialling.
class GuardedHttpAgent extends http.Agent {
  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, s: Duplex) => void) {
    const refusal = literalRefusal(options.host);
    return refusal === null ? super.createConnection(options, callback) : refusedSocket(refusal);
  }
}

class GuardedHttpsAgent extends https.Agent {
  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, s: Duplex) => void) {
    const refusal = literalRefusal(options.host);
    return refusal === null ? super.createConnection(options, callback) : refusedSocket(refusal);
  }
}

/**
 * Keep-alive agents for one kind of destination. Untrusted destinations (app webhooks) get a pair of
 * their own, checked on the resolved address of every new connection; a socket the trusted push
 * gateway opened is never lent to them.
 */
export function createAgents(kind: 'trusted' | 'public-only', resolve: LookupFunction): AgentPair {
  const options = { keepAlive: true, maxFreeSockets: 256 };
  const pair =
    kind === 'trusted'
      ? {
          'http:': new http.Agent({ ...options, lookup: resolve }),
          'https:': new https.Agent({ ...options, lookup: resolve }),
        }
      : {
          'http:': new GuardedHttpAgent({ ...options, lookup: guardLookup(resolve) }),
          'https:': new GuardedHttpsAgent({ ...options, lookup: guardLookup(resolve) }),
        };
  return {
    ...pair,
    destroy() {
      pair['http:'].destroy();
      pair['https:'].destroy();
    },
  };
}
