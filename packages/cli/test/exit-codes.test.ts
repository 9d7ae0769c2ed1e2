import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BadGatewayError,
  ConfigurationError,
  ConnectionError,
  InvalidRequestError,
  LostResponseError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@cambio/sdk';
import { UsageError } from '../src/config.ts';
import { run } from '../src/main.ts';
import { EXIT, errorText, exitCodeOf } from '../src/output.ts';

const at = (method: string, path: string) => ({ method, path, message: 'm' });

describe('exit codes', () => {
  test('a lost answer of a creating call is 6 (outcome unknown), never 4 (transient, safe to retry)', () => {
    assert.equal(EXIT.unknown, 6);
    assert.equal(
      exitCodeOf(new LostResponseError({ status: 0, code: 'sdk.lost_response_unresolved', ...at('POST', '/api/v1/withdrawals') })),
      6,
    );
    assert.equal(exitCodeOf(new TimeoutError({ status: 0, code: 'sdk.timeout', ...at('POST', '/api/v1/orders') })), 6);
    assert.equal(exitCodeOf(new ConnectionError({ status: 0, code: 'sdk.network_error', ...at('POST', '/operator/v1/organizations') })), 6);
    assert.equal(exitCodeOf(new BadGatewayError({ status: 502, code: 'http.502', ...at('POST', '/api/v1/deposits/declarations') })), 6);
  });

  test('what created nothing stays 4: a read that timed out, a refused connection, a 429, a quote', () => {
    assert.equal(exitCodeOf(new TimeoutError({ status: 0, code: 'sdk.timeout', ...at('GET', '/api/v1/withdrawals') })), 4);
    assert.equal(
      exitCodeOf(
        new ConnectionError({
          status: 0,
          code: 'sdk.network_error',
          ...at('POST', '/api/v1/withdrawals'),
          cause: { code: 'ECONNREFUSED' },
        }),
      ),
      4,
    );
    assert.equal(exitCodeOf(new RateLimitError({ status: 429, code: 'rate_limit.exceeded', ...at('POST', '/api/v1/withdrawals') })), 4);
    assert.equal(exitCodeOf(new TimeoutError({ status: 0, code: 'sdk.timeout', ...at('POST', '/api/v1/quotes') })), 4);
  });

  test('usage and configuration 1, refusals 2, server 5, anything unexpected 70', () => {
    assert.equal(exitCodeOf(new UsageError('x')), 1);
    assert.equal(exitCodeOf(new ConfigurationError({ status: 0, code: 'sdk.configuration_error', message: 'bad url' })), 1);
    assert.equal(
      exitCodeOf(new InvalidRequestError({ status: 422, code: 'request.validation_failed', ...at('POST', '/api/v1/withdrawals') })),
      2,
    );
    assert.equal(exitCodeOf(new ServerError({ status: 500, code: 'internal.unexpected', ...at('GET', '/api/v1/client') })), 5);
    assert.equal(EXIT.internal, 70);
    assert.equal(exitCodeOf(new TypeError('cannot read properties of undefined')), 70);
    assert.equal(exitCodeOf(new RangeError('Invalid array length')), 70, 'a RangeError from a bug is not a usage error');
  });

  test('an unexpected exception is reported as an internal error (exit 70), in both modes', async () => {
    const broken = (json: boolean) => {
      const err: string[] = [];
      const io = {
        stdout: () => {
          throw new TypeError('stdout is gone');
        },
        stderr: (s: string) => {
          err.push(s);
        },
        env: {},
      };
      return run(['node', 'cambio', ...(json ? ['--json'] : []), '--help'], io).then((code) => ({ code, stderr: err.join('') }));
    };
    const human = await broken(false);
    assert.equal(human.code, 70);
    assert.match(human.stderr, /^internal error: stdout is gone \(a bug in cambio/);
    const json = await broken(true);
    assert.equal(json.code, 70);
    assert.equal(JSON.parse(json.stderr).error.code, 'cli.internal');
  });

  test('the unknown-outcome message names the list to read', () => {
    const e = new LostResponseError({ status: 0, code: 'sdk.lost_response_unresolved', ...at('POST', '/api/v1/orders') });
    assert.match(errorText(e, false), /Read `cambio orders` before trying again/);
    assert.equal(JSON.parse(errorText(e, true)).error.outcome, 'unknown');
  });
});
