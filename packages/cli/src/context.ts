import { Cambio, CambioOperator, CambioPortal, parseDecimal, PermissionError, type CambioEvent, type Creation } from '@cambio/sdk';
import { InvalidArgumentError, type Command } from 'commander';
import { loadSettings, UsageError, type Settings } from './config.ts';
import { jsonText, type Io } from './output.ts';

export interface GlobalOptions {
  json?: boolean;
  baseUrl?: string;
  lang?: string;
  verbose?: boolean;
}

/** What every command needs: the SDK clients built from the settings, and the two output modes. */
export class Ctx {
  #settings: Settings | undefined;

  constructor(
    private readonly program: Command,
    readonly io: Io,
  ) {}

  get options(): GlobalOptions {
    return this.program.opts<GlobalOptions>();
  }

  get json(): boolean {
    return Boolean(this.options.json);
  }

  settings(): Settings {
    if (!this.#settings) {
      this.#settings = loadSettings(this.io.env, { baseUrl: this.options.baseUrl, lang: this.options.lang });
      for (const w of this.#settings.warnings) this.io.stderr(`warning: ${w}\n`);
    }
    return this.#settings;
  }

  private onEvent = (e: CambioEvent) => {
    if (!this.options.verbose) return;
    if (e.type === 'retry') this.io.stderr(`retry ${e.attempt} of ${e.method} ${e.path} in ${e.delayMs} ms (${e.code})\n`);
    else this.io.stderr(`${e.type.replace(/_/g, ' ')}: ${e.method} ${e.path}\n`);
  };

  sdk(): Cambio {
    const s = this.settings();
    if (!s.apiKey) throw new UsageError(`no API key: set CAMBIO_API_KEY, or "apiKey" in ${s.configPath}`);
    return new Cambio({ apiKey: s.apiKey, baseUrl: s.baseUrl, lang: s.lang, onEvent: this.onEvent });
  }

  operator(): CambioOperator {
    const s = this.settings();
    if (!s.operatorToken) throw new UsageError(`no operator token: set OPERATOR_TOKEN, or "operatorToken" in ${s.configPath}`);
    return new CambioOperator({
      token: s.operatorToken,
      baseUrl: s.baseUrl,
      lang: s.lang,
      operatorName: this.io.env.CAMBIO_OPERATOR_NAME || undefined,
      onEvent: this.onEvent,
    });
  }

  /**
   * What only a person does (the organization's policy and approvals, docs/controls.md): signs in as the
   * member of CAMBIO_EMAIL and CAMBIO_PASSWORD (CAMBIO_TOTP_CODE when they enrolled TOTP), runs `act`, and
   * signs out. The session cookie lives in this process only; writes name the service's own origin, as
   * the portal's pages do.
   */
  async asMember<T>(act: (portal: CambioPortal) => Promise<T>): Promise<T> {
    const s = this.settings();
    if (!s.memberEmail || !s.memberPassword)
      throw new UsageError(`no member sign-in: set CAMBIO_EMAIL (or "email" in ${s.configPath}) and CAMBIO_PASSWORD`);
    const origin = new URL(s.baseUrl).origin;
    let cookie: string | undefined;
    const fetchWithSession = async (input: string, init: RequestInit): Promise<Response> => {
      const headers = new Headers(init.headers);
      headers.set('origin', origin);
      if (cookie) headers.set('cookie', cookie);
      const r = await fetch(input, { ...init, headers });
      const set = r.headers.getSetCookie().find((c) => c.startsWith('cambio_member='));
      if (set) cookie = set.split(';')[0];
      return r;
    };
    const portal = new CambioPortal({ baseUrl: s.baseUrl, lang: s.lang, fetch: fetchWithSession, onEvent: this.onEvent });
    await portal.session.signIn({ email: s.memberEmail, password: s.memberPassword, ...(s.memberCode ? { code: s.memberCode } : {}) });
    try {
      return await act(portal);
    } finally {
      await portal.session.signOut().catch(() => undefined);
    }
  }

  /** `--json`: the data as exact JSON on stdout; otherwise the human rendering. */
  print(data: unknown, human: () => string): void {
    this.io.stdout(`${this.json ? jsonText(data) : human()}\n`);
  }

  note(message: string): void {
    this.io.stderr(`${message}\n`);
  }

  /** Says on stderr when a creating call's answer was lost and how the SDK resolved it. */
  reportOutcome(c: Creation<unknown>, what: string): void {
    if (c.outcome === 'found_after_timeout')
      this.note(`note: the answer was lost; the ${what} it created was found by reading the list, and was not sent twice`);
    if (c.outcome === 'resent_after_timeout')
      this.note(`note: the answer was lost and the list showed nothing of it; the ${what} was sent again`);
  }

  /**
   * The decimals of an asset as the API reports them (the organization's balances), or as given with
   * --decimals when the organization holds none of it yet (the server checks them where they are sent).
   */
  async decimalsOf(cambio: Cambio, symbol: string, given: number | undefined): Promise<number> {
    let rows: Awaited<ReturnType<Cambio['balances']['list']>>;
    try {
      rows = await cambio.balances.list();
    } catch (e) {
      if (e instanceof PermissionError && given !== undefined) return given;
      throw e;
    }
    const row = rows.find((b) => b.assetSymbol === symbol);
    if (row) {
      if (given !== undefined && given !== row.assetDecimals)
        throw new UsageError(`${symbol} has ${row.assetDecimals} decimals, not ${given}`);
      return row.assetDecimals;
    }
    if (given !== undefined) return given;
    throw new UsageError(`the API reports no decimals for ${symbol} (this organization holds none); give them with --decimals`);
  }
}

/**
 * A decimal typed by a person, in minimum units with the asset's decimals; a malformed amount or one
 * with more decimals than the asset has is a usage error (exit 1), refused before any request.
 */
export function amountArg(text: string, decimals: number, opts: { signed?: boolean } = {}): bigint {
  try {
    return parseDecimal(text, decimals, opts);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

/** Option parser for whole numbers (`--page 2`). */
export function wholeNumber(v: string): number {
  if (!/^[0-9]{1,9}$/.test(v)) throw new InvalidArgumentError('a whole number is expected');
  return Number(v);
}

/** `portal:read,portal:trade` → array. */
export const commaList = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Upper-cases a symbol argument. */
export const symbolArg = (v: string) => v.trim().toUpperCase();
