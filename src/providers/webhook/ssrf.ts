import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Thrown when a webhook target resolves to an address outside the public internet. */
export class PrivateTargetError extends Error {
  override readonly name = 'PrivateTargetError';
}

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// ipaddr.js classifies against the IANA special-purpose registries; only `unicast` is the public internet.
const LABELS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  rfc6052: 'a local-use NAT64 address',
};

const label = (range: string) => LABELS[range] ?? `a reserved address (${range})`;

function ipv4Reason(ip: IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : label(range);
}

const fromParts = (high: number, low: number): IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 address an IPv6 address carries, and how: traffic to it reaches that IPv4 host, so the
 * IPv4 rules decide. IPv4-compatible (::a.b.c.d), IPv4-mapped and -translated (::ffff:…, ::ffff:0:…),
 * NAT64 well-known prefix (64:ff9b::/96), 6to4 (2002:AABB:CCDD::) and Teredo (client = NOT last 32 bits).
 */
function embeddedIPv4(ip: IPv6, range: string): [IPv4, string] | null {
  const p = ip.parts;
  switch (range) {
    case 'ipv4Mapped':
      return [fromParts(p[6], p[7]), 'IPv4-mapped'];
    case 'rfc6145':
      return [fromParts(p[6], p[7]), 'IPv4-translated'];
    case 'rfc6052':
      // 64:ff9b:1::/48 is for local translators (RFC 8215): its embedding is site-defined, so it is refused whole.
      return p[2] === 0 ? [fromParts(p[6], p[7]), 'NAT64'] : null;
    case '6to4':
      return [fromParts(p[1], p[2]), '6to4'];
    case 'teredo':
      return [fromParts(~p[6] & 0xffff, ~p[7] & 0xffff), 'Teredo'];
    case 'unicast':
      return p.slice(0, 6).every((part) => part === 0) ? [fromParts(p[6], p[7]), 'IPv4-compatible'] : null;
    default:
      return null;
  }
}

function ipv6Reason(ip: IPv6): string | null {
  const range = ip.range();
  const embedded = embeddedIPv4(ip, range);
  if (embedded) {
    const [inner, how] = embedded;
    const reason = ipv4Reason(inner);
    return reason === null ? null : `${how} and embeds ${inner.toString()}, ${reason}`;
  }
  return range === 'unicast' ? null : label(range);
}

/** Why an IP address is outside the public internet ('a loopback address', …), or null when it is public. */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  return family === 4 ? ipv4Reason(ipaddr.IPv4.parse(address)) : ipv6Reason(ipaddr.IPv6.parse(address));
}

/** Whether an IP address is outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  return nonPublicReason(address) !== null;
}

// RFC 6761 reserves localhost and *.localhost; the others are the usual /etc/hosts aliases of loopback.
const LOOPBACK_NAME = /(^|\.)localhost\.?$|^localhost\.localdomain\.?$|^ip6-(localhost|loopback)\.?$/i;

/**
 * Why a URL can never be a public webhook target (its host is a private IP literal or a loopback
 * name), or null. A name that resolves privately is only known at connect time (`guardLookup`).
 */
export function nonPublicUrlReason(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (LOOPBACK_NAME.test(host)) return `${host} is a loopback name`;
  if (isIP(host) === 0) return null;
  const reason = nonPublicReason(host);
  return reason === null ? null : `${host} is ${reason}`;
}

/** Refuses a URL whose host is a private IP literal or a loopback name. */
export function assertPublicUrl(url: URL): void {
  const reason = nonPublicUrlReason(url);
  if (reason !== null) throw new PrivateTargetError(reason);
}

/**
 * A DNS lookup for outgoing sockets that refuses names resolving to any non-public address. It runs
 * when a socket connects, so a DNS answer that changes after the URL was checked cannot slip through.
 */
export function guardLookup(resolve: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, result) => {
      const addresses = Array.isArray(result) ? (result as LookupAddress[]) : [];
      if (err) {
        callback(err, '', 0);
        return;
      }
      const refused = addresses.find((a) => isPrivateAddress(a.address));
      if (refused || addresses.length === 0) {
        const why = refused ? `${refused.address}, ${nonPublicReason(refused.address)}` : 'nothing';
        callback(new PrivateTargetError(`${hostname} resolves to ${why}`), '', 0);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export const guardedLookup = guardLookup();
