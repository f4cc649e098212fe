// Runs s3rver under Node.js for the tests: s3rver encrypts its list continuation tokens with DES,
// which Bun's crypto (BoringSSL) does not have, so it cannot run inside the Bun test process.
// Usage: node s3rver-main.cjs <directory> <bucket>; prints {"port":N} once listening.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Transform } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const S3rver = require('s3rver');
const FilesystemStore = require('s3rver/lib/stores/filesystem');

// s3rver 3.7.1 answers a PUT once its body has been read, not once the file holding it is written
// (it waits for its hashing stream's 'finish', not the file stream's): a GET right after the PUT
// could read an empty or short file, which a loaded test run saw. The same store, answering after
// the file is complete.
FilesystemStore.prototype.putObject = async function putObject(object) {
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
  const md5 = crypto.createHash('md5');
  let size = 0;
  if (Buffer.isBuffer(object.content)) {
    md5.update(object.content);
    size = object.content.length;
    await fs.promises.writeFile(objectPath, object.content);
  } else {
    const measure = new Transform({
      transform(chunk, encoding, callback) {
        md5.update(chunk, encoding);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(object.content, measure, fs.createWriteStream(objectPath));
  }
  const digest = md5.digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
};

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: process.env.S3RVER_LOG !== '1', directory, configureBuckets: [{ name: bucket }] });
server.run().then(
  ({ port }) => process.stdout.write(`${JSON.stringify({ port })}\n`),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
// The test process closes stdin when it ends: never outlive it.
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
