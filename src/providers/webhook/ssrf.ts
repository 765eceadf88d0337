import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Thrown when a webhook target resolves to an address outside the public internet. */
export class PrivateTargetError extends Error {
  override readonly name = 'PrivateTargetError';
}

// Loopback, private, link-local, unique-local, CGNAT, multicast and reserved ranges: never a webhook target
// unless ALLOW_PRIVATE_WEBHOOKS=true (DESIGN §5). IPv4-mapped IPv6 addresses are checked against the IPv4 rules.
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Refuses a URL whose host is a private IP literal or `localhost`. Names are checked again at connect
 * time by `guardedLookup`, so a DNS answer that changes after this check cannot slip through.
 */
export function assertPublicUrl(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host))
    throw new PrivateTargetError(`${host} is a loopback name`);
  if (isIP(host) !== 0 && isPrivateAddress(host)) throw new PrivateTargetError(`${host} is not a public address`);
}

/** A DNS lookup for outgoing sockets that refuses names resolving to any private address. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused || addresses.length === 0) {
      callback(new PrivateTargetError(`${hostname} resolves to ${refused?.address ?? 'nothing'}`), '', 0);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
