import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { S3Client } from '../../src/audio/s3.js';
import { ConfigError, loadConfig } from '../../src/config.js';

/** AUDIO_STORE=s3 settings: checked at start, one clear line for each bad value. */
describe('S3 client and its configuration', () => {
  const base = { AUDIO_STORE: 's3', S3_BUCKET: 'my-audio', S3_ACCESS_KEY_ID: 'AKID', S3_SECRET_ACCESS_KEY: 'secret' };

  test('local storage unless AUDIO_STORE=s3; AWS defaults for endpoint and region', () => {
    assert.equal(loadConfig({}).audioS3, null);
    assert.deepEqual(loadConfig({ ...base, S3_PREFIX: '/keepsake/audio/' }).audioS3, {
      bucket: 'my-audio',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      region: 'us-east-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: 'keepsake/audio',
    });
    const minio = loadConfig({ ...base, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }).audioS3;
    assert.deepEqual([minio?.endpoint, minio?.forcePathStyle], ['http://minio:9000', true]);
  });

  test('bad or missing values are refused with the variable named', () => {
    const refused = (env: Record<string, string>, message: RegExp) =>
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    refused({ AUDIO_STORE: 'gcs' }, /AUDIO_STORE/);
    refused({ ...base, S3_BUCKET: '' }, /^AUDIO_STORE=s3 needs S3_BUCKET$/);
    refused({ ...base, S3_SECRET_ACCESS_KEY: ' ' }, /^AUDIO_STORE=s3 needs S3_SECRET_ACCESS_KEY$/);
    refused({ ...base, S3_BUCKET: 'My_Bucket' }, /^S3_BUCKET is not a valid bucket name \(got "My_Bucket"\)$/);
    refused({ ...base, S3_ENDPOINT: 'ftp://x' }, /^S3_ENDPOINT must use http:\/\/ or https:\/\//);
    refused({ ...base, S3_REGION: 'EU West' }, /^S3_REGION is not a valid region/);
    refused({ ...base, S3_PREFIX: 'a/../b' }, /^S3_PREFIX may hold/);
    refused({ ...base, S3_FORCE_PATH_STYLE: 'maybe' }, /^S3_FORCE_PATH_STYLE must be true or false/);
  });

  test('the signature matches the GET-object example of the AWS SigV4 documentation', () => {
    const client = new S3Client(
      {
        bucket: 'examplebucket',
        endpoint: 'https://s3.amazonaws.com',
        region: 'us-east-1',
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        forcePathStyle: false,
      },
      () => Date.parse('2013-05-24T00:00:00Z'),
    );
    const headers = client.sign('GET', client.url('test.txt'), { Range: 'bytes=0-9' });
    assert.equal(
      headers.authorization,
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  test('object URLs: virtual-hosted by default, path style on request, keys encoded', () => {
    const settings = { bucket: 'b1', endpoint: 'https://s3.eu-west-3.amazonaws.com', region: 'eu-west-3' };
    const client = (forcePathStyle: boolean) =>
      new S3Client({ ...settings, accessKeyId: 'a', secretAccessKey: 's', forcePathStyle }, () => 0);
    assert.equal(client(false).url('u/c/x y.pcm').href, 'https://b1.s3.eu-west-3.amazonaws.com/u/c/x%20y.pcm');
    assert.equal(client(true).url('u/c/x.pcm').href, 'https://s3.eu-west-3.amazonaws.com/b1/u/c/x.pcm');
    assert.equal(
      client(true).url(null, { prefix: 'p/', 'list-type': '2' }).href,
      'https://s3.eu-west-3.amazonaws.com/b1/?list-type=2&prefix=p%2F',
    );
  });
});
