import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An S3-compatible server for tests, at the process boundary: path-style requests on 127.0.0.1,
 * objects in memory, and every request's AWS Signature V4 checked by recomputing it here from
 * the raw request (its own implementation, not the product's). A request signed wrong gets S3's
 * 403 SignatureDoesNotMatch. Listing pages hold `pageSize` keys, so continuation is exercised.
 */

export interface FakeS3Options {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  pageSize?: number;
}

export interface FakeS3 {
  endpoint: string;
  objects: Map<string, Buffer>;
  /** `METHOD path` of each request that passed the signature check */
  log: string[];
  rejected: number;
  /** stops listening (the bucket becomes unreachable); `start` listens again on the same port */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const enc = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** SigV4 of the request as S3 computes it; null when the Authorization header is malformed. */
function expectedSignature(req: IncomingMessage, body: Buffer, options: FakeS3Options): string | null {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$/.exec(
      String(req.headers.authorization ?? ''),
    );
  if (!auth || auth[1] !== options.accessKeyId || auth[3] !== options.region) return null;
  const [path, query = ''] = String(req.url).split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => enc(decodeURIComponent(part))))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name, value = '']) => `${name}=${value}`)
    .join('&');
  const signed = auth[4].split(';');
  const payloadHash = createHash('sha256').update(body).digest('hex');
  if (req.headers['x-amz-content-sha256'] !== payloadHash) return null;
  const canonical = [
    req.method,
    path,
    canonicalQuery,
    ...signed.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}`),
    '',
    auth[4],
    payloadHash,
  ].join('\n');
  const date = String(req.headers['x-amz-date']);
  const scope = `${auth[2]}/${options.region}/s3/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
  const chain = [auth[2], options.region, 's3', 'aws4_request'].reduce<Buffer>(
    (key, part) => createHmac('sha256', key).update(part).digest(),
    Buffer.from(`AWS4${options.secretAccessKey}`),
  );
  if (!signed.includes('host') || !signed.includes('x-amz-date')) return null;
  return createHmac('sha256', chain).update(toSign).digest('hex');
}

function xmlError(res: ServerResponse, status: number, code: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
}

function handle(fake: FakeS3, options: FakeS3Options, req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const expected = expectedSignature(req, body, options);
  const given = /Signature=([0-9a-f]{64})$/.exec(String(req.headers.authorization ?? ''))?.[1];
  if (!expected || expected !== given) {
    fake.rejected++;
    xmlError(res, 403, 'SignatureDoesNotMatch');
    return;
  }
  const url = new URL(String(req.url), 'http://fake');
  const [, bucket, ...rest] = url.pathname.split('/');
  if (bucket !== options.bucket) {
    xmlError(res, 404, 'NoSuchBucket');
    return;
  }
  const key = rest.map(decodeURIComponent).join('/');
  fake.log.push(`${req.method} ${key === '' ? `?${url.searchParams}` : key}`);
  if (key === '' && req.method === 'GET') {
    list(fake, options, url, res);
    return;
  }
  const object = fake.objects.get(key);
  if (req.method === 'PUT') {
    fake.objects.set(key, body);
    res.writeHead(200, { etag: '"x"' }).end();
  } else if (req.method === 'DELETE') {
    fake.objects.delete(key);
    res.writeHead(204).end();
  } else if (!object) {
    xmlError(res, 404, 'NoSuchKey');
  } else if (req.method === 'HEAD') {
    res.writeHead(200, { 'content-length': object.length }).end();
  } else {
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
    if (!range) {
      res.writeHead(200, { 'content-length': object.length }).end(object);
      return;
    }
    const [start, end] = [Number(range[1]), Math.min(Number(range[2]), object.length - 1)];
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${object.length}` });
    res.end(object.subarray(start, end + 1));
  }
}

function list(fake: FakeS3, options: FakeS3Options, url: URL, res: ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  const after = url.searchParams.get('continuation-token') ?? '';
  const keys = [...fake.objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
  const page = keys.slice(0, options.pageSize ?? 1000);
  const truncated = keys.length > page.length;
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${options.bucket}</Name>` +
      page.map((k) => `<Contents><Key>${k}</Key></Contents>`).join('') +
      `<IsTruncated>${truncated}</IsTruncated>` +
      (truncated ? `<NextContinuationToken>${page[page.length - 1]}</NextContinuationToken>` : '') +
      '</ListBucketResult>',
  );
}

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  let server: Server;
  let port = 0;
  const fake: FakeS3 = {
    endpoint: '',
    objects: new Map(),
    log: [],
    rejected: 0,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: () =>
      new Promise<void>((resolve) => {
        server = createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => handle(fake, options, req, res, Buffer.concat(chunks)));
        });
        server.listen(port, '127.0.0.1', () => {
          port = (server.address() as AddressInfo).port;
          fake.endpoint = `http://127.0.0.1:${port}`;
          resolve();
        });
      }),
  };
  await fake.start();
  return fake;
}
