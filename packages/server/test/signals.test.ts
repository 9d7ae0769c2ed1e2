import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';

const root = new URL('../../../', import.meta.url).pathname;

/**
 * `kill -TERM` to `npm start`'s process group (what systemd does) reaches the service twice: once from
 * the manager, once forwarded by npm. That is one request to stop: a clean shutdown, exit code 0.
 */
test("SIGTERM delivered twice at once (the group and npm's forward) is one clean shutdown", async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      DATABASE_URL: '',
      CAMBIO_SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      CAMBIO_RATE_LIMIT_PER_MIN: '0',
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  for (let i = 0; i < 1200 && !/listening on/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(out, /listening on http:\/\/127\.0\.0\.1:\d+/, out);
  // A request in flight (its body never finishes) holds the clean shutdown open while the copy arrives.
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('POST /api/v1/quotes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  // npm's copy arrives a moment after the manager's, once the first is being handled
  for (let i = 0; i < 2000 && !/shutting down/.test(out); i++) await new Promise((r) => setTimeout(r, 2));
  child.kill('SIGTERM');
  // Then the request in flight ends (the client goes away) and the shutdown can finish.
  await Promise.race([exited, new Promise((r) => setTimeout(r, 500))]);
  socket.destroy();
  const [code] = await exited;
  assert.match(out, /shutting down/);
  assert.doesNotMatch(out, /second signal/, out);
  assert.equal(code, 0, out);
});
