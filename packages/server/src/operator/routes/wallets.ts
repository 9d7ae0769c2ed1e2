import { DepositWallet, PutDepositWallet } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { walletAddressFor, type DepositWallet as Wallet } from '../../domain/deposits/wallet.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';

const SymbolParam = Type.Object({ symbol: Type.String({ pattern: '^[A-Z0-9]{2,12}$' }) });
const sec = [{ operator: [] }];
const wire = (w: Wallet) => ({ assetSymbol: w.assetSymbol, network: w.network, address: w.address });

/** The deposit wallet of each asset (CONTRACT §3). In the sandbox every address is marked as not real. */
export const walletRoutes = ({ store, config }: AppDeps): FastifyPluginAsyncTypebox => async (app) => {
  const tags = ['operator: deposits'];
  app.put('/wallets/:symbol', { schema: { tags, security: sec, params: SymbolParam, body: PutDepositWallet, response: responses(200, DepositWallet) } }, async (req) => {
    const w = await store.wallets.put(req.operatorActor!, {
      assetSymbol: req.params.symbol, network: req.body.network, address: walletAddressFor(config.mode, req.body.address),
    });
    return ok(req.id, wire(w));
  });

  app.delete('/wallets/:symbol', { schema: { tags, security: sec, params: SymbolParam, response: responses(200, DepositWallet) } }, async (req) => {
    return ok(req.id, wire(await store.wallets.remove(req.operatorActor!, req.params.symbol)));
  });

  app.get('/wallets', { schema: { tags, security: sec, response: listResponses(DepositWallet) } }, async (req) => {
    return ok(req.id, (await store.wallets.list()).map(wire));
  });
};
