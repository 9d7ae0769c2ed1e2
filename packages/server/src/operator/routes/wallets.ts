import { DepositWallet, PutDepositWallet } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { walletAddressFor, type DepositWallet as Wallet } from '../../domain/deposits/wallet.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { putWallet } from '../../usecases/wallets/put-wallet.ts';
import { removeWallet } from '../../usecases/wallets/remove-wallet.ts';

const SymbolParam = Type.Object({ symbol: Type.String({ pattern: '^[A-Z0-9]{2,12}$' }) });
const sec = [{ operator: [] }];
const wire = (w: Wallet) => ({ assetSymbol: w.assetSymbol, network: w.network, address: w.address });

/** The deposit wallet of each asset (docs/operator-guide.md). In the sandbox every address is marked as not real. */
export const walletRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, config, venue } = deps;
    const tags = ['operator: deposits'];
    app.put(
      '/wallets/:symbol',
      { schema: { tags, security: sec, params: SymbolParam, body: PutDepositWallet, response: responses(200, DepositWallet) } },
      async (req) => {
        const b = req.body;
        if (b.source === 'venue') {
          // docs/market.md: the venue account's own deposit address, read from it (and followed when it changes there).
          if (b.address !== undefined)
            throw new DomainError('request.validation_failed', {
              detail: 'a venue wallet takes its address from the venue: leave address out',
            });
          if (!venue.custody)
            throw new DomainError('request.validation_failed', {
              detail: '"source": "venue" needs CAMBIO_MODE=production with CAMBIO_VENUE=ccxt:<exchange>',
            });
          const address = await venue.custody.depositAddress(req.params.symbol, b.network);
          return ok(
            req.id,
            wire(
              await putWallet(deps, req.operatorActor!, { assetSymbol: req.params.symbol, network: b.network, address, source: 'venue' }),
            ),
          );
        }
        if (b.address === undefined)
          throw new DomainError('request.validation_failed', { detail: 'address is required (or "source": "venue")' });
        const w = await putWallet(deps, req.operatorActor!, {
          assetSymbol: req.params.symbol,
          network: b.network,
          address: walletAddressFor(config.mode, b.address),
        });
        return ok(req.id, wire(w));
      },
    );

    app.delete(
      '/wallets/:symbol',
      { schema: { tags, security: sec, params: SymbolParam, response: responses(200, DepositWallet) } },
      async (req) => {
        return ok(req.id, wire(await removeWallet(deps, req.operatorActor!, req.params.symbol)));
      },
    );

    app.get('/wallets', { schema: { tags, security: sec, response: listResponses(DepositWallet) } }, async (req) => {
      return ok(req.id, (await store.wallets.list()).map(wire));
    });
  };
