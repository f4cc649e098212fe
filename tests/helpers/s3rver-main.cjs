// Runs s3rver under Node.js for the tests: s3rver encrypts its list continuation tokens with DES,
// which Bun's crypto (BoringSSL) does not have, so it cannot run inside the Bun test process.
// Usage: node s3rver-main.cjs <directory> <bucket>; prints {"port":N} once listening.
const S3rver = require('s3rver');

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
