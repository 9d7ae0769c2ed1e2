import { createServer } from 'node:http';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { parseNoteKey } from '../verify/log-check.ts';
import { loadOrCreateKey, Witness } from '../witness/witness.ts';

/** Request bodies larger than this are refused: a checkpoint and 63 proof lines fit many times over. */
const MAX_BODY = 64 * 1024;

/**
 * `cambio witness key|serve` (docs/transparency.md): anyone watches the log for the clients. `key` prints
 * the witness's verifier key (generating the key file once); `serve` runs the C2SP tlog-witness
 * `POST /add-checkpoint` for one log, its state kept beside its key.
 */
export function register(program: Command, ctx: Ctx): void {
  const witness = program.command('witness').description('a witness of the journal log (C2SP tlog-witness): key, serve');
  witness
    .command('key')
    .description('print the witness verifier key on one line, generating the key file once')
    .requiredOption('--key-file <file>', 'the witness key file (created when missing)')
    .option('--name <name>', 'the witness name when the key is generated', `cambio-witness/${hostname()}`)
    .action((opts: { keyFile: string; name: string }) => {
      ctx.io.stdout(`${loadOrCreateKey(opts.keyFile, opts.name).verifierKey}\n`);
    });
  witness
    .command('serve')
    .description('serve POST /add-checkpoint for the log whose verifier key is --log-key; cosigns only consistent checkpoints')
    .requiredOption('--key-file <file>', 'the witness key file (created when missing; its state is kept beside it)')
    .requiredOption('--log-key <vkey>', "the log's verifier key (GET /transparency/key)")
    .option('--port <port>', 'the port to listen on (0: any free one)', '0')
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--name <name>', 'the witness name when the key is generated', `cambio-witness/${hostname()}`)
    .action(async (opts: { keyFile: string; logKey: string; port: string; host: string; name: string }) => {
      const w = new Witness(loadOrCreateKey(opts.keyFile, opts.name), parseNoteKey(opts.logKey), `${opts.keyFile}.state.json`);
      const server = createServer((req, res) => {
        if (req.method !== 'POST' || req.url !== '/add-checkpoint') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_BODY) chunks.push(c);
        });
        req.on('end', () => {
          if (size > MAX_BODY) {
            res.writeHead(413, { 'content-type': 'text/plain' }).end('too large\n');
            return;
          }
          w.add(Buffer.concat(chunks).toString('utf8')).then(
            (r) => {
              if (r.status === 200) res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(r.body);
              else if (r.status === 409) res.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end(`${r.size}\n`);
              else res.writeHead(r.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${r.reason}\n`);
            },
            (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${e instanceof Error ? e.message : String(e)}\n`),
          );
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(Number(opts.port), opts.host, () => resolve());
      });
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : Number(opts.port);
      ctx.io.stdout(`witness listening on http://${opts.host}:${port}\n`);
      // Serves until the process is stopped.
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', () => server.close(() => resolve()));
        process.once('SIGINT', () => server.close(() => resolve()));
      });
    });
}
